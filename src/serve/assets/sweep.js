// oddsmith workbench: the sweep panel. Loaded after app.js, whose globals
// it uses ($, el, state, save, bodyOf, post, mechanic, specs, fmt,
// progress, showProgress, hideProgress, clearErrors, showError, TAB); app.js
// calls its drawSweepChoices, values and runSweep once the page has
// loaded. It asks POST /api/sweep over one or two parameters
// and draws the table as a line chart or a heatmap (SVG, the reports'
// viridis colour map).
"use strict";

// ---- sweep ---------------------------------------------------------------

function drawSweepChoices() {
  const ps = specs().filter((p) => p.kind !== "custom" || /code|pool|rating|trait/.test(p.key));
  const fill = (sel, none) => {
    sel.textContent = "";
    if (none) sel.append(el("option", { value: "", text: "(none)" }));
    for (const p of ps) sel.append(el("option", { value: p.key, text: p.key }));
  };
  fill($("sw1"), false); fill($("sw2"), true);
  $("sw1").value = state.sw1 || (ps[0] ? ps[0].key : ""); $("sw2").value = state.sw2;
  $("swv1").value = state.swv1; $("swv2").value = state.swv2;
  const m = mechanic();
  $("swm").textContent = "";
  for (const x of m ? m.metrics : [{ name: "mean" }, { name: "sd" }]) $("swm").append(el("option", { value: x.name, text: x.name }));
  if (state.swm) $("swm").value = state.swm;
  $("chart").textContent = "";
}

function values(text, p) {
  const t = text.trim();
  const range = t.match(/^(-?\d+)\s*\.\.\s*(-?\d+)(?::(\d+))?$/);
  if (range) {
    const [lo, hi, step] = [Number(range[1]), Number(range[2]), Number(range[3] || 1)];
    const out = [];
    for (let v = lo; v <= hi && out.length < 1000; v += Math.max(step, 1)) out.push(v);
    return out;
  }
  if (!t && p && p.kind === "int" && p.min !== null && p.max !== null && p.max - p.min <= 30) {
    const out = []; for (let v = p.min; v <= p.max; v++) out.push(v); return out;
  }
  if (!t && p && p.choices.length) return p.choices.slice();
  return t.split(",").map((x) => x.trim()).filter((x) => x !== "").map((x) => (/^-?\d+$/.test(x) ? Number(x) : x));
}

async function runSweep() {
  for (const k of ["sw1", "swv1", "sw2", "swv2", "swm"]) state[k] = $(k).value;
  save();
  const sweep = {};
  const p1 = specs().find((p) => p.key === state.sw1);
  if (!state.sw1) return;
  sweep[state.sw1] = values(state.swv1, p1);
  if (state.sw2 && state.sw2 !== state.sw1) sweep[state.sw2] = values(state.swv2, specs().find((p) => p.key === state.sw2));
  const params = { ...state.p };
  for (const k of Object.keys(sweep)) delete params[k];
  const s = { ...state, p: params };
  const trials = Math.min(Number(state.trials), 50000);
  $("status").textContent = "sweeping…";
  clearErrors();
  const sweepCtl = new AbortController();
  showProgress(TAB + "-sweep", `Sweeping ${Object.keys(sweep).join(" × ")}`, () => { sweepCtl.abort(); $("status").textContent = "sweep cancelled"; });
  let r;
  try { r = await post("/api/sweep", bodyOf(s, { sweep, tab: TAB + "-sweep", trials }), sweepCtl.signal); }
  catch (e) { if (progress.tab === TAB + "-sweep") hideProgress(); return; }
  if (progress.tab === TAB + "-sweep") hideProgress();
  $("status").textContent = "";
  if (!r.ok) { if (r.status !== 409) showError(r.data.field && !document.querySelector(`[data-error-for="${CSS.escape(r.data.field)}"]`) ? { ...r.data, field: "sweep" } : r.data); return; }
  const col = r.data.metrics.find((x) => x.name === state.swm) || r.data.metrics[0];
  if (r.data.axes.length === 1) lineChart(r.data.axes[0], col); else heatmap(r.data.axes, col);
}

const NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function lineChart(axis, col) {
  const W = 640, H = 300, L = 56, R = 16, T = 16, B = 40;
  const box = $("chart"); box.textContent = "";
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${col.name} by ${axis.param}` });
  const n = axis.values.length;
  const lo = col.probability ? 0 : Math.min(...col.values), hi = col.probability ? 1 : Math.max(...col.values);
  const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1));
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e3e6ec" }));
    s.append(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, col.probability ? Math.round(100 * v) + "%" : v.toFixed(2)));
  }
  axis.values.forEach((v, i) => { if (n <= 25 || i % Math.ceil(n / 25) === 0) s.append(svg("text", { x: x(i), y: H - B + 16, "text-anchor": "middle" }, v)); });
  s.append(svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, axis.param));
  if (col.lo.every((v) => v !== null)) {
    const band = col.lo.map((v, i) => `${x(i)},${y(v)}`).concat(col.hi.map((v, i) => `${x(i)},${y(v)}`).reverse());
    s.append(svg("polygon", { points: band.join(" "), fill: "#0072b2", opacity: 0.15 }));
  }
  s.append(svg("polyline", { points: col.values.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#0072b2", "stroke-width": 2 }));
  col.values.forEach((v, i) => { const c = svg("circle", { cx: x(i), cy: y(v), r: 3, fill: "#0072b2" }); c.append(svg("title", {}, `${axis.param}=${axis.values[i]}: ${fmt(col, v)}`)); s.append(c); });
  box.append(el("h4", { text: `${col.name} by ${axis.param}` }), s);
}

// Viridis, sampled: the reports' colour map.
const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
function colour(t) {
  t = Math.max(0, Math.min(1, t));
  const i = Math.min(VIRIDIS.length - 2, Math.floor(t * (VIRIDIS.length - 1)));
  const f = t * (VIRIDIS.length - 1) - i;
  const a = VIRIDIS[i], b = VIRIDIS[i + 1];
  const mix = (k) => Math.round(parseInt(a.slice(k, k + 2), 16) * (1 - f) + parseInt(b.slice(k, k + 2), 16) * f);
  return `rgb(${mix(1)},${mix(3)},${mix(5)})`;
}

function heatmap(axes, col) {
  const [ya, xa] = axes; // last axis fastest: columns
  const cw = Math.max(28, Math.min(60, 560 / xa.values.length)), ch = 24, L = 80, T = 10, B = 44;
  const W = L + cw * xa.values.length + 90, H = T + ch * ya.values.length + B;
  const lo = col.probability ? 0 : Math.min(...col.values), hi = col.probability ? 1 : Math.max(...col.values);
  const box = $("chart"); box.textContent = "";
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${col.name} by ${ya.param} and ${xa.param}` });
  ya.values.forEach((yv, r) => {
    s.append(svg("text", { x: L - 6, y: T + ch * r + ch / 2 + 4, "text-anchor": "end" }, yv));
    xa.values.forEach((xv, c) => {
      const v = col.values[r * xa.values.length + c];
      const t = (v - lo) / (hi - lo || 1);
      const rect = svg("rect", { x: L + cw * c, y: T + ch * r, width: cw - 1, height: ch - 1, fill: colour(t) });
      rect.append(svg("title", {}, `${ya.param}=${yv}, ${xa.param}=${xv}: ${fmt(col, v)}`));
      s.append(rect);
      if (cw >= 40) s.append(svg("text", { x: L + cw * c + cw / 2, y: T + ch * r + ch / 2 + 4, "text-anchor": "middle", fill: t > 0.6 ? "#000" : "#fff", style: `fill:${t > 0.6 ? "#000" : "#fff"}` }, col.probability ? Math.round(100 * v) + "%" : v.toFixed(1)));
    });
  });
  xa.values.forEach((xv, c) => s.append(svg("text", { x: L + cw * c + cw / 2, y: T + ch * ya.values.length + 14, "text-anchor": "middle" }, xv)));
  s.append(svg("text", { x: L + (cw * xa.values.length) / 2, y: H - 8, "text-anchor": "middle" }, xa.param));
  s.append(svg("text", { x: 4, y: T + 10 }, ya.param.length > 12 ? ya.param.slice(-12) : ya.param));
  // Colour bar: the scale every heatmap of a probability shares, 0–100%.
  const bx = L + cw * xa.values.length + 20, bh = ch * ya.values.length;
  for (let k = 0; k < 50; k++) s.append(svg("rect", { x: bx, y: T + bh * (1 - (k + 1) / 50), width: 14, height: bh / 50 + 0.5, fill: colour((k + 0.5) / 50) }));
  for (let k = 0; k <= 4; k++) s.append(svg("text", { x: bx + 18, y: T + bh * (1 - k / 4) + 4 }, col.probability ? 25 * k + "%" : (lo + ((hi - lo) * k) / 4).toFixed(2)));
  box.append(el("h4", { text: `${col.name} by ${ya.param} and ${xa.param}` }), s);
}
