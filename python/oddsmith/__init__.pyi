"""Type stubs for oddsmith (see __init__.py for the docs)."""

from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import polars as pl

DEFAULT_TRIALS: int

class ParamError(ValueError):
    """A question oddsmith cannot answer as asked; the message is the command line's."""

class Metric:
    """One metric: its value, 95% interval (Monte Carlo only) and method."""

    name: str
    value: float
    interval: Optional[Tuple[float, float]]
    method: str
    doc: str

class Answer:
    """One config's metrics and distributions."""

    mechanic: str
    summary: str
    method: str
    trials: int
    reading: Optional[str]
    warnings: List[str]
    metrics: Dict[str, Metric]
    @property
    def fields(self) -> List[str]:
        """The outcome fields, in the mechanic's order."""
    def distribution(self, field: str) -> pl.DataFrame:
        """Columns value, label, p, at_least, at_most: one row per value."""
    def to_dict(self) -> Dict[str, Any]:
        """The answer as `oddsmith odds --format json` prints it."""

class Run:
    """A finished scenario run."""

    scenario: str
    mechanic: str
    out: Path
    summary: pl.DataFrame
    checks: pl.DataFrame
    results: pl.LazyFrame

def mechanics() -> List[Dict[str, Any]]:
    """Every registered mechanic, as `oddsmith systems` lists them."""

def answer(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> Answer:
    """`oddsmith odds MECHANIC key=value …`: mode is auto, exact, mc or both."""

def odds(
    expr: str,
    vars: Optional[Mapping[str, int]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> Answer:
    """`oddsmith odds "4d6kh3"`: a dice expression, `{name}` values in vars."""

def sweep(
    mechanic: str,
    params: Optional[Mapping[str, Any]] = None,
    sweep: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> pl.DataFrame:
    """One row per config: config, swept keys, method, trials, metrics (+ _lo/_hi)."""

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
    range: "str | Tuple[Any, Any] | None" = None,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: int = 1,
) -> pl.DataFrame:
    """`oddsmith tune MECHANIC --knob … key=value`: one row per sweep combination (swept keys, knob, value, value_lo/hi, below/above and their values, reachable, method, ambiguous, monotone)."""

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
    """`oddsmith best MECHANIC key=value … --metric M [--against best]`: best play (opponent="best": a zero-sum duel), one row per config (summary), per config and option (dominance) or per config and rule (rules)."""

def run(
    scenario: "str | Path",
    out: "str | Path | None" = None,
    *,
    mode: str = "auto",
    trials: Optional[int] = None,
    seed: Optional[int] = None,
) -> Run:
    """`oddsmith run SCENARIO --out OUT`; out=None uses a temporary directory."""
