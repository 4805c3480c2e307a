#!/bin/sh
# Times quotient(octal("0.07"), heaps: 30) (docs/benchmarks.md, "Misère quotients").
set -e
cd "$(dirname "$0")/.."
cargo build --release -q
/usr/bin/time -f "%e s, %M KB" target/release/gamut bench/misere-quotient.game
