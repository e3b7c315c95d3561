"""The iframe code an Embed button offers to course authors."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .urls import Urls

# The iframe attributes LMS editors keep: Canvas's sanitiser drops the rest
# (style, loading, sandbox, data-*), so the code offers nothing that would vanish.
IFRAME_ATTRIBUTES = ("src", "title", "width", "height", "frameborder", "allowfullscreen")


@dataclass(frozen=True)
class EmbedCode:
    src: str      # absolute when the site has a base_url, else relative to the page offering it
    href: str     # always relative, for a link that opens the embed from disk too
    title: str
    height: int
    html: str     # the <iframe> element, attributes escaped, ready to paste

    @property
    def absolute(self) -> bool:
        return self.src.startswith(("https://", "http://"))


def embed_code(urls: Urls, path: str, title: str, height: int) -> EmbedCode:
    """The iframe code for the embed at build path `path`, offered on the page `urls` belongs to."""
    src = urls.published(path) or urls.to(path)
    return EmbedCode(src, urls.to(path), title, height, iframe_html(src, title, height))


def iframe_html(src: str, title: str, height: int) -> str:
    attributes = {"src": src, "title": title, "width": "100%", "height": str(height), "frameborder": "0"}
    text = " ".join(f'{name}="{escape(value, quote=True)}"' for name, value in attributes.items())
    return f"<iframe {text}></iframe>"
