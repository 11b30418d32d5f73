#!/usr/bin/env bash
# Monte Carlo throughput of every mechanic against a plain C loop of the
# same generator (xoshiro256++), printed side by side in one run.
# Usage: benches/run.sh [NAME…]   (names filter mechanics by substring;
# a whole name picks that one alone)
# Builds with the caller's CARGO_TARGET_DIR; set ODDSMITH_REPS and
# ODDSMITH_SECONDS to trade time for steadier medians.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cc -O3 -pthread "$here/reference/xoshiro.c" -o "$out/xoshiro"
cd "$here/.."
ODDSMITH_C_LOOP="$out/xoshiro" cargo bench --quiet --bench throughput -- "$@"
