#!/bin/sh
# Timed runs of the placement engine: sh bench/placement-run.sh "queens 11" "grid 3 16" ...
# Specs: "queens N" (the nimber, checked against OEIS A344227 and Rudd's a(14..16)),
# "queens N MB" (the same under a memory budget of MB megabytes: the table gets a quarter),
# "queens-outcome N", "grid M N" (Node-Kayles), "table PIECES M N".
# The issue-22 runs: sh bench/placement-run.sh "queens 13" "queens 14" "queens 13 64" "queens 15"
# (niced: nice -n 5 sh bench/placement-run.sh ...).
# Each argument is one run (see bench_one in tests/engine_placement.rs).
set -e
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo test --release --test engine_placement --no-run
for spec in "$@"; do
    GAMUT_BENCH="$spec" /usr/bin/time -f "  wall %es, CPU %Us user + %Ss sys, max RSS %M KB" \
        cargo test -q --release --test engine_placement bench_one -- --ignored --nocapture 2>&1 |
        grep -E "RESULT|wall"
done
