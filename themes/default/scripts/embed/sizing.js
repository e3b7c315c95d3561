// What embed.js decides about a message from an embed, without a page (unit-tested in
// tests/scripts/embed.test.mjs).

export var MAX_HEIGHT = 20000;   // a runaway frame must not grow the page without bound

// The origin an http(s) frame's messages must come from; null for any other src (a
// file: URL, about:blank), whose messages carry the origin "null" and which is matched
// by its window alone. (new URL("file:///…").origin is "file://", never "null".)
export function originOf(src, base) {
  try {
    var url = new URL(src, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch (err) { return null; }
}

// Whether a message from `origin` may resize a frame loaded from `expected` (originOf).
// A frame from disk, or a sandboxed one (no allow-same-origin), sends the origin "null":
// its window must match, which is all that can be checked.
export function trusted(origin, expected, sandboxed) {
  var opaque = origin === "null" && (!expected || sandboxed);
  return !expected || origin === expected || opaque;
}

// The height a "lensa:resize" message asks for, in whole pixels up to MAX_HEIGHT; null for
// any other message, or a height that is not a positive number.
export function askedHeight(data) {
  if (!data || typeof data !== "object" || data.type !== "lensa:resize") return null;
  var height = Math.ceil(Number(data.height));
  return height > 0 ? Math.min(height, MAX_HEIGHT) : null;
}
