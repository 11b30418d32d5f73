"""Long runs: the GIL is released, an interrupt stops them within a second,
a 100-config sweep is one DataFrame, and the binding costs little."""

import _thread
import os
import signal
import threading
import time
import timeit

import polars as pl
import pytest

import oddsmith


@pytest.fixture
def sigint_raises():
    # A shell that starts a job in the background without job control
    # (`cmd &` in a script) ignores SIGINT for it, and Python then keeps
    # it ignored: `interrupt_main()` would do nothing. Ctrl-C in a notebook
    # or a terminal has Python's own handler, which this restores.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_an_interrupt_from_another_thread_stops_a_long_run_within_a_second(sigint_raises):
    # Minutes of Monte Carlo (cgg.tension has no exact solver), were it not stopped.
    fired = []

    def interrupt():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(0.5, interrupt)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        oddsmith.answer("cgg.tension", trials=500_000_000, seed=1)
    stopped = time.monotonic()
    timer.join()
    assert fired, "the interrupt never fired: the run ended first"
    assert stopped - fired[0] < 1.0, f"stopped {stopped - fired[0]:.2f} s after the interrupt"
    # The interpreter answers afterwards.
    assert oddsmith.odds("1d6").metrics["mean"].value == 3.5


def test_the_gil_is_released_while_it_works():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=count)
    t.start()
    oddsmith.answer("cgg.tension", trials=1_000_000, seed=1)
    done.set()
    t.join()
    assert len(ticks) >= 5


def test_a_100_config_sweep_is_one_dataframe_without_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    table = oddsmith.sweep("cgg.risk", sweep={"code": ["2d", "3d", "4d", "5d"], "target": list(range(25))})
    assert isinstance(table, pl.DataFrame)
    assert table.height == 100
    assert table["config"].to_list() == list(range(100))
    assert table.columns[:5] == ["config", "code", "target", "method", "trials"]
    # The last key runs fastest, as in a scenario's [sweep].
    assert table.row(1, named=True)["code"] == "2d" and table.row(1, named=True)["target"] == 1
    assert table.row(25, named=True)["code"] == "3d"
    assert os.listdir(tmp_path) == []


def test_overhead_of_an_exact_single_roll(capsys):
    from oddsmith import _oddsmith

    params = {"code": "3d", "target": 9}
    oddsmith.answer("cgg.risk", params)
    n = 2000
    python = min(timeit.repeat(lambda: oddsmith.answer("cgg.risk", params), number=n, repeat=3)) / n
    rust = min(_oddsmith.time_rust_answer("cgg.risk", params, n) for _ in range(3))
    overhead = python - rust
    with capsys.disabled():
        print(
            f"\noverhead of an exact single-roll answer: Python {python * 1e6:.1f} µs, "
            f"Rust {rust * 1e6:.1f} µs, overhead {overhead * 1e6:.1f} µs"
        )
    assert overhead < 1e-3
