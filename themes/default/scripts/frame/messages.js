// The two messages an embed sends its host with its height (frame/main.js), without a
// page (unit-tested in tests/scripts/embed.test.mjs): the documented generic one, read by
// embed.js or any host script, and Canvas's resize request, as a JSON string, which both
// current and older Canvas versions parse. `step`: the embed's step as written in its
// page (a string), or null.
export function resizeMessages(height, slug, step) {
  return [
    { type: "lensa:resize", version: 1, height: height, slug: slug, step: step ? Number(step) : null },
    JSON.stringify({ subject: "lti.frameResize", height: height }),
  ];
}
