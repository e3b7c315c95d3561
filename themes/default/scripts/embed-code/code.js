// The iframe code of an Embed panel, without a page (unit-tested in
// tests/scripts/embed.test.mjs).

// The same escaping as Python's html.escape(quote=True), which wrote the code at build time.
export function escapeAttribute(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

// The embed's address in full, where the build wrote a relative one (a site without a
// base_url) and the page, served over http(s) from `page`, knows its own; else null.
export function absoluteSource(src, page) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || !/^https?:/.test(page)) return null;
  try { return new URL(src, page).href; } catch (err) { return null; }
}

// The code the build wrote (`original`, with src="`src`"), loading `newSrc` instead.
export function codeWith(original, src, newSrc) {
  return original.replace('src="' + escapeAttribute(src) + '"', 'src="' + escapeAttribute(newSrc) + '"');
}
