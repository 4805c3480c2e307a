#!/bin/sh
# Blue-Red Hackenbush on graphs with cycles (docs/benchmarks.md, "Blue-Red Hackenbush on
# graphs"): ladders of squares on the ground and random graphs (n edges on n/2 + 1 vertices),
# CPU milliseconds of examples/hackenbush_bench's own thread, a fresh search per picture.
# Usage: sh bench/hackenbush-graphs.sh [runs]
set -e
cargo build -q --release --example hackenbush_bench
pictures='ladder 20
ladder 24
ladder 30
random 26 1
random 26 2'
for run in $(seq "${1:-3}"); do
    printf '%s\n' "$pictures" | target/release/examples/hackenbush_bench
done
