"""The package's answers are `oddsmith odds`'s: the same JSON, exact values
to 1e-12, Monte Carlo bit for bit for the same seed."""

import json
import math
import subprocess

import polars as pl
import pytest

import oddsmith


def cli_json(cli, *args):
    out = subprocess.run([cli, "odds", *args, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def same(a, b, tol, path="$"):
    """Equal structures; floats within `tol` (relative and absolute)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), path
        assert math.isclose(a, b, rel_tol=tol, abs_tol=tol), f"{path}: {a} != {b}"
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            same(a[k], b[k], tol, f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, tol, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


# (mechanic, params as Python values, the same as `key=value` words)
EXACT = [
    ("gateway.challenge", {}, []),
    ("cortex.basic", {"actor.pool": "d8 d6 d6", "opposition.pool": "d10 d6"},
     ["actor.pool=d8 d6 d6", "opposition.pool=d10 d6"]),
    ("cgg.risk", {"code": "4d+1", "target": 12}, ["code=4d+1", "target=12"]),
    ("questworlds.contest", {"pc.rating": "5M", "resistance.rating": 14},
     ["pc.rating=5M", "resistance.rating=14"]),
    ("statements.statement", {"favouring": [4, 3], "opposing": 5},
     ["favouring=[4, 3]", "opposing=5"]),
]

EXPRESSIONS = [
    ("4d6kh3", {}, ["4d6kh3"]),
    ("3d8kh1+2 >= 2d8kh1+4", {}, ["3d8kh1+2 >= 2d8kh1+4"]),
    ("{n}d6kh3", {"n": 5}, ["{n}d6kh3", "n=5"]),
]

PLAYERS = [{"name": "ann", "statements": [{"favouring": 4}, {"favouring": 6, "opposing": 3}]}]

# Mechanics with no exact solver (statements.scene needs its players).
MONTE_CARLO = [
    ("cgg.tension", {}, []),
    ("questworlds.group_sequence", {}, []),
    ("statements.scene", {"players": PLAYERS},
     ['players=[{name = "ann", statements = [{favouring = 4}, {favouring = 6, opposing = 3}]}]']),
]


@pytest.mark.parametrize("mechanic,params,words", EXACT, ids=[e[0] for e in EXACT])
def test_exact_answers_equal_the_cli(cli, mechanic, params, words):
    mine = oddsmith.answer(mechanic, params)
    assert mine.method == "exact"
    same(mine.to_dict(), cli_json(cli, mechanic, *words), 1e-12)


@pytest.mark.parametrize("expr,vars,words", EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_expressions_equal_the_cli(cli, expr, vars, words):
    mine = oddsmith.odds(expr, vars)
    same(mine.to_dict(), cli_json(cli, *words), 1e-12)


@pytest.mark.parametrize("mechanic,params,words", MONTE_CARLO, ids=[e[0] for e in MONTE_CARLO])
def test_monte_carlo_answers_equal_the_cli_for_the_same_seed(cli, mechanic, params, words):
    mine = oddsmith.answer(mechanic, params, trials=20_000, seed=7)
    assert mine.method == "monte-carlo"
    assert mine.trials == 20_000
    # Bit for bit: the same streams, the same sums.
    assert mine.to_dict() == cli_json(cli, mechanic, *words, "--trials", "20000", "--seed", "7")


def test_a_check_run_equals_the_cli(cli):
    # --check on an exact mechanic: Monte Carlo beside the exact value.
    fight = oddsmith.answer("cortex.fight", mode="both", trials=20_000, seed=2)
    assert fight.to_dict() == cli_json(cli, "cortex.fight", "--check", "--trials", "20000", "--seed", "2")
    mine = oddsmith.answer("cgg.risk", {"code": "3d"}, mode="both", trials=50_000, seed=3)
    assert mine.to_dict() == cli_json(cli, "cgg.risk", "code=3d", "--check", "--trials", "50000", "--seed", "3")
    assert mine.to_dict()["configs"][0]["metrics"][0]["check"]["trials"] == 50_000


def test_a_sweep_equals_the_cli_table(cli):
    table = oddsmith.sweep("cgg.risk", {"code": "3d"}, sweep={"target": [6, 8, 10, 12]})
    theirs = cli_json(cli, "cgg.risk", "code=3d", "target=6,8,10,12")
    assert table["target"].to_list() == [6, 8, 10, 12]
    for row, config in zip(table.iter_rows(named=True), theirs["configs"]):
        for m in config["metrics"]:
            assert math.isclose(row[m["name"]], m["value"], rel_tol=1e-12, abs_tol=1e-12)


def test_a_monte_carlo_sweep_draws_the_cli_streams(cli):
    table = oddsmith.sweep("cgg.tension", sweep={"start": [3, 5]}, trials=4000, seed=5)
    theirs = cli_json(cli, "cgg.tension", "start=3,5", "--trials", "4000", "--seed", "5")
    for row, config in zip(table.iter_rows(named=True), theirs["configs"]):
        assert row["method"] == config["method"] == "monte-carlo"
        for m in config["metrics"]:
            assert row[m["name"]] == m["value"]
            assert (row[m["name"] + "_lo"], row[m["name"] + "_hi"]) == tuple(m["interval"])


def test_metrics_and_distributions_by_hand():
    a = oddsmith.odds("2d6")
    dist = a.distribution(a.fields[0])
    assert dist.columns == ["value", "label", "p", "at_least", "at_most"]
    # 2d6 by hand: 7 comes 6 ways in 36, 12 once; P(≥ 11) = 3/36.
    row = {r["value"]: r for r in dist.iter_rows(named=True)}
    assert math.isclose(row[7]["p"], 6 / 36, abs_tol=1e-15)
    assert math.isclose(row[12]["p"], 1 / 36, abs_tol=1e-15)
    assert math.isclose(row[11]["at_least"], 3 / 36, abs_tol=1e-15)
    assert math.isclose(row[3]["at_most"], 3 / 36, abs_tol=1e-15)
    assert math.isclose(dist["p"].sum(), 1.0, abs_tol=1e-12)
    assert math.isclose(a.metrics["mean"].value, 7.0, abs_tol=1e-12)
    assert a.metrics["mean"].interval is None and a.metrics["mean"].method == "exact"


def test_monte_carlo_intervals_cover_the_exact_value():
    exact = oddsmith.answer("cgg.risk", {"code": "3d", "target": 9})
    mc = oddsmith.answer("cgg.risk", {"code": "3d", "target": 9}, mode="both", trials=200_000, seed=11)
    name = next(iter(exact.metrics))
    check = mc.to_dict()["configs"][0]["metrics"][0]["check"]
    lo, hi = check["interval"]
    assert lo <= exact.metrics[name].value <= hi
    assert abs(check["z"]) < 4
