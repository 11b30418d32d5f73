"""`oddsmith.best` against `oddsmith best … --format json`: the same
question gives the same numbers, a sweep one row per config, the other
tables the answer's dominance and rules, and a bad question the command
line's message as ParamError."""

import json
import subprocess

import polars as pl
import pytest

import oddsmith


def cli_best(cli, *args):
    out = subprocess.run([cli, "best", *args, "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_best_is_the_cli_answer(cli):
    want = cli_best(cli, "gateway.challenge", "actor.trait=3", "opposition.challenge=2", "--metric", "expected_raises")
    got = oddsmith.best("gateway.challenge", {"actor.trait": 3, "opposition.challenge": 2}, metric="expected_raises")
    assert isinstance(got, pl.DataFrame) and got.height == 1
    row = got.row(0, named=True)
    assert row["metric"] == "expected_raises"
    for k in ("best", "given", "gap", "decisions"):
        assert row[k] == want[k], k
    assert row["best"] >= row["given"]
    assert row["policy"] == want["policy"] and row["replayed"] == want["replayed"]
    dominance = oddsmith.best("gateway.challenge", {"actor.trait": 3, "opposition.challenge": 2},
                              metric="expected_raises", table="dominance")
    assert dominance["option"].to_list() == [d["option"] for d in want["dominance"]]
    assert dominance["loss"].to_list() == [d["loss"] for d in want["dominance"]]
    rules = oddsmith.best("gateway.challenge", {"actor.trait": 3, "opposition.challenge": 2},
                          metric="expected_raises", table="rules")
    assert rules["choice"].to_list() == [r["choice"] for r in want["rules"]]
    assert rules["rank"].to_list() == list(range(1, len(want["rules"]) + 1))


def test_keyword_values_and_a_sweep(cli):
    got = oddsmith.best("gateway.scene", metric="p_a_wins", ladder=4, round_cap=6,
                        sweep={"initiative": ["a", "b"]}, dominance=False)
    assert got["initiative"].to_list() == ["a", "b"]
    for i, who in enumerate(["a", "b"]):
        want = cli_best(cli, "gateway.scene", "ladder=4", "round_cap=6", f"initiative={who}",
                        "--metric", "p_a_wins", "--no-dominance")
        assert got["best"][i] == want["best"] and got["gap"][i] == want["gap"]


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda: oddsmith.best("cortex.basic"), "no exact best play"),
        (lambda: oddsmith.best("gateway.challenge", metric="p_win"), "is not a metric"),
        (lambda: oddsmith.best("gateway.challenge", {"actor.trait": 9}), "actor.trait"),
        (lambda: oddsmith.best("gateway.chalenge"), "gateway.challenge"),
        (lambda: oddsmith.best("gateway.challenge", table="wide"), "allowed"),
    ],
)
def test_bad_questions_raise_param_error(call, said):
    with pytest.raises(oddsmith.ParamError, match=said):
        call()


def test_run_refuses_a_best_scenario(tmp_path):
    path = tmp_path / "best.toml"
    path.write_text('name = "b"\nmechanic = "gateway.challenge"\n[best]\nmetric = "p_success"\n')
    with pytest.raises(oddsmith.ParamError, match=r"\[best\] table"):
        oddsmith.run(path)


def test_a_duel_is_the_cli_duel(cli):
    want = cli_best(cli, "gateway.scene", "ladder=4", "round_cap=6", "--metric", "p_a_wins", "--against", "best")
    got = oddsmith.best("gateway.scene", metric="p_a_wins", ladder=4, round_cap=6, opponent="best")
    assert got.height == 1
    row = got.row(0, named=True)
    for k in ("best", "given", "gap", "decisions", "policy", "replayed"):
        assert row[k] == want[k], k
    assert row["one_sided"] == want["duel"]["one_sided"]
    assert row["taken_back"] == want["duel"]["taken_back"]
    assert row["opposing_decisions"] == want["duel"]["decisions"]
    # B's best play only takes back what A's one-sided best play gets.
    assert row["one_sided"] >= row["best"] and row["taken_back"] >= 0
    assert '"b.policy"' in row["policy"]
    one_sided = oddsmith.best("gateway.scene", metric="p_a_wins", ladder=4, round_cap=6)
    assert row["one_sided"] == pytest.approx(one_sided["best"][0], abs=1e-12)
    assert "one_sided" not in one_sided.columns
    rules = oddsmith.best("gateway.scene", metric="p_a_wins", ladder=4, round_cap=6, opponent="best",
                          dominance=False, table="rules")
    assert rules.columns[:2] == ["side", "rank"]
    dominance = oddsmith.best("gateway.scene", metric="p_a_wins", ladder=4, round_cap=6, opponent="best",
                              table="dominance")
    assert dominance.columns[:2] == ["side", "option"]
    theirs = dominance.filter(pl.col("side") == "B")
    assert theirs["option"].to_list() == [d["option"] for d in want["duel"]["dominance"]]
    assert theirs["loss"].to_list() == [d["loss"] for d in want["duel"]["dominance"]]
    # Forbidding one of B's options never helps B.
    assert all(w >= row["best"] - 1e-12 for w in theirs["without"].to_list())
    b = rules.filter(pl.col("side") == "B")
    assert b["choice"].to_list() == [r["choice"] for r in want["duel"]["rules"]]
    assert b["rank"].to_list() == list(range(1, len(want["duel"]["rules"]) + 1))


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda: oddsmith.best("gateway.scene", round_cap=6, opponent="worst"), "allowed: 'given'"),
        (lambda: oddsmith.best("cortex.contested", opponent="best"), "no best play for both sides"),
        (lambda: oddsmith.best("gateway.scene", round_cap=6, metric="mean_rounds", opponent="best"),
         "not zero-sum"),
        (lambda: oddsmith.best("gateway.scene", {"b.initiative_order": "last"}, round_cap=6, opponent="best"),
         "b.initiative_order"),
    ],
)
def test_bad_duels_raise_param_error(call, said):
    with pytest.raises(oddsmith.ParamError, match=said):
        call()
