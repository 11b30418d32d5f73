"""oddsmith: exact and Monte Carlo odds for tabletop dice mechanics.

The numbers come from the Rust library through the same function that
``oddsmith odds`` calls, so an answer here equals the command line's for
the same values and seed. Tables come back as polars DataFrames.

    >>> import oddsmith
    >>> oddsmith.odds("4d6kh3").metrics["mean"].value
    12.244598765432098
"""

from __future__ import annotations

import itertools
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import polars as pl

from . import _oddsmith
from ._oddsmith import ParamError

__all__ = [
    "Answer",
    "Metric",
    "ParamError",
    "Run",
    "answer",
    "mechanics",
    "odds",
    "run",
    "sweep",
    "tune",
]

# `oddsmith odds --trials`'s default: Monte Carlo trials per config.
DEFAULT_TRIALS = 1_000_000


@dataclass(frozen=True)
class Metric:
    """One metric of an answer.

    ``value`` is the exact value, or the Monte Carlo estimate; ``interval``
    is its 95% interval (Monte Carlo only, else None); ``method`` is
    ``"exact"`` or ``"monte-carlo"``.
    """

    name: str
    value: float
    interval: Optional[Tuple[float, float]]
    method: str
    doc: str = ""


class Answer:
    """An answer to one question: metrics and distributions of one config.

    ``metrics`` maps each headline metric (and its complement, such as
    ``p_fail``) to a :class:`Metric`; ``distribution(field)`` is a field's
    distribution; ``to_dict()`` is the answer exactly as
    ``oddsmith odds --format json`` prints it.
    """

    def __init__(self, raw: Dict[str, Any]):
        self._raw = raw
        config = raw["configs"][0]
        self._config = config
        self.mechanic: str = raw["mechanic"]
        self.summary: str = raw["summary"]
        self.method: str = config["method"]
        self.trials: int = config["trials"]
        self.reading: Optional[str] = config["reading"]
        self.warnings: List[str] = [w["message"] for w in config["warnings"]]
        self.metrics: Dict[str, Metric] = {
            m["name"]: Metric(
                name=m["name"],
                value=m["value"],
                interval=tuple(m["interval"]) if m["interval"] is not None else None,
                method=config["method"],
                doc=m["doc"],
            )
            for m in config["metrics"]
        }

    @property
    def fields(self) -> List[str]:
        """The outcome fields, in the mechanic's order."""
        return [f["name"] for f in self._config["fields"]]

    def distribution(self, field: str) -> pl.DataFrame:
        """A field's distribution: one row per value, with columns ``value``,
        ``label``, ``p`` (P(=)), ``at_least`` (P(≥)) and ``at_most`` (P(≤))."""
        for f in self._config["fields"]:
            if f["name"] == field:
                rows = f["rows"]
                return pl.DataFrame(
                    {
                        "value": [r["value"] for r in rows],
                        "label": [r["label"] for r in rows],
                        "p": [r["p"] for r in rows],
                        "at_least": [r["p_at_least"] for r in rows],
                        "at_most": [r["p_at_most"] for r in rows],
                    },
                    schema={
                        "value": pl.Int64,
                        "label": pl.Utf8,
                        "p": pl.Float64,
                        "at_least": pl.Float64,
                        "at_most": pl.Float64,
                    },
                )
        raise ParamError(
            f"{field} is not a field of {self.mechanic}; its fields: {', '.join(self.fields)}"
        )

    def to_dict(self) -> Dict[str, Any]:
        """The answer as ``oddsmith odds --format json`` prints it."""
        return json.loads(json.dumps(self._raw))

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={m.value:.6g}" for n, m in self.metrics.items())
        return f"<Answer {self.mechanic} ({self.method}): {shown}>"


def _trials(trials: Optional[int]) -> int:
    return DEFAULT_TRIALS if trials is None else trials


def mechanics() -> List[Dict[str, Any]]:
    """Every registered mechanic, as ``oddsmith systems`` lists them.

    Each is a dict: ``name``, ``system``, ``summary``, ``exact`` (whether
    it has an exact solver), ``parameters`` (``key``, ``allowed``,
    ``range``, ``default``, ``doc``), ``fields`` (``name``, ``kind``,
    ``doc``) and ``metrics`` (``name``, ``doc``, ``probability``).
    """
    return json.loads(_oddsmith.mechanics_json())


