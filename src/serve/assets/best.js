// oddsmith workbench: the best-play panel. Loaded after app.js, whose
// globals it uses ($, el, state, mechanic, post, pct, showError,
// showProgress, hideProgress, TAB). It asks POST /api/best with the form's
// values (`oddsmith best MECHANIC key=value … --metric M`) and shows the
// value under best play and under the given policy, the gap, the best
// policy's rules and the dominance bars. Where the mechanic has a second
// deciding side, "opponent plays best too" asks for a zero-sum duel
// (`--against best`): the duel's value, A's one-sided best, what B's best
// play takes back, and both sides' rules.
"use strict";

// Its own tab id: a best-play solve and the answer above do not cancel
// each other, but a newer best-play request cancels the older one.
const BEST_TAB = TAB + "-best";
let bestSeq = 0;

function bestShow(a, x) { return a.probability ? pct(x) : Number(x).toFixed(4); }
function bestDiff(a, x) {
  const sign = x < 0 ? "−" : "+";
  return a.probability ? `${sign}${Math.abs(100 * x).toFixed(2)} points` : sign + Math.abs(x).toFixed(4);
}
function bestLoss(a, x) {
  if (Math.abs(x) < 1e-12) return "0";
  if (a.probability && x < 5e-5) return "< 0.01 points";
  return a.probability ? (100 * x).toFixed(2) + " points" : x.toFixed(4);
}
function bestUse(x) { return x === 0 ? "never" : x < 5e-4 ? "< 0.1%" : (100 * x).toFixed(1) + "%"; }

// Called by app.js whenever the form is drawn: the panel shows for a
// mechanic best play covers, with its metrics (not a standard deviation).
function drawBestPanel() {
  const m = mechanic();
  const box = $("best-box");
  if (!m || !m.best) { box.hidden = true; return; }
  box.hidden = false;
  $("best-what").textContent = "The decision: " + m.best + ". Best play takes it at every turn to maximise the metric; the given policy is the one the form describes.";
  const pick = $("best-metric");
  const was = pick.value;
  pick.textContent = "";
  for (const x of m.metrics) {
    if (/^sd_|_sd$/.test(x.name) || x.name === "sd") continue;
    pick.append(el("option", { value: x.name, text: x.name }));
  }
  if ([...pick.options].some((o) => o.value === was)) pick.value = was;
  // The duel, where the other side decides too.
  $("best-duel-box").hidden = !m.duel;
  if (!m.duel) $("best-duel").checked = false;
  drawDuelWhat();
  if (box.dataset.mechanic !== m.name) { $("best-out").textContent = ""; $("best-error").textContent = ""; }
  box.dataset.mechanic = m.name;
}

// What the duel choice means, and for which metrics the duel is played.
function drawDuelWhat() {
  const m = mechanic();
  const what = $("best-duel-what");
  const on = !!(m && m.duel && $("best-duel").checked);
  what.hidden = !on;
  if (!on) return;
  const metric = $("best-metric").value;
  const fits = m.duel.metrics.includes(metric);
  what.textContent = `B plays best too: ${m.duel.decision}, to minimise the metric; a duel is played for ${m.duel.metrics.join(", ")}` +
    (fits ? "." : ` (not ${metric}: pick ${m.duel.metrics.join(" or ")}).`);
  what.classList.toggle("warn", !fits);
}

async function runBest() {
  const m = mechanic();
  if (!m || !m.best) return;
  const mine = ++bestSeq;
  $("best-error").textContent = "";
  $("best-box").classList.add("busy");
  const duel = !!(m.duel && $("best-duel").checked);
  const body = { mechanic: m.name, params: { ...state.p }, metric: $("best-metric").value, dominance: $("best-dominance").checked, tab: BEST_TAB };
  if (duel) body.opponent = "best";
  showProgress(BEST_TAB, "Best play", () => { $("best-box").classList.remove("busy"); });
  let r;
  try { r = await post("/api/best", body); } catch (e) { r = { ok: false, data: { error: String(e) } }; }
  if (mine !== bestSeq) return;
  hideProgress();
  $("best-box").classList.remove("busy");
  if (!r.ok) {
    $("best-error").textContent = r.data.error;
    if (r.data.field && r.data.field !== "metric" && r.data.field !== "opponent") showError(r.data);
    return;
  }
  drawBest(r.data, body);
}

