"""`oddsmith.tune` against `oddsmith tune MECHANIC --knob …`: the same
question gives the same table, and a bad question the same message."""

import re
import subprocess

import pytest

import oddsmith

GATEWAY = ["--knob", "opposition.challenge", "--metric", "p_success"]


def cli_table(cli, *args):
    """The rows `oddsmith tune ARGS` prints, as dicts of its columns."""
    out = subprocess.run([cli, "tune", *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    header = re.split(r"\s{2,}", lines[0].strip())
    return [dict(zip(header, re.split(r"\s{2,}", l.strip()))) for l in lines[1:]]


def neighbour(label, value):
    return "-" if label is None else f"{label} ({value:.4f})"


@pytest.mark.parametrize(
    "extra, kwargs",
    [
        (["--target", "0.5"], {"target": 0.5}),
        (["--at-least", "0.6"], {"at_least": 0.6}),
        (["--target", "0.5", "--mode", "mc", "--trials", "20000", "--seed", "3"],
         {"target": 0.5, "mode": "mc", "trials": 20000, "seed": 3}),
    ],
)
def test_tune_is_the_cli_answer(cli, extra, kwargs):
    want = cli_table(cli, "gateway.challenge", *GATEWAY, *extra, "actor.trait=3", "actor.background=2")
    got = oddsmith.tune(
        "gateway.challenge",
        {"actor.trait": 3, "actor.background": 2},
        knob="opposition.challenge",
        metric="p_success",
        **kwargs,
    )
    assert got.height == len(want) == 1
    row, w = got.row(0, named=True), want[0]
    assert row["knob"] == w["opposition.challenge"]
    value = f"{row['value']:.4f}"
    if row["value_lo"] is not None:
        value += f" [{row['value_lo']:.4f}, {row['value_hi']:.4f}]"
    assert value == w["p_success"]
    assert neighbour(row["below"], row["below_value"]) == w["below"]
    assert neighbour(row["above"], row["above_value"]) == w["above"]
    assert ("yes" if row["reachable"] else "no") == w["reachable"]
    assert row["method"] == w["method"].split(",")[0]


def test_the_exact_answer_is_the_manuals(cli):
    got = oddsmith.tune(
        "gateway.challenge",
        {"actor.trait": 3, "actor.background": 2},
        knob="opposition.challenge",
        metric="p_success",
        target=0.5,
    )
    row = got.row(0, named=True)
    assert row["knob"] == "3"
    assert row["value"] == pytest.approx(0.5042, abs=5e-5)
    assert (row["below"], row["above"]) == ("2", "4")


def test_a_sweep_gives_one_row_per_value_each_the_cli_answer(cli):
    got = oddsmith.tune(
        "gateway.challenge",
        {"actor.background": 2},
        sweep={"actor.trait": [1, 2, 3, 4]},
        knob="opposition.challenge",
        metric="p_success",
        target=0.5,
    )
    assert got["actor.trait"].to_list() == [1, 2, 3, 4]
    for t, knob in zip([1, 2, 3, 4], got["knob"].to_list()):
        want = cli_table(cli, "gateway.challenge", *GATEWAY, "--target", "0.5", f"actor.trait={t}", "actor.background=2")
        assert knob == want[0]["opposition.challenge"]


def cli_error(cli, *args):
    out = subprocess.run([cli, "tune", *args], capture_output=True, text=True)
    assert out.returncode == 2
    return out.stderr.strip().removeprefix("error: ")


def test_a_bad_knob_is_a_param_error_with_the_cli_message(cli):
    want = cli_error(cli, "gateway.challenge", "--knob", "opposition.nonsense", "--metric", "p_success",
                     "--target", "0.5", "actor.trait=3")
    assert "opposition.nonsense" in want
    with pytest.raises(oddsmith.ParamError) as e:
        oddsmith.tune("gateway.challenge", {"actor.trait": 3}, knob="opposition.nonsense",
                      metric="p_success", target=0.5)
    assert str(e.value) == want


def test_a_missing_target_is_a_param_error_with_the_cli_message(cli):
    want = cli_error(cli, "gateway.challenge", *GATEWAY)
    with pytest.raises(oddsmith.ParamError) as e:
        oddsmith.tune("gateway.challenge", knob="opposition.challenge", metric="p_success")
    assert str(e.value) == want


def test_a_complement_metric_is_tuned(cli):
    """`p_fail` is one minus `p_success`: at trait 3 challenge 1 fails 0.4958."""
    got = oddsmith.tune(
        "gateway.challenge", {"actor.trait": 3}, knob="opposition.challenge", metric="p_fail", target=0.5
    )
    row = got.row(0, named=True)
    assert row["knob"] == "1"
    assert abs(row["value"] - 0.4958) < 5e-5
    want = cli_table(cli, "gateway.challenge", "--knob", "opposition.challenge", "--metric", "p_fail",
                     "--target", "0.5", "actor.trait=3")
    assert want[0]["opposition.challenge"] == "1"


def test_flags_that_are_not_numbers_and_ranges_given_as_values_say_so():
    with pytest.raises(oddsmith.ParamError, match=r"--target NaN is not a finite number"):
        oddsmith.tune("gateway.challenge", knob="opposition.challenge", metric="p_success", target=float("nan"))
    with pytest.raises(oddsmith.ParamError, match=r"--within inf is not a finite number"):
        oddsmith.tune("gateway.challenge", knob="opposition.challenge", metric="p_success", target=0.5,
                      within=float("inf"))
    with pytest.raises(oddsmith.ParamError, match=r"actor.trait=1..4: a range takes several values, which is a sweep"):
        oddsmith.tune("gateway.challenge", {"actor.trait": "1..4"}, knob="opposition.challenge",
                      metric="p_success", target=0.5)
