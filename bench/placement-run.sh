#!/bin/sh
# Timed runs of the placement engine: sh bench/placement-run.sh "queens 11" "grid 3 16" ...
# Each argument is one run (see bench_one in tests/engine_placement.rs).
set -e
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo test --release --test engine_placement --no-run
for spec in "$@"; do
    GAMUT_BENCH="$spec" /usr/bin/time -f "  wall %es, max RSS %M KB" \
        cargo test -q --release --test engine_placement bench_one -- --ignored --nocapture 2>&1 |
        grep -E "RESULT|wall"
done
