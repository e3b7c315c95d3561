"""Reading back the PNG pictures the build draws (charts/common.py png_uri), cell by cell."""
from __future__ import annotations

import base64
import struct
import zlib


def png_pixels(uri: str) -> list[list[str | None]]:
    """The pixels of a data: URI PNG as '#rrggbb' (None where clear), row by row. Reads
    the unfiltered palette and RGB(A) images png_uri writes, and fails on anything else."""
    png = base64.b64decode(uri.removeprefix("data:image/png;base64,"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks: dict[bytes, bytes] = {}
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        name, body = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(name + body)
        chunks[name] = chunks.get(name, b"") + body
        at += 12 + length
    width, height, depth, kind = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and kind in (2, 3, 6)
    size = {2: 3, 3: 1, 6: 4}[kind]
    raw = zlib.decompress(chunks[b"IDAT"])
    assert len(raw) == height * (1 + width * size)
    palette = chunks.get(b"PLTE", b"")
    alpha = chunks.get(b"tRNS", b"")
    rows = []
    for r in range(height):
        line = raw[r * (1 + width * size):(r + 1) * (1 + width * size)]
        assert line[0] == 0, "rows are stored unfiltered"
        cells = [line[1 + i * size:1 + (i + 1) * size] for i in range(width)]
        if kind == 3:
            rows.append([None if i < len(alpha) and alpha[i] == 0 else "#" + palette[3 * i:3 * i + 3].hex()
                         for (i,) in cells])
        else:
            rows.append([None if kind == 6 and c[3] == 0 else "#" + c[:3].hex() for c in cells])
    return rows


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height of any 8-bit PNG (a browser's, filtered rows and all), once
    it has been decoded far enough to know it is whole: every chunk's checksum, the
    image data inflating to exactly its rows, each led by a known filter."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks: dict[bytes, bytes] = {}
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        name, body = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(name + body), name
        chunks[name] = chunks.get(name, b"") + body
        at += 12 + length
    assert b"IEND" in chunks
    width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and interlace == 0
    size = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[kind]
    raw = zlib.decompress(chunks[b"IDAT"])
    row = 1 + width * size
    assert len(raw) == height * row
    assert all(raw[r * row] <= 4 for r in range(height)), "an unknown row filter"
    return width, height


def colour_bar(figure: dict) -> tuple[list[str], list[str]] | None:
    """A chart's colour bar as the build draws it in the layout (charts/colour_bar.py): the
    colours of its gradient, top to bottom, and the values written beside it; None without one."""
    from urllib.parse import unquote
    import re

    layout = figure["layout"]
    bars = [image for image in layout.get("images", []) if image.get("sizing") == "contain"]
    if not bars:
        return None
    [bar] = bars
    stops = re.findall(r"stop-color='(#[0-9a-f]{6})'", unquote(bar["source"]))
    written = [note["text"] for note in layout.get("annotations", []) if note.get("xshift", 0) >= 26]
    written += [shape["label"]["text"] for shape in layout.get("shapes", [])
                if shape.get("x0") == shape.get("x1") == 1 and shape.get("label", {}).get("textposition") == "middle left"]
    return stops, written
