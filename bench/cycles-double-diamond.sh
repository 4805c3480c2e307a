#!/bin/sh
# The Game of Cycles on double_diamond(k): outcome, time (wall and CPU) and table size for
# k = 0..$CYCLES_KMAX, for each pair of outer edges (or only $CYCLES_OUTER: ad/cf, ab/cb, de/fe),
# stopped after $CYCLES_SECONDS (default 600: the 10-minute run).
# usage: bench/cycles-double-diamond.sh            (from the repository root)
set -e
export CYCLES_KMAX="${CYCLES_KMAX:-14}"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo test --release --test engine_cycles --no-run
timeout "${CYCLES_SECONDS:-600}" env CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" \
  cargo test --release --test engine_cycles -- --ignored --nocapture bench_double_diamond_k \
  | grep -E 'double_diamond'
