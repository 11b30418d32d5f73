// oddsmith workbench: plain JavaScript, no libraries, no network but the
// server's own API. The whole state lives in the URL's hash, so a reload
// or a shared link restores it.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
};

// One id per browser tab: the server cancels this tab's older work.
const TAB = sessionStorage.getItem("oddsmith-tab") || Math.random().toString(36).slice(2);
sessionStorage.setItem("oddsmith-tab", TAB);

let mechanics = [];
let state = { m: "", e: "", p: {}, mode: "auto", trials: 200000, seed: 1, field: "", pin: null, sw1: "", swv1: "", sw2: "", swv2: "", swm: "" };
let current = null;   // the last answer shown
let pinned = null;    // the pinned answer
let seq = 0;          // answers arriving late are dropped

// ---- state <-> URL -------------------------------------------------------

function toHash() {
  const q = new URLSearchParams();
  if (state.e) q.set("e", state.e); else if (state.m) q.set("m", state.m);
  for (const [k, v] of Object.entries(state.p)) q.set("p." + k, v);
  if (state.mode !== "auto") q.set("mode", state.mode);
  if (String(state.trials) !== "200000") q.set("trials", state.trials);
  if (String(state.seed) !== "1") q.set("seed", state.seed);
  if (state.field) q.set("field", state.field);
  if (state.pin) q.set("pin", JSON.stringify(state.pin));
  for (const k of ["sw1", "swv1", "sw2", "swv2", "swm"]) if (state[k]) q.set(k, state[k]);
  return "#" + q.toString();
}

function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const s = { m: q.get("m") || "", e: q.get("e") || "", p: {}, mode: q.get("mode") || "auto",
    trials: q.get("trials") || 200000, seed: q.get("seed") || 1, field: q.get("field") || "", pin: null };
  for (const [k, v] of q) if (k.startsWith("p.")) s.p[k.slice(2)] = v;
  try { s.pin = q.get("pin") ? JSON.parse(q.get("pin")) : null; } catch (_) { s.pin = null; }
  for (const k of ["sw1", "swv1", "sw2", "swv2", "swm"]) s[k] = q.get(k) || "";
  return s;
}

function save() {
  history.replaceState(null, "", toHash());
  // A link shown earlier follows the state; "copied" was said of the old one.
  if (!$("link-box").hidden && $("link").value !== location.href) { $("link").value = location.href; $("link-said").textContent = ""; }
}

// Copy link: show the link, select it, copy it, and say whether it was
// copied (the clipboard API, else the selection's copy command; without
// either the link stays selected for Ctrl+C).
async function copyLink() {
  const box = $("link-box"), input = $("link"), said = $("link-said");
  box.hidden = false;
  input.value = location.href;
  input.focus();
  input.select();
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(input.value); copied = true; }
  } catch (_) { copied = false; }
  if (!copied) {
    input.focus(); input.select();
    try { copied = document.execCommand("copy"); } catch (_) { copied = false; }
  }
  said.textContent = copied ? "copied" : "not copied: the link is selected, press Ctrl+C (⌘C on a Mac)";
  said.className = copied ? "copied" : "not-copied";
}

// ---- requests ------------------------------------------------------------

function bodyOf(s, extra = {}) {
  const b = s.e ? { expression: s.e } : { mechanic: s.m };
  b.params = { ...s.p };
  b.mode = s.mode;
  b.trials = Number(s.trials);
  b.seed = Number(s.seed);
  return Object.assign(b, extra);
}

async function post(path, body, signal) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
  const data = await r.json().catch(() => ({ error: "the server sent no JSON (status " + r.status + ")" }));
  return { ok: r.ok, status: r.status, data };
}

// ---- the picker ----------------------------------------------------------

function drawPicker() {
  const box = $("mechanics");
  box.textContent = "";
  const needle = $("search").value.trim().toLowerCase();
  const systems = {};
  for (const m of mechanics) {
    const hay = (m.name + " " + m.summary).toLowerCase();
    if (needle && !hay.includes(needle)) continue;
    (systems[m.system] = systems[m.system] || []).push(m);
  }
  for (const [sys, ms] of Object.entries(systems)) {
    const group = el("div", { class: "system" }, el("h4", { text: sys }));
    for (const m of ms) {
      group.append(el("button", { class: "mech", type: "button", "data-name": m.name, "aria-current": String(!state.e && state.m === m.name),
        title: m.summary, onclick: () => pick(m.name) },
        m.name.split(".").slice(1).join("."), el("small", { text: m.summary })));
    }
    box.append(group);
  }
}

