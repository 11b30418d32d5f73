#!/usr/bin/env python3
"""The same contests as oddsmith's defaults, in numpy, for the ratio.

Gateway challenge: highest of 3d8 against highest of 2d8, success on equal
or better (margin histogram kept, as oddsmith's tally does). QuestWorlds
contest: PC rating 15 against the base resistance 10 (no masteries at these
ratings): a d20 each, under the TN is one success, equal to it two, more
successes wins, then the higher face, equal faces tie (verdict and degree
histograms kept). Vectorised in blocks of 2^20 trials on one thread (numpy
does not spread this work over threads), timed with the same C loop run
beside it when given: `numpy_contests.py [path/to/xoshiro]`.
"""
import subprocess
import sys
import time

import numpy as np

BLOCK = 1 << 20
ROUNDS = 16


def gateway(rng):
    a = rng.integers(1, 9, size=(BLOCK, 3), dtype=np.int8).max(axis=1)
    o = rng.integers(1, 9, size=(BLOCK, 2), dtype=np.int8).max(axis=1)
    margin = a.astype(np.int16) - o
    return np.bincount(margin + 7, minlength=15)


def questworlds(rng, pc=15, res=10):
    x = rng.integers(1, 21, size=BLOCK, dtype=np.int16)
    y = rng.integers(1, 21, size=BLOCK, dtype=np.int16)
    sx = (x < pc).astype(np.int16) + 2 * (x == pc)
    sy = (y < res).astype(np.int16) + 2 * (y == res)
    # verdict: 0 victory, 1 tie, 2 defeat
    diff = np.sign(sx - sy) * 2 + np.sign(x - y)
    verdict = np.where(diff > 0, 0, np.where(diff == 0, 1, 2))
    degree = np.abs(sx - sy)
    return np.bincount(verdict, minlength=3), np.bincount(degree, minlength=3)


def rate(f, rng):
    f(rng)  # warm up
    t = time.perf_counter()
    for _ in range(ROUNDS):
        f(rng)
    return ROUNDS * BLOCK / (time.perf_counter() - t)


def main():
    rng = np.random.default_rng(1)
    c = None
    if len(sys.argv) > 1:
        out = subprocess.run([sys.argv[1], "2", str(1 << 28)], capture_output=True, text=True)
        c = float(out.stdout.split()[0])
    for name, f in [("gateway.challenge", gateway), ("questworlds.contest", questworlds)]:
        r = rate(f, rng)
        ratio = f"  ratio {r / c:.4f}× to C loop {c:.3e} words/s (2 threads)" if c else ""
        print(f"numpy {name:<20} {r:.3e} trials/s (1 thread){ratio}")


if __name__ == "__main__":
    main()
