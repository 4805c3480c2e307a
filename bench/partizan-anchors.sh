#!/bin/sh
# Partizan canonical forms side by side with cgt-tools (docs/benchmarks.md, "Partizan games").
# Usage: sh bench/partizan-anchors.sh [CGT_ANCHOR]
# gamut: examples/partizan_bench.rs, one position per line, CPU milliseconds of its own thread.
# CGT_ANCHOR (optional): a binary built outside the repository around cgt-tools
# (t4ccer/cgt-tools) that reads the same lines (`dom`, `tf`) and prints
# position, canonical form and CPU milliseconds; its licence keeps it out of gamut.
# Each position runs 5 times in a fresh store; the medians go in docs/benchmarks.md. The slow
# ones run once: Domineering 6×6 with gamut (about 2 minutes of CPU, 0.9 GB), 5×6 with
# cgt-tools (about 2 minutes; it does not finish 6×6 in reasonable time).
set -e
cargo build -q --release --example partizan_bench
positions='dom ....|....|....|....
dom ......|......|......
dom .....|.....|.....|.....
dom .....|.....|.....|.....|.....
dom ......|......|......|......|......
tf TTTT..FF
tf TTTTT...FFF
tf TTTTTT...FFFF
clobber xoxox|oxoxo|xoxox
clobber xoxoxo|oxoxox|xoxoxo
hack 20
hack 24
hack 30/3'
for run in 1 2 3 4 5; do
    printf '%s\n' "$positions" | target/release/examples/partizan_bench | sed "s/^/gamut\t/"
    if [ -n "$1" ]; then
        printf '%s\n' "$positions" | grep -E '^(dom|tf) ' | grep -vxF 'dom ......|......|......|......|......' | "$1" |
            sed "s/^/cgt-tools\t/"
    fi
done
echo 'dom ......|......|......|......|......|......' | target/release/examples/partizan_bench |
    sed "s/^/gamut\t/"
if [ -n "$1" ]; then
    echo 'dom ......|......|......|......|......' | "$1" | sed "s/^/cgt-tools\t/"
fi
