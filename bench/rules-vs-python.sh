#!/usr/bin/env bash
# Rules compiled by gamut against the same memoised CPython programs, side by side
# (docs/benchmarks.md, "Rules over integers"): Grundy's game to 5,000 and Lasker's Nim to
# 2,000. Run from the project root after `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
for game in grundy lasker; do
    python3 "bench/rules-$game.py"
    target/release/gamut run "bench/rules-$game.game"
    farm-bench -n 5 --timeout 600 --vs "python3 bench/rules-$game.py" -- target/release/gamut run "bench/rules-$game.game"
done
