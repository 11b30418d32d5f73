"""`run`: a scenario's summary, checks and long table, as `oddsmith run`
writes them."""

from pathlib import Path

import polars as pl

import oddsmith

ROOT = Path(__file__).resolve().parents[2]


def test_a_scenario_run_in_memory_and_on_disk(tmp_path):
    scenario = ROOT / "scenarios" / "dice-roll.toml"
    r = oddsmith.run(scenario)
    assert isinstance(r.summary, pl.DataFrame) and r.summary.height > 0
    assert isinstance(r.results, pl.LazyFrame)
    long = r.results.collect()
    assert long.height > r.summary.height
    assert r.checks.height > 0 and r.checks["holds"].all()
    out = tmp_path / "out"
    again = oddsmith.run(scenario, out)
    assert (out / "summary.csv").exists() and (out / "report.md").exists()
    assert again.summary.equals(r.summary)


def test_a_scenario_that_does_not_load_raises_param_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('mechanic = "cgg.nosuch"\n')
    try:
        oddsmith.run(bad, tmp_path / "out")
    except oddsmith.ParamError as e:
        assert "bad.toml" in str(e)
    else:
        raise AssertionError("no error")


def test_a_tune_or_best_scenario_is_refused_with_where_it_is_answered(tmp_path):
    for name, words in [("gateway-tune-even-odds.toml", "oddsmith.tune"), ("gateway-best.toml", "oddsmith.best")]:
        try:
            oddsmith.run(ROOT / "scenarios" / name, tmp_path / "out")
        except oddsmith.ParamError as e:
            assert name in str(e) and words in str(e), str(e)
        else:
            raise AssertionError(f"{name} ran as a sweep")
    assert not (tmp_path / "out").exists()


FLAT = """name = "Flat memory"
mechanic = "statements.statement"
[sweep]
favouring = {{ from = 1, to = {n} }}
opposing = {{ from = 1, to = 200 }}
[[chart]]
kind = "line"
metric = "p_true"
x = "opposing"
where = {{ favouring = 7 }}
file = "line"
[[expect]]
metric = "p_true"
monotonic = {{ along = "opposing", direction = "decreasing" }}
"""


def _peak(tmp_path, n):
    """The peak memory of a Python process that runs a sweep of n × 200
    configs (the run's own `peak_memory_bytes`), in a fresh process."""
    import json
    import subprocess
    import sys

    scenario = tmp_path / f"flat-{n}.toml"
    scenario.write_text(FLAT.format(n=n))
    out = tmp_path / f"out-{n}"
    code = f"import oddsmith; r = oddsmith.run({str(scenario)!r}, {str(out)!r}, mode='exact'); assert r.checks['holds'].all()"
    subprocess.run([sys.executable, "-c", code], check=True)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["configs"] == n * 200
    return manifest["peak_memory_bytes"]


def test_a_runs_memory_does_not_grow_with_its_configs(tmp_path):
    # 20,000 against 200,000 configs. A run that kept every config in
    # memory (about 0.85 KB each in this process) would add some 150 MB to
    # a peak of about 115 MB. The interpreter's process is noisier than the
    # command line's (its peak moved by up to 45 MB between runs of one
    # size, where the command line's moves by 3 MB), hence 1.5, not the
    # command line test's 1.2.
    small, big = _peak(tmp_path, 100), _peak(tmp_path, 1000)
    assert big <= small * 1.5, f"{small / 1e6:.1f} MB, then {big / 1e6:.1f} MB"
