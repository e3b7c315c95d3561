// Whether the page is in a frame (an embed, an LMS's), where scrolling the page into place
// would move the host page too; and scrolling the page's own window there at once.

export function framed() {
  try { return window.self !== window.top; } catch (err) { return true; }
}

// Scrolls this window to `top` at once, as an opened link lands, even where the theme
// makes in-page scrolling smooth.
export function scrollAtOnce(top) {
  try { window.scrollTo({ top: top, behavior: "instant" }); } catch (old) { window.scrollTo(0, top); }
}