def answer(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> Answer:
    """Answer one question: ``oddsmith odds MECHANIC key=value …``.

    ``mechanic`` is a mechanic's name (``"cortex.basic"``) or a system's
    (its first mechanic). ``params`` maps keys to values (int, bool,
    float, str, lists, dicts); keys left out take their defaults.
    ``mode`` is ``"auto"`` (exact where a solver covers the values, else
    Monte Carlo), ``"exact"`` (ParamError where there is none), ``"mc"``
    (Monte Carlo only) or ``"both"`` (``--check``: Monte Carlo beside the
    exact value, in ``to_dict()``): ``oddsmith run --mode``'s words. ``trials`` (default 1,000,000) and ``seed`` drive
    Monte Carlo; the same seed gives the command line's numbers.

    Raises ParamError with the command line's message for a bad question.
    The GIL is released while it works; Ctrl-C stops it.
    """
    raw = _oddsmith.answer_json(mechanic, dict(params or {}), None, mode, _trials(trials), seed)
    return Answer(json.loads(raw))


def odds(
    expr: str,
    vars: Optional[Mapping[str, int]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> Answer:
    """Answer a dice expression: ``oddsmith odds "4d6kh3"``.

    ``vars`` gives the expression's ``{name}`` values
    (``odds("{n}d6kh3", {"n": 4})``). Otherwise as :func:`answer`.
    """
    raw = _oddsmith.odds_json(expr, dict(vars or {}), mode, _trials(trials), seed)
    return Answer(json.loads(raw))


def _cell(text: str) -> Any:
    """A swept value as printed (``3``, ``true``, ``d8 d6``) back to a value."""
    try:
        return int(text)
    except ValueError:
        pass
    if text in ("true", "false"):
        return text == "true"
    try:
        return float(text)
    except ValueError:
        return text


def _word(value: Any) -> str:
    """A value as the command line writes it after ``key=``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def tune(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    *,
    knob: str,
    metric: str,
    target: Optional[float] = None,
    at_least: Optional[float] = None,
    at_most: Optional[float] = None,
    sweep: Optional[Mapping[str, Sequence[Any]]] = None,
    within: Optional[float] = None,
    range: Optional[Any] = None,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> pl.DataFrame:
    """The knob value whose metric best meets a target: ``oddsmith tune``.

    The question ``oddsmith tune MECHANIC --knob KNOB --metric METRIC
    --target X key=value …`` asks, with the same checks and messages
    (ParamError). Give exactly one of ``target`` (the nearest value),
    ``at_least`` or ``at_most``. ``sweep`` (one or two keys) asks once per
    combination; ``within`` marks rows that cannot get that close;
    ``range`` is ``"FROM..TO"`` or ``(FROM, TO)``; ``mode`` is ``"auto"``,
    ``"exact"``, ``"mc"`` or ``"both"``; ``trials`` defaults to the command line's (1000000).

    One row per combination of the sweep (an ambiguous one gets a row per
    candidate): the swept keys, ``knob`` (the value found, as printed;
    null when none meets the target), ``value`` with ``value_lo`` and
    ``value_hi`` (95% interval, Monte Carlo only), ``below``,
    ``below_value``, ``above``, ``above_value`` (the neighbours),
    ``reachable``, ``method`` (exact, bisection, scan), ``ambiguous`` and
    ``monotone``.
    """
    if range is not None and not isinstance(range, str):
        lo, hi = range
        range = f"{_word(lo)}..{_word(hi)}"
    raw = json.loads(
        _oddsmith.tune_json(
            mechanic,
            [(k, _word(v)) for k, v in (params or {}).items()],
            [(k, [_word(x) for x in vs]) for k, vs in (sweep or {}).items()],
            knob,
            metric,
            target,
            at_least,
            at_most,
            within,
            range,
            mode,
            trials,
            seed,
        )
    )
    rows = raw["rows"]
    columns: Dict[str, List[Any]] = {}
    for i, key in enumerate(raw["swept"]):
        columns[key] = [_cell(r["swept"][i]) for r in rows]
    columns["knob"] = [r["knob"] for r in rows]
    for name in ("value", "lo", "hi"):
        column = "value" if name == "value" else f"value_{name}"
        columns[column] = [None if r[name] is None else float(r[name]) for r in rows]
    for name in ("below", "above"):
        columns[name] = [r[name] for r in rows]
        columns[f"{name}_value"] = [
            None if r[f"{name}_value"] is None else float(r[f"{name}_value"]) for r in rows
        ]
    for name in ("reachable", "method", "ambiguous", "monotone"):
        columns[name] = [r[name] for r in rows]
    schema = {
        k: pl.Utf8 if k in ("knob", "below", "above", "method") else None for k in columns
    }
    return pl.DataFrame(
        {k: pl.Series(k, v, dtype=schema[k]) for k, v in columns.items()}
    )


def best(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    *,
    metric: Optional[str] = None,
    dominance: bool = True,
    opponent: str = "given",
    sweep: Optional[Mapping[str, Sequence[Any]]] = None,
    table: str = "summary",
    **values: Any,
) -> pl.DataFrame:
    """Best play: ``oddsmith best MECHANIC key=value … --metric M``.

    What a player who plays well gets, solved exactly for one side against
    the other side's given policy (``gateway.challenge``,
    ``gateway.scene``; others raise ParamError saying why). ``metric`` is
    maximised in expectation (default: the mechanic's first); ``params``
    and keyword ``values`` (``ladder=6``) set the values; ``sweep`` asks
    once per combination; ``dominance=False`` skips one solve per option.
    ``opponent="best"`` (``--against best``) has the other side play best
    too: a zero-sum duel (``gateway.scene`` for ``p_a_wins``; others raise
    ParamError saying why).

    ``table`` picks the rows, as the scenario outputs name them:
    ``"summary"`` (one row per config: the swept keys, ``metric``,
    ``best``, ``given``, ``gap``, ``decisions``, ``states``, ``policy``
    and ``replayed``; in a duel also ``one_sided``, A's best against B's
    given policy, ``taken_back``, what B's best play takes back, and
    ``opposing_decisions``), ``"dominance"`` (per config and option:
    ``option``, ``without``, ``loss``, ``usage``; in a duel a ``side``
    first, B's options forbidden with A still best: ``loss`` is what B's
    best play loses) or ``"rules"`` (per
    config and rule of the best policy: ``rank``, ``when``, ``choice``,
    ``share``, ``agree``; in a duel a ``side``, ``"A"`` or ``"B"``, first,
    with both sides' rules).
    """
    if table not in ("summary", "dominance", "rules"):
        raise ParamError(f"table={table!r}: allowed: 'summary', 'dominance', 'rules'")
    if opponent not in ("given", "best"):
        raise ParamError(
            f"opponent={opponent!r}: allowed: 'given' (the other side plays its given policy, the default) "
            "or 'best' (best play too: a zero-sum duel)"
        )
    duel = opponent == "best"
    fixed = {**dict(params or {}), **values}
    keys = list((sweep or {}).keys())
    combos = list(itertools.product(*[list(v) for v in (sweep or {}).values()]))
    rows: Dict[str, List[Any]] = {k: [] for k in keys}
    for combo in combos:
        asked = {**fixed, **dict(zip(keys, combo))}
        a = json.loads(_oddsmith.best_json(mechanic, asked, metric, dominance, opponent))
        if table == "summary":
            item = {
                "metric": a["metric"], "best": a["best"], "given": a["given"], "gap": a["gap"],
                "decisions": a["decisions"], "states": a["states"],
                "policy": a["policy"], "replayed": a["replayed"],
            }
            if duel:
                d = a["duel"]
                item.update({"one_sided": d["one_sided"], "taken_back": d["taken_back"],
                             "opposing_decisions": d["decisions"]})
            items = [item]
        elif table == "dominance":
            sides = [("A", a["dominance"])] + ([("B", a["duel"]["dominance"])] if duel else [])
            items = [{**({"side": side} if duel else {}), "option": d["option"], "without": d["without"],
                      "loss": d["loss"], "usage": d["usage"]}
                     for side, rows in sides for d in rows]
        else:
            sides = [("A", a["rules"])] + ([("B", a["duel"]["rules"])] if duel else [])
            items = [{**({"side": side} if duel else {}), "rank": i + 1, "when": r["when"],
                      "choice": r["choice"], "share": r["share"], "agree": r["agree"]}
                     for side, rules in sides for i, r in enumerate(rules)]
        for item in items:
            for k, v in zip(keys, combo):
                rows[k].append(v)
            for k, v in item.items():
                rows.setdefault(k, []).append(v)
    schema = {"policy": pl.Utf8, "replayed": pl.Float64, "when": pl.Utf8, "choice": pl.Utf8, "option": pl.Utf8,
              "side": pl.Utf8}
    return pl.DataFrame({k: pl.Series(k, v, dtype=schema.get(k)) for k, v in rows.items()})


def sweep(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    sweep: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> pl.DataFrame:
    """Answer every config of a sweep, in memory: one DataFrame.

    ``sweep`` maps keys to lists of values (``{"actor.trait": [1, 2, 3]}``);
    configs are numbered as a scenario's ``[sweep]`` numbers them (keys in
    order, the last fastest), and Monte Carlo configs draw the streams
    ``oddsmith run`` draws for the same sweep and seed. One row per
    config: ``config``, the swept keys, ``method``, ``trials``, then each
    headline metric (with ``<metric>_lo``/``<metric>_hi``, the 95%
    interval, null where exact): the shape of a run's summary.csv.
    """
    raw = json.loads(
        _oddsmith.answer_json(
            mechanic,
            dict(params or {}),
            {k: list(v) if isinstance(v, (list, tuple, range)) else v for k, v in (sweep or {}).items()},
            mode,
            _trials(trials),
            seed,
        )
    )
    configs = raw["configs"]
    columns: Dict[str, List[Any]] = {"config": [c["index"] for c in configs]}
    for i, key in enumerate(raw["swept"]):
        columns[key] = [_cell(c["swept"][i]) for c in configs]
    columns["method"] = [c["method"] for c in configs]
    columns["trials"] = [c["trials"] for c in configs]
    names = [m["name"] for m in configs[0]["metrics"]] if configs else []
    for j, name in enumerate(names):
        columns[name] = [float(c["metrics"][j]["value"]) for c in configs]
        columns[f"{name}_lo"] = [
            None if c["metrics"][j]["interval"] is None else float(c["metrics"][j]["interval"][0])
            for c in configs
        ]
        columns[f"{name}_hi"] = [
            None if c["metrics"][j]["interval"] is None else float(c["metrics"][j]["interval"][1])
            for c in configs
        ]
    schema = {n: pl.Float64 for n in columns if n in names or n.endswith(("_lo", "_hi"))}
    return pl.DataFrame(columns, schema_overrides=schema)


class Run:
    """A finished scenario run (``oddsmith run``).

    ``summary``: one row per config and method, headline metrics wide
    (summary.parquet). ``checks``: one row per ``[[expect]]`` assertion,
    with ``holds``. ``results``: a LazyFrame over the long table
    (results.parquet). ``out``: the output directory.
    """

    def __init__(self, raw: Dict[str, Any], keep: Any = None):
        self._keep = keep  # a temporary directory lives as long as the Run
        self.scenario: str = raw["scenario"]
        self.mechanic: str = raw["mechanic"]
        self.out = Path(raw["out"])
        self.summary: pl.DataFrame = pl.read_parquet(self.out / "summary.parquet")
        self.results: pl.LazyFrame = pl.scan_parquet(self.out / "results.parquet")
        self.checks: pl.DataFrame = pl.DataFrame(
            {
                "line": [c["line"] for c in raw["checks"]],
                "assertion": [c["assertion"] for c in raw["checks"]],
                "why": [c["why"] for c in raw["checks"]],
                "holds": [c["holds"] for c in raw["checks"]],
                "checked": [c["checked"] for c in raw["checks"]],
                "failures": [c["failures"] for c in raw["checks"]],
                "within_interval": [c["within_interval"] for c in raw["checks"]],
            },
            schema={
                "line": pl.Int64,
                "assertion": pl.Utf8,
                "why": pl.Utf8,
                "holds": pl.Boolean,
                "checked": pl.Int64,
                "failures": pl.Int64,
                "within_interval": pl.Int64,
            },
        )

    def __repr__(self) -> str:
        return f"<Run {self.scenario}: {self.summary.height} rows in {self.out}>"


def run(
    scenario: "str | Path",
    out: "str | Path | None" = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: Optional[int] = None,
) -> Run:
    """Run a scenario file: ``oddsmith run SCENARIO --out OUT``.

    With ``out=None`` the outputs go to a temporary directory that lives as
    long as the returned :class:`Run`. ``mode`` is ``"auto"``, ``"exact"``,
    ``"mc"`` or ``"both"``; ``trials`` and ``seed`` default to the
    scenario's. Raises ParamError with the command line's message for a
    scenario that does not load.
    """
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="oddsmith-")
        out = Path(keep.name) / "run"
    raw = _oddsmith.run_scenario(str(scenario), str(out), mode, trials, seed)
    return Run(json.loads(raw), keep)
