// Text labels of one drawn chart (its SVG text) that overlap another or leave the chart's box:
// tests/browser/test_chart_kinds.py runs it on every chart of every page at 360 px.
(chart) => {
  const box = chart.getBoundingClientRect();
  const texts = [];
  for (const t of chart.querySelectorAll("svg text")) {
    if (!t.textContent.trim()) continue;
    const style = getComputedStyle(t);
    if (style.display === "none" || style.visibility === "hidden" || +style.opacity === 0) continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    texts.push({ text: t.textContent.trim(), l: r.left, r: r.right, t: r.top, b: r.bottom });
  }
  const problems = [];
  const slack = 1;
  for (const a of texts) {
    if (a.l < box.left - slack || a.r > box.right + slack || a.t < box.top - slack || a.b > box.bottom + slack)
      problems.push(`'${a.text}' leaves its chart`);
  }
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i], b = texts[j];
    const x = Math.min(a.r, b.r) - Math.max(a.l, b.l), y = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (x > slack && y > slack) problems.push(`'${a.text}' overlaps '${b.text}'`);
  }
  return problems;
}
