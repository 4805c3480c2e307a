#!/bin/sh
# Side by side: the thesis' own Python script (cut from the seed at run time, see
# bench/cycles-python.py) and the engine, on double_diamond(k) for k = 0, 1, 2.
# usage: bench/cycles-python.sh [seed path]        (from the repository root)
set -e
for k in 0 1 2; do python3 bench/cycles-python.py "$k" ${1:+"$1"}; done
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo test --release --test engine_cycles -- \
  --ignored --nocapture bench_python_side_by_side | grep -E 'engine'
