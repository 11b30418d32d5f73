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
