"""A child forked from a process that has used oddsmith works: its own
worker threads, not the parent's (which a fork does not copy). This is
what `multiprocessing` does by default on Linux before Python 3.14."""

import multiprocessing
import os

import pytest

import oddsmith

# Long enough for a loaded CI machine, short enough that a hang fails
# the test instead of the run.
TIMEOUT = 60


def _in_child(what):
    if what == "sweep":
        df = oddsmith.sweep("gateway.challenge", {"actor.trait": 3}, {"opposition.challenge": [1, 2, 3]})
        return df.height
    if what == "monte-carlo":
        # cgg.tension has no exact solver: Monte Carlo on every core.
        a = oddsmith.answer("cgg.tension", trials=400_000, seed=7)
        return a.method
    if what == "tune":
        return oddsmith.tune(
            "gateway.challenge", {"actor.trait": 3}, knob="opposition.challenge",
            metric="p_success", target=0.5, mode="mc", trials=4000,
        ).height
    raise ValueError(what)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
@pytest.mark.parametrize("what, want", [("sweep", 3), ("monte-carlo", "monte-carlo"), ("tune", 1)])
def test_a_forked_child_answers(what, want):
    # The parent uses the worker threads first, so the child inherits a
    # pool whose threads it does not have.
    parent = oddsmith.answer("cgg.tension", trials=50_000, seed=1)
    assert parent.method == "monte-carlo"
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        got = pool.apply_async(_in_child, (what,)).get(timeout=TIMEOUT)
    assert got == want
    # And the parent goes on with its own.
    assert oddsmith.answer("cgg.tension", trials=50_000, seed=1).metrics == parent.metrics


def _run_in_child(scenario):
    try:
        oddsmith.run(scenario, trials=2000)
    except RuntimeError as e:
        return str(e)
    return "ran"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_run_in_a_child_forked_after_a_run_says_why_it_cannot(tmp_path):
    """Writing a run starts the table writer's threads, which a fork does
    not copy and which cannot be made again: the child is told, not hung."""
    from pathlib import Path

    scenario = str(Path(__file__).resolve().parents[2] / "scenarios" / "dice-roll.toml")
    oddsmith.run(scenario, tmp_path / "parent", trials=2000)
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        got = pool.apply_async(_run_in_child, (scenario,)).get(timeout=TIMEOUT)
    assert "forked after its parent wrote one" in got
    assert "spawn" in got
