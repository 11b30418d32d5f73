"""Bad questions raise ParamError with the CLI's message; a panic is an
exception, not the end of the interpreter."""

import subprocess

import pytest

import oddsmith


def cli_error(cli, *args):
    out = subprocess.run([cli, "odds", *args], capture_output=True, text=True)
    assert out.returncode == 2, out
    # The CLI's printer prefixes `error: ` and indents what follows under it.
    lines = out.stderr.rstrip("\n").split("\n")
    return "\n".join([lines[0].removeprefix("error: ")] + [l.removeprefix(" " * 7).removeprefix("error: ") for l in lines[1:]])


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: oddsmith.answer("cgg.risk", {"target": 900}), ["cgg.risk", "target=900"]),
        (lambda: oddsmith.answer("cgg.risk", {"targte": 9}), ["cgg.risk", "targte=9"]),
        (lambda: oddsmith.answer("cortex.basic", {"actor.pool": "d7"}), ["cortex.basic", "actor.pool=d7"]),
        (lambda: oddsmith.answer("cgg.risk", {"comparison": "lt"}), ["cgg.risk", "comparison=lt"]),
        (lambda: oddsmith.answer("nosuch"), ["nosuch"]),
        (lambda: oddsmith.odds("4d6kh"), ["4d6kh"]),
        (lambda: oddsmith.odds("{n}d6"), ["{n}d6"]),
    ],
    ids=["range", "unknown-key", "bad-die", "bad-choice", "unknown-mechanic", "bad-expression", "unbound"],
)
def test_bad_parameters_raise_param_error_with_the_cli_message(cli, call, words):
    with pytest.raises(oddsmith.ParamError) as e:
        call()
    theirs = cli_error(cli, *words)
    mine = str(e.value)
    # The unbound-parameter hint names the Python way to give a value.
    if "has no value" in mine:
        mine, theirs = mine.split("\ngive it")[0], theirs.split("\ngive it")[0]
    assert mine == theirs


def test_param_error_is_a_value_error():
    assert issubclass(oddsmith.ParamError, ValueError)
    with pytest.raises(ValueError):
        oddsmith.answer("cgg.risk", {"target": -1})


def test_bad_call_arguments():
    with pytest.raises(oddsmith.ParamError, match="not a mode"):
        oddsmith.answer("cgg.risk", mode="fast")
    with pytest.raises(oddsmith.ParamError, match="non-empty list"):
        oddsmith.sweep("cgg.risk", sweep={"target": 3})
    with pytest.raises(oddsmith.ParamError, match="no exact answer"):
        oddsmith.answer("cgg.tension", mode="exact", trials=100)
    with pytest.raises(oddsmith.ParamError, match="allowed: auto .*exact .*mc .*both"):
        oddsmith.odds("3d6", mode="check")


def test_every_face_takes_runs_four_modes():
    # `oddsmith run --mode`'s words: auto, exact, mc, both.
    assert oddsmith.odds("3d6", mode="exact").to_dict()["configs"][0]["method"] == "exact"
    mc = oddsmith.odds("3d6", mode="mc", trials=5000, seed=2).to_dict()["configs"][0]
    assert (mc["method"], mc["trials"]) == ("monte-carlo", 5000)
    both = oddsmith.answer("gateway.challenge", {"actor.trait": 3}, mode="both", trials=5000)
    assert both.to_dict()["configs"][0]["metrics"][0]["check"]["trials"] == 5000
    assert oddsmith.odds("3d6").to_dict()["configs"][0]["method"] == "exact"
    with pytest.raises(oddsmith.ParamError, match="not a field"):
        oddsmith.odds("3d6").distribution("nope")


def test_a_panic_is_an_exception_and_the_interpreter_goes_on():
    from oddsmith import _oddsmith

    with pytest.raises(RuntimeError, match="deliberate panic"):
        _oddsmith._panic_for_test()
    assert oddsmith.odds("1d6").metrics["mean"].value == 3.5


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: oddsmith.answer("cgg.risk", trials=-1), "trials=-1 is out of range"),
        (lambda: oddsmith.answer("cgg.risk", trials=0), "trials=0 is out of range"),
        (lambda: oddsmith.answer("cgg.risk", trials=1.5), "trials=1.5 is not a whole number"),
        (lambda: oddsmith.answer("cgg.risk", trials="10"), "trials='10' is not a whole number"),
        (lambda: oddsmith.answer("cgg.risk", seed=2**64), "seed=18446744073709551616 is out of range"),
        (lambda: oddsmith.answer("cgg.risk", seed=-1), "seed=-1 is out of range"),
        (lambda: oddsmith.odds("3d6", trials=-1), "trials=-1 is out of range"),
        (lambda: oddsmith.sweep("cgg.risk", sweep={"target": [3, 4]}, seed=2**64), "seed="),
        (lambda: oddsmith.tune("gateway.challenge", knob="opposition.challenge",
                               metric="p_success", target=0.5, trials=-1), "trials=-1 is out of range"),
        (lambda: oddsmith.tune("gateway.challenge", knob="opposition.challenge",
                               metric="p_success", target=0.5, seed=2**64), "seed="),
        (lambda: oddsmith.run("scenarios/none.toml", trials=1.5), "trials=1.5 is not a whole number"),
    ],
    ids=["negative", "zero", "float", "text", "seed-too-big", "seed-negative", "odds", "sweep", "tune",
         "tune-seed", "run"],
)
def test_bad_trials_and_seeds_raise_param_error_naming_the_argument(call, words):
    with pytest.raises(oddsmith.ParamError) as e:
        call()
    assert words in str(e.value)
    assert "allowed: a whole number from" in str(e.value)
