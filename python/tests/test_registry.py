"""Every registered mechanic answers at its defaults, and the registry is
`oddsmith systems`'s."""

import subprocess

import pytest

import oddsmith

MECHANICS = oddsmith.mechanics()

# Required parameters (no default): the least a question must give.
REQUIRED = {
    "gateway.ensemble": {"pcs": [{}]},
    "gateway.skirmish": {"pcs": [{}]},
    "statements.scene": {"players": [{"name": "ann", "statements": [{"favouring": 4}]}]},
    "statements.campaign": {"players": [{"name": "ann", "statements": [{"favouring": 4}]}]},
}


def test_the_registry_lists_what_the_cli_lists(cli):
    listed = subprocess.run([cli, "systems"], check=True, capture_output=True, text=True).stdout
    index = [line.split()[0] for line in listed.split("\n\n")[0].splitlines()[1:]]
    assert [m["name"] for m in MECHANICS] == index
    assert {m["system"] for m in MECHANICS} == {"gateway", "cortex", "cgg", "questworlds", "statements", "dice"}
    risk = next(m for m in MECHANICS if m["name"] == "cgg.risk")
    target = next(p for p in risk["parameters"] if p["key"] == "target")
    assert target["range"] == [0, 500]
    assert "avoided" in [f["name"] for f in risk["fields"]]
    assert risk["exact"] is True


@pytest.mark.parametrize("m", MECHANICS, ids=[m["name"] for m in MECHANICS])
def test_every_mechanic_answers_at_its_defaults(m):
    a = oddsmith.answer(m["name"], REQUIRED.get(m["name"]), trials=2_000, seed=1)
    assert a.mechanic == m["name"]
    assert a.metrics
    # The registry's names, placeholders (`p_true.<player>.<n>`) and
    # metrics of a part the defaults leave out (dice.roll's comparison,
    # p_true; the skirmish's ticking bomb, p_bomb) aside.
    plain = {x["name"] for x in m["metrics"] if "<" not in x["name"]} - {"p_true", "p_bomb"}
    assert plain <= set(a.metrics)
    for metric in a.metrics.values():
        assert metric.value == metric.value  # not NaN
        if metric.interval is not None:
            assert metric.interval[0] <= metric.value <= metric.interval[1]
    assert a.method == ("exact" if a.trials == 0 else "monte-carlo")
    for field in a.fields:
        dist = a.distribution(field)
        assert abs(dist["p"].sum() - 1.0) < 1e-9
