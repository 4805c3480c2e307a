#!/usr/bin/env bash
# Rules by the interpreter against the same memoised CPython program, side by side
# (docs/benchmarks.md, "Rules over integers"). Run from the project root after
# `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 bench/rules-grundy.py
target/release/gamut run bench/rules-grundy.game
farm-bench -n 5 --timeout 600 --vs 'python3 bench/rules-grundy.py' -- target/release/gamut run bench/rules-grundy.game