function pick(name) {
  if (state.m !== name || state.e) { state.p = {}; state.sw1 = state.sw2 = state.swv1 = state.swv2 = state.swm = ""; }
  state.m = name; state.e = ""; state.field = "";
  $("expr").value = "";
  save(); drawPicker(); drawForm(); ask();
}

function mechanic() { return state.e ? null : mechanics.find((m) => m.name === state.m); }

// ---- the form ------------------------------------------------------------

// The parameters of the current question: a mechanic's specs, or an
// expression's {name} parameters (integers).
function specs() {
  const m = mechanic();
  if (m) return m.params.filter((p) => !p.wildcard);
  const names = [...new Set([...state.e.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((x) => x[1]))];
  return names.map((n) => ({ key: n, kind: "int", min: null, max: null, choices: [], allowed: "an integer", default: null, doc: "the value of {" + n + "} in the expression" }));
}

function defaultText(p) { return p.default === null || p.default === undefined ? "" : String(p.default); }

function drawForm() {
  const form = $("form");
  form.textContent = "";
  const m = mechanic();
  $("title").textContent = state.e ? "Dice expression" : m ? m.name : "Pick a mechanic or type a dice expression";
  $("summary").textContent = m ? m.summary + (m.exact ? "" : " (Monte Carlo only)") : state.e ? state.e : "";
  for (const p of specs()) {
    const id = "param-" + p.key;
    const value = p.key in state.p ? state.p[p.key] : defaultText(p);
    let input;
    if (p.kind === "choice" || p.kind === "bool") {
      const options = p.kind === "bool" ? ["true", "false"] : p.choices;
      input = el("select", { id, name: "param:" + p.key });
      if (p.default === null) input.append(el("option", { value: "", text: "(unset)" }));
      for (const o of options) input.append(el("option", { value: o, text: o }));
      input.value = value;
    } else if (p.kind === "int") {
      input = el("input", { id, name: "param:" + p.key, type: "number", min: p.min, max: p.max, value, placeholder: p.allowed, step: 1 });
    } else {
      const long = p.policy || (p.examples && p.examples.length) || /policy|player|member|steps|sequence/.test(p.key) || value.length > 40;
      const rows = Math.min(12, Math.max(p.policy ? 4 : 2, value.split("\n").length + 1));
      input = long ? el("textarea", { id, name: "param:" + p.key, placeholder: p.allowed, rows, wrap: p.policy ? "off" : null, "aria-describedby": id + "-doc" }) :
        el("input", { id, name: "param:" + p.key, type: "text", value, placeholder: p.allowed, list: p.choices.length ? id + "-names" : null, spellcheck: "false" });
      if (long) input.value = value;
    }
    input.addEventListener("input", () => {
      const v = input.value;
      if (v === defaultText(p) || (v === "" && p.default !== null && p.kind !== "custom")) delete state.p[p.key];
      else state.p[p.key] = v;
      field.classList.toggle("changed", p.key in state.p);
      if (examples) examples.value = [...examples.options].some((o) => o.value === v) ? v : "custom";
      save(); if (p.policy || examples) checkSoon(p.key); askSoon();
    });
    const examples = p.examples && p.examples.length ? exampleMenu(p, id, input, value) : null;
    const range = p.kind === "int" && p.min !== null ? ` (${p.allowed})` : p.kind === "custom" || p.kind === "int_or_name" ? ` (${p.allowed})` : "";
    const field = el("div", { class: "field" + (p.key in state.p ? " changed" : "") + (p.policy ? " policy" : ""), "data-key": p.key },
      el("label", { for: id, text: p.key }),
      examples ? el("div", { class: "examples" }, el("label", { for: id + "-examples", text: "example" }), examples) : null,
      input,
      p.choices.length && p.kind === "int_or_name" ? el("datalist", { id: id + "-names" }, ...p.choices.map((c) => el("option", { value: c }))) : null,
      examples ? el("div", { class: "check", "data-check-for": p.key, "aria-live": "polite" }) : null,
      el("div", { class: "error", "data-error-for": p.key }),
      el("div", { class: "doc", id: id + "-doc", text: p.doc + (p.policy ? "" : range) }),
      p.policy ? policyForms(p) : null);
    form.append(field);
  }
  $("mode").value = state.mode; $("trials").value = state.trials; $("seed").value = state.seed;
  drawSweepChoices();
  if (typeof drawBestPanel === "function") drawBestPanel();  // best.js
}

// ---- the policy editor ---------------------------------------------------

// The worked examples of a field, as a menu that fills it: each names its
// source (a shipped scenario, the manual, the mechanic's docs).
function exampleMenu(p, id, input, value) {
  const menu = el("select", { id: id + "-examples", "data-examples-for": p.key, title: "Fill the field with a worked example" });
  menu.append(el("option", { value: "custom", text: "(your own)" }));
  if (p.default === null) menu.append(el("option", { value: "", text: "unset: the default" }));
  else menu.append(el("option", { value: String(p.default), text: `the default: ${p.default}` }));
  for (const x of p.examples) menu.append(el("option", { value: x.value, text: `${x.label} (${x.source.split("/").pop()})`, title: "from " + x.source }));
  menu.value = [...menu.options].some((o) => o.value === value) ? value : "custom";
  menu.addEventListener("change", () => {
    if (menu.value === "custom") return;
    input.value = menu.value;
    if (input.rows) input.rows = Math.min(12, Math.max(4, menu.value.split("\n").length + 1));
    input.dispatchEvent(new Event("input"));
  });
  return menu;
}

// The forms a policy may take, each with its doc, and the command line's
// words for what is allowed.
function policyForms(p) {
  const list = el("dl", { class: "forms" });
  for (const f of p.forms) list.append(el("dt", {}, el("code", { text: f.form || "(unset)" })), el("dd", { text: f.doc }));
  return el("details", { class: "forms-box" }, el("summary", { text: "allowed forms" }), list,
    el("p", { class: "doc" }, el("strong", { text: "As oddsmith systems lists it: " }), p.allowed));
}

// Validate the form as typed (POST /api/check: nothing is solved), so a
// policy's mistake shows beside it at once, even while a slow answer runs.
let checkTimer = null;
let checkSeq = 0;
function checkSoon(key) { clearTimeout(checkTimer); checkTimer = setTimeout(() => checkNow(key), 120); }
async function checkNow(key) {
  const mine = ++checkSeq;
  const slot = document.querySelector(`[data-check-for="${CSS.escape(key)}"]`);
  const err = document.querySelector(`[data-error-for="${CSS.escape(key)}"]`);
  let r;
  try { r = await post("/api/check", bodyOf(state)); } catch (_) { return; }
  if (mine !== checkSeq) return;
  const box = err && err.closest(".field");
  if (r.ok || r.data.field !== key) {
    if (slot) slot.textContent = r.ok ? "✓ valid" : "";
    if (err) err.textContent = "";
    if (box) box.classList.remove("bad");
    if (!r.ok) showError(r.data);
  } else {
    if (slot) slot.textContent = "";
    if (err) err.textContent = r.data.error;
    if (box) box.classList.add("bad");
  }
}

// ---- progress --------------------------------------------------------------

// While an answer is computed, show what the server has done (POST
// /api/progress): the exact chain's rounds and the probability settled,
// configs solved, Monte Carlo trials; a Cancel stops it (Escape too).
const progress = { timer: null, tab: null, started: 0, onCancel: null };
function showProgress(tab, what, onCancel) {
  hideProgress();
  Object.assign(progress, { tab, started: performance.now(), onCancel });
  // Fast answers show nothing: the panel appears after 150 ms.
  progress.timer = setTimeout(pollProgress, 150);
  $("progress-what").textContent = what;
}
function hideProgress() {
  clearTimeout(progress.timer);
  progress.timer = null; progress.tab = null;
  $("progress").hidden = true;
}
async function pollProgress() {
  const tab = progress.tab;
  if (!tab) return;
  let r;
  try { r = await post("/api/progress", { tab }); } catch (_) { r = null; }
  if (progress.tab !== tab) return;
  const secs = ((performance.now() - progress.started) / 1000).toFixed(1);
  const bar = $("progress-bar");
  const d = r && r.ok ? r.data : { running: false };
  let text = "";
  if (!d.running) { text = "waiting for the answer…"; bar.removeAttribute("value"); }
  else if (d.phase === "monte-carlo") {
    bar.max = d.trials; bar.value = Math.min(d.trials_done, d.trials);
    text = `${d.trials_done.toLocaleString()} of ${d.trials.toLocaleString()} Monte Carlo trials run`;
  } else if (d.configs > 1) {
    bar.max = d.configs; bar.value = d.solved;
    text = `${d.solved.toLocaleString()} of ${d.configs.toLocaleString()} configs solved exactly`;
  } else if (d.round > 0) {
    bar.max = 1; bar.value = 1 - d.in_play;
    text = `round ${d.round.toLocaleString()} of the chain, ${d.states.toLocaleString()} states live, ${pct(1 - d.in_play)} of the probability settled`;
  } else { text = "solving"; bar.removeAttribute("value"); }
  $("progress-text").textContent = `— ${text} · ${secs} s`;
  $("progress").hidden = false;
  $("progress").dataset.phase = d.running ? d.phase : "waiting";
  progress.timer = setTimeout(pollProgress, 200);
}
function cancelProgress() {
  const tab = progress.tab;
  if (!tab) return;
  const onCancel = progress.onCancel;
  hideProgress();
  post("/api/cancel", { tab }).catch(() => {});
  if (onCancel) onCancel();
}

// ---- errors --------------------------------------------------------------

function clearErrors() {
  $("top-error").textContent = "";
  for (const e of document.querySelectorAll("[data-error-for]")) e.textContent = "";
  for (const e of document.querySelectorAll(".bad")) e.classList.remove("bad");
}

function showError(err) {
  const field = err.field;
  const slot = field && (document.querySelector(`[data-error-for="${CSS.escape(field)}"]`) ||
    document.querySelector(`[data-error-for="${CSS.escape(field.replace(/^vars\./, ""))}"]`));
  if (slot) {
    slot.textContent = err.error;
    const box = slot.closest(".field");
    if (box) box.classList.add("bad");
  } else if (field === "expression") {
    $("top-error").textContent = err.error; $("expr").classList.add("bad");
  } else {
    $("top-error").textContent = err.error;
  }
}

// ---- answers -------------------------------------------------------------

let timer = null;
let controller = null;
function askSoon() { clearTimeout(timer); timer = setTimeout(ask, 250); }

async function ask() {
  if (!state.m && !state.e) return;
  const mine = ++seq;
  if (controller) controller.abort();
  controller = new AbortController();
  const signal = controller.signal;
  const m = mechanic();
  const simulated = state.mode === "both" || state.mode === "mc" || (state.mode !== "exact" && m && !m.exact);
  const full = Number(state.trials);
  // Monte Carlo: a quick first estimate, then the full run refines it.
  const rounds = simulated && full > 20000 ? [20000, full] : [full];
  $("answer").classList.add("busy");
  // The answer shown is another question's (another mechanic or
  // expression): hide it rather than show it beside this one's form.
  const shownQ = $("answer").dataset.question ? JSON.parse($("answer").dataset.question) : null;
  if (!shownQ || (state.e ? shownQ.expression !== state.e : shownQ.mechanic !== state.m)) {
    $("answer").classList.add("cleared"); $("reading").textContent = "";
  }
  const what = state.e ? state.e : state.m;
  showProgress(TAB, `Answering ${what}${simulated ? "" : m && m.exact ? ", exactly" : ""}`, () => {
    seq++; controller.abort();
    $("answer").classList.remove("busy"); $("answer").classList.add("stale");
    $("status").textContent = "cancelled; the answer shown is the last one that finished";
  });
  try {
  for (let i = 0; i < rounds.length; i++) {
    $("status").textContent = simulated ? (i === 0 ? "simulating…" : `refining with ${rounds[i].toLocaleString()} trials…`) : "computing…";
    let r;
    const sent = bodyOf(state, { trials: rounds[i], tab: TAB });
    try { r = await post("/api/answer", sent, signal); }
    catch (e) { if (e.name !== "AbortError" && mine === seq) $("status").textContent = "the server did not answer: " + e; return; }
    if (mine !== seq) return;
    clearErrors();
    if (!r.ok) {
      $("answer").classList.remove("busy");
      if (r.status === 409) return;
      showError(r.data);
      // The answer shown is the last good one: say so.
      $("answer").classList.add("stale");
      $("status").textContent = "showing the last answer that worked; fix the value marked in red";
      return;
    }
    current = r.data;
    $("answer").classList.remove("stale", "cleared");
    // What the shown answer answers (tests and scripts read it).
    $("answer").dataset.question = JSON.stringify({ mechanic: sent.mechanic, expression: sent.expression, params: sent.params, trials: sent.trials, final: i === rounds.length - 1 });
    drawAnswer();
  }
  $("answer").classList.remove("busy");
  $("status").textContent = "";
  } finally { if (mine === seq) hideProgress(); }
}

const pct = (p) => p >= 0.99995 && p < 1 ? ">99.99%" : p > 0 && p < 0.00005 ? "<0.01%" : (100 * p).toFixed(2) + "%";
function fmt(metric, v) { return metric.probability ? pct(v) : Number(v).toFixed(4); }
function oneIn(p) { return p <= 0 ? "never" : p >= 1 ? "always" : "1 in " + (1 / p < 10 ? (1 / p).toFixed(2) : Math.round(1 / p).toLocaleString()); }

function drawAnswer() {
  const c = current.configs[0];
  const pc = pinned && pinned.configs[0];
  $("reading").textContent = c.reading || "";
  $("method").textContent = c.method === "exact" ? "exact" :
    `Monte Carlo, ${c.trials.toLocaleString()} trials, seed ${current.seed} (95% intervals)` + (c.inexact ? ` — ${c.inexact}` : "");
  $("warnings").textContent = c.warnings.map((w) => "warning: " + w.message).join("\n");
  const t = $("metrics");
  t.textContent = "";
  t.append(el("tr", {}, el("th", { text: "metric" }), pc ? el("th", { text: "pinned" }) : null, el("th", { text: pc ? "now" : "value" }),
    el("th", { text: pc ? "difference" : "95% interval" })));
  for (const mt of c.metrics) {
    const old = pc && pc.metrics.find((x) => x.name === mt.name);
    const diff = old ? mt.value - old.value : null;
    const row = el("tr", { "data-metric": mt.name, title: mt.doc },
      el("td", { text: mt.name }),
      pc ? el("td", { class: "pinned", "data-value": old ? old.value : "", text: old ? fmt(mt, old.value) : "—" }) : null,
      el("td", { class: "value", "data-value": mt.value, text: fmt(mt, mt.value) }),
      pc ? el("td", { class: "diff " + (diff > 1e-12 ? "up" : diff < -1e-12 ? "down" : ""), text: diff === null ? "—" : (diff >= 0 ? "+" : "−") + (mt.probability ? (100 * Math.abs(diff)).toFixed(2) + " pp" : Math.abs(diff).toFixed(4)) })
        : el("td", { text: mt.interval ? `${fmt(mt, mt.interval[0])} – ${fmt(mt, mt.interval[1])}` : "" }));
    t.append(row);
  }
  // The field shown: the one picked, else the first with more than two values.
  const pickBox = $("field-pick");
  pickBox.textContent = "";
  if (!c.fields.find((f) => f.name === state.field)) {
    const f = c.fields.find((f) => f.rows.length > 2) || c.fields[0];
    state.field = f ? f.name : "";
  }
  if (c.fields.length > 1) {
    for (const f of c.fields) pickBox.append(el("button", { type: "button", "aria-pressed": String(f.name === state.field), title: f.doc, text: f.name,
      onclick: () => { state.field = f.name; save(); drawAnswer(); } }));
  }
  const f = c.fields.find((x) => x.name === state.field);
  const pf = pc && pc.fields.find((x) => x.name === state.field);
  drawDistribution(f, pf);
}

function drawDistribution(f, pf) {
  const bars = $("bars"), dist = $("dist");
  bars.textContent = ""; dist.textContent = "";
  if (!f) return;
  const rows = f.rows.filter((r) => r.p > 0 || (pf && pf.rows.some((x) => x.value === r.value && x.p > 0)));
  const pinnedP = (v) => { const r = pf && pf.rows.find((x) => x.value === v); return r ? r.p : 0; };
  const top = Math.max(...rows.map((r) => Math.max(r.p, pf ? pinnedP(r.value) : 0)), 1e-12);
  const shown = rows.length > 60 ? rows.filter((r) => r.p >= top * 1e-3) : rows;
  for (const r of shown) {
    bars.append(el("div", { class: "bar-row" }, el("span", { text: r.label }),
      el("span", { class: pf ? "bar-track two" : "bar-track" }, el("span", { class: "bar", style: `width:${(100 * r.p / top).toFixed(2)}%` }),
        pf ? el("span", { class: "bar pinned", style: `width:${(100 * pinnedP(r.value) / top).toFixed(2)}%` }) : null),
      el("span", { class: "v", text: pct(r.p) })));
  }
  // ≥ and ≤ mean something only for an ordered (integer) field, not for a
  // category such as victory / tie / defeat.
  const ord = f.ordered !== false;
  dist.append(el("tr", {}, el("th", { text: f.name }), el("th", { text: "=" }), ord ? el("th", { text: "≥" }) : null, ord ? el("th", { text: "≤" }) : null,
    el("th", { text: "= as 1 in N" }), pf ? el("th", { text: "pinned =" }) : null));
  for (const r of shown) {
    dist.append(el("tr", { "data-value": r.value }, el("td", { text: r.label }), el("td", { text: pct(r.p) }), ord ? el("td", { text: pct(r.p_at_least) }) : null,
      ord ? el("td", { text: pct(r.p_at_most) }) : null, el("td", { text: oneIn(r.p) }), pf ? el("td", { class: "pinned", text: pct(pinnedP(r.value)) }) : null));
  }
}

// ---- compare -------------------------------------------------------------

async function loadPinned() {
  if (!state.pin) { pinned = null; $("unpin").hidden = true; $("pin").textContent = "Pin for compare"; return; }
  const r = await post("/api/answer", state.pin);
  pinned = r.ok ? r.data : null;
  $("unpin").hidden = false; $("pin").textContent = "Pin this instead";
  if (current) drawAnswer();
}

// ---- wiring --------------------------------------------------------------

async function saveScenario() {
  const r = await post("/api/scenario", bodyOf(state));
  if (!r.ok) { showError(r.data); return; }
  const a = el("a", { href: URL.createObjectURL(new Blob([r.data.toml], { type: "application/toml" })), download: r.data.file });
  document.body.append(a); a.click(); a.remove();
}

function wire() {
  $("search").addEventListener("input", drawPicker);
  $("search").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { const first = document.querySelector(".mech"); if (first) first.click(); }
  });
  $("expr").addEventListener("input", () => {
    const v = $("expr").value;
    if (!v.trim()) return;
    state.e = v; state.m = ""; state.p = Object.fromEntries(Object.entries(state.p).filter(([k]) => v.includes("{" + k + "}")));
    $("expr").classList.remove("bad");
    save(); drawPicker(); drawForm(); askSoon();
  });
  for (const [id, key] of [["mode", "mode"], ["trials", "trials"], ["seed", "seed"]]) {
    $(id).addEventListener("input", () => { state[key] = $(id).value; save(); askSoon(); });
  }
  $("pin").addEventListener("click", () => { state.pin = bodyOf(state); save(); pinned = current; $("unpin").hidden = false; $("pin").textContent = "Pin this instead"; if (current) drawAnswer(); });
  $("unpin").addEventListener("click", () => { state.pin = null; save(); loadPinned(); if (current) drawAnswer(); });
  $("save").addEventListener("click", saveScenario);
  $("copy-link").addEventListener("click", copyLink);
  $("link").addEventListener("focus", () => $("link").select());
  $("run-sweep").addEventListener("click", runSweep);
  for (const id of ["swv1", "swv2"]) $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") runSweep(); });
  $("progress-cancel").addEventListener("click", cancelProgress);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && progress.tab && !$("progress").hidden) { e.preventDefault(); cancelProgress(); return; }
    if (e.target.matches("input, textarea, select")) return;
    if (e.key === "/") { e.preventDefault(); $("search").focus(); }
    else if (e.key === "e") { e.preventDefault(); $("expr").focus(); }
    else if (e.key === "p") $("pin").click();
    else if (e.key === "s") $("save").click();
  });
  window.addEventListener("hashchange", () => { state = fromHash(); start(); });
}

function start() {
  $("expr").value = state.e;
  drawPicker(); drawForm();
  loadPinned();
  if (state.m || state.e) ask();
  if (state.sw1 && (state.swv1 || state.sw2)) runSweep();
}

(async function main() {
  const r = await fetch("/api/mechanics");
  mechanics = await r.json();
  state = fromHash();
  if (!state.m && !state.e) state.m = mechanics[0].name;
  wire();
  start();
})();
