#!/usr/bin/env bash
# Issue 18's "n times today's rate", measured: the throughput bench built
# at the commit where the issue was filed (0171f04) and at this checkout,
# run one after the other, round after round, on the same mechanics; then
# each mechanic's fastest rate of each build (one and two threads) and
# their ratio. A neighbour on a shared machine only ever slows a run, so
# the best of the rounds is the nearest to each build's own speed.
#
# Usage: benches/baseline.sh [NAME…]   (names filter by substring)
# ODDSMITH_ROUNDS (default 3) sets how often the pair runs;
# ODDSMITH_REPS and ODDSMITH_SECONDS are passed to both runs (run.sh);
# ODDSMITH_BASELINE names another commit to compare with.
# ODDSMITH_TENSION_SCENES=N also times N tension scenes with each build's
# `oddsmith odds` (two threads), round after round: the baseline's
# default scene against today's `edge.gives=none`, the same scene as
# 0171f04's default (about 10.5 rounds; today's default gives the Edge's
# holder a cumulative +1d and lasts twice as long).
# Builds with the caller's CARGO_TARGET_DIR (default target/); the
# baseline in its own directory under it (baseline-COMMIT: a cold build
# the first time, some minutes), so that its `oddsmith` binary never
# takes the place of this checkout's.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
base="${ODDSMITH_BASELINE:-0171f04}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
rounds="${ODDSMITH_ROUNDS:-3}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cc -O3 -pthread "$here/reference/xoshiro.c" -o "$out/xoshiro"
# The baseline predates the throughput bench: export the commit and give
# it the bench as it stood at 44bbb8f (it compiles against 0171f04's API),
# taught the fixed-trials mode of today's bench (`ODDSMITH_TRIALS=N`: N
# trials of each named mechanic on one thread, for callgrind; the binary
# stays in the baseline's target directory, under release/deps).
mkdir "$out/base"
git -C "$root" archive "$base" | tar -x -C "$out/base"
git -C "$root" show 44bbb8f:benches/throughput.rs |
    awk -v block="$(
        cat <<'RUST'
    if let Some(trials) = std::env::var("ODDSMITH_TRIALS").ok().and_then(|t| t.parse::<u64>().ok()) {
        let names: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
        for &m in registry().iter().filter(|m| names.iter().any(|f| m.name().contains(f))) {
            let model = m.prepare(&ParamMap::new()).unwrap();
            let r = rate(model.as_ref(), 1, trials);
            println!("{} {trials} {:.3e}", m.name(), r.wall);
        }
        return;
    }
RUST
    )" '{ print } /^fn main\(\) \{$/ { print block }' >"$out/base/benches/throughput.rs"
printf '\n[[bench]]\nname = "throughput"\nharness = false\n' >>"$out/base/Cargo.toml"

# The path of the bench binary cargo builds in directory $1 (into target
# directory $2).
bench_binary() {
    (cd "$1" && CARGO_TARGET_DIR="$2" cargo bench --no-run --bench throughput 2>&1) |
        sed -n 's/.*Executable benches\/throughput.rs (\(.*\))$/\1/p'
}
echo "building the baseline ($base) and this checkout…" >&2
old="$(bench_binary "$out/base" "$CARGO_TARGET_DIR/baseline-$base")"
new="$(bench_binary "$root" "$CARGO_TARGET_DIR")"
[[ -x "$old" && -x "$new" ]] || {
    echo "baseline.sh: a bench did not build (run cargo bench --no-run --bench throughput to see why)" >&2
    exit 2
}

for r in $(seq 1 "$rounds"); do
    echo "round $r of $rounds" >&2
    ODDSMITH_C_LOOP="$out/xoshiro" "$old" "$@" 2>/dev/null | sed 's/^/old /' >>"$out/rates"
    ODDSMITH_C_LOOP="$out/xoshiro" "$new" "$@" 2>/dev/null | sed 's/^/new /' >>"$out/rates"
done

# Rows that print two rates (trials a second on one and two threads).
awk -v base="$base" '
    $3 ~ /^[0-9.]+e[+-]?[0-9]+$/ && $4 ~ /^[0-9.]+e[+-]?[0-9]+$/ {
        k = $2
        if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        if ($3 > best1[$1, k]) best1[$1, k] = $3
        if ($4 > best2[$1, k]) best2[$1, k] = $4
    }
    END {
        printf "%-27s %11s %11s %7s   %11s %11s %7s\n", "mechanic", base " 1T", "now 1T", "gain", base " 2T", "now 2T", "gain"
        for (i = 1; i <= n; i++) {
            k = order[i]
            if (!(("old", k) in best1) || !(("new", k) in best1)) continue
            printf "%-27s %11.3e %11.3e %6.2f×   %11.3e %11.3e %6.2f×\n", k,
                best1["old", k], best1["new", k], best1["new", k] / best1["old", k],
                best2["old", k], best2["new", k], best2["new", k] / best2["old", k]
        }
    }' "$out/rates"

# Tension scenes by the command line, as long as each other (see above).
if [[ -n "${ODDSMITH_TENSION_SCENES:-}" ]]; then
    seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
    for r in $(seq 1 "$rounds"); do
        a=$(seconds "$CARGO_TARGET_DIR/baseline-$base/release/oddsmith" odds cgg.tension \
            --trials "$ODDSMITH_TENSION_SCENES")
        b=$(seconds "$CARGO_TARGET_DIR/release/oddsmith" odds cgg.tension edge.gives=none \
            --trials "$ODDSMITH_TENSION_SCENES")
        echo "$a $b"
    done | awk -v base="$base" -v n="$ODDSMITH_TENSION_SCENES" '
        { old[NR] = $1; new[NR] = $2; ratio[NR] = $1 / $2 }
        END {
            bo = old[1]; bn = new[1]
            for (i = 1; i <= NR; i++) { if (old[i] < bo) bo = old[i]; if (new[i] < bn) bn = new[i] }
            for (i = 2; i <= NR; i++)
                for (j = i; j > 1 && ratio[j - 1] > ratio[j]; j--) { t = ratio[j]; ratio[j] = ratio[j - 1]; ratio[j - 1] = t }
            printf "\n%s tension scenes, two threads: %s %.2f s, now (edge.gives=none) %.2f s (best of %d)\n", n, base, bo, bn, NR
            printf "gain: %.2f× best over best, %.2f× the median of each round'"'"'s own (%.2f–%.2f)\n", bo / bn, ratio[int((NR + 1) / 2)], ratio[1], ratio[NR]
        }'
fi
