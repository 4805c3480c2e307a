#!/bin/sh
# Conjecture 4.3 of the thesis checked for every tree with 2..$CYCLES_TREES edges (default 16)
# and every markable edge marked, stopped after $CYCLES_SECONDS (default 600).
# usage: bench/cycles-conjecture.sh                (from the repository root)
set -e
export CYCLES_TREES="${CYCLES_TREES:-16}"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo test --release --test engine_cycles --no-run
timeout "${CYCLES_SECONDS:-600}" env CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" \
  cargo test --release --test engine_cycles -- --ignored --nocapture bench_conjecture_4_3 \
  | grep -E 'trees with|COUNTER'