function drawBest(a, asked) {
  const out = $("best-out");
  out.textContent = "";
  const given = Object.entries(asked.params).map(([k, v]) => `${k} = ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  const d = a.duel;
  const who = d ? "both sides' best play (a zero-sum duel: A maximises it, B minimises it)" : "best play";
  out.append(el("p", { class: "reading", text: `${a.mechanic}, ${who} for ${a.metric}${given ? " with " + given : " at the defaults"}: ${a.decisions.toFixed(2)} decisions a trial${d ? " for A, " + d.decisions.toFixed(2) + " for B" : ""}, ${a.states.toLocaleString()} states over ${a.rounds} rounds.` }));
  const head = el("table", { id: "best-values", class: "numbers" });
  if (d) {
    head.append(el("tr", {}, el("th", { text: "both best (the duel)" }), el("th", { text: "A best, B given" }), el("th", { text: "B's best takes back" }), el("th", { text: "both given" })));
    head.append(el("tr", {}, el("td", { text: bestShow(a, a.best) }), el("td", { text: bestShow(a, d.one_sided) }), el("td", { text: bestLoss(a, d.taken_back) }), el("td", { text: bestShow(a, a.given) })));
  } else {
    head.append(el("tr", {}, el("th", { text: "best play" }), el("th", { text: "given policy" }), el("th", { text: "gap" })));
    head.append(el("tr", {}, el("td", { text: bestShow(a, a.best) }), el("td", { text: bestShow(a, a.given) }), el("td", { text: bestDiff(a, a.gap) })));
  }
  out.append(head);

  const bars = (id, title, list) => {
    if (!list.length) return;
    out.append(el("h4", { text: title }));
    const most = Math.max(...list.map((d) => d.loss), 0);
    const rows = [...list].sort((x, y) => y.loss - x.loss || y.usage - x.usage);
    const box = el("div", { id, class: "best-bars", role: "list" });
    for (const d of rows) {
      const width = most > 0 ? (100 * d.loss) / most : 0;
      box.append(el("div", { class: "best-bar", role: "listitem" },
        el("span", { class: "best-option", text: d.option }),
        el("span", { class: "best-track" }, el("span", { class: "best-fill", style: `width:${width.toFixed(2)}%` })),
        el("span", { class: "best-note", text: `loses ${bestLoss(a, d.loss)} · used ${bestUse(d.usage)}` })));
    }
    out.append(box);
  };
  bars("best-bars", d ? "Dominance of A's options: what forbidding each costs A (B still playing best), and how often A uses it"
    : "Dominance: what forbidding each option costs, and how often best play uses it", a.dominance);
  if (d) bars("best-bars-b", "B's options: what forbidding each costs B's best play (A still playing best: what A gains), and how often B uses it", d.dominance || []);

  const rules = (id, list) => {
    const t = el("table", { id, class: "best-rules" });
    t.append(el("tr", {}, el("th", { text: "situation" }), el("th", { text: "best play" }), el("th", { text: "share" }), el("th", { text: "agrees" })));
    for (const r of list) {
      t.append(el("tr", {}, el("td", { text: r.when }), el("td", { text: r.choice }),
        el("td", { class: "num", text: (100 * r.share).toFixed(1) + "%" }), el("td", { class: "num", text: (100 * r.agree).toFixed(0) + "%" })));
    }
    out.append(t);
  };
  out.append(el("h4", { text: d ? "A's best policy (against a B playing best)" : "The best policy" }));
  rules("best-rules", a.rules);
  if (d) {
    out.append(el("h4", { text: "B's best policy (in B's own view: its edge, its initiative)" }));
    rules("best-rules-b", d.rules);
  }
  if (a.policy) {
    out.append(el("p", { text: (d ? "Both sides' policies as the mechanic's own keys" : "As the mechanic's own keys") + (a.replayed !== null ? ` (replayed by the exact solver: ${bestShow(a, a.replayed)})` : "") + ":" }));
    out.append(el("pre", { id: "best-policy", text: a.policy }));
  } else if (a.unwritten) {
    out.append(el("p", { class: "reading", text: "No policy written: " + a.unwritten + "." }));
  }
}

$("run-best").addEventListener("click", runBest);
$("best-duel").addEventListener("change", drawDuelWhat);
$("best-metric").addEventListener("change", drawDuelWhat);
