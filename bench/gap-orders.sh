#!/bin/sh
# Orders of permutation groups, gamut against GAP (Debian package gap) on the same generators:
# the puzzle groups of bench/puzzles.py (cubes 3, 4, 5, 7 and the Megaminx, on their moving
# stickers; Rubik's Slide groups up to 17 x 17), symmetric and alternating groups by two
# generators, and random groups of degree 50-300: primitive (pairs*, power*), imprimitive
# (wreath*; S_a x S_b on blocks, diagonal*by*; even elements of wreath products, even*; an
# iterated wreath product, iterated*) and intransitive (diagonal3x40, product*, blocks*).
#
# Usage: bench/gap-orders.sh SCRATCH [RUNS] [NAME ...]
# SCRATCH is a folder outside the repository. For each group, gamut's whole process
# (`gamut order-NAME.game`) is timed by /usr/bin/time, RUNS runs (default 3), the median of
# the CPU seconds (user + system); GAP's own Runtime() (CPU) around Size(Group(generators)) is read inside one GAP
# session, RUNS times on a fresh group each (GAP's start-up, about a second, is left out in
# GAP's favour; a GAP session has 30 minutes). The orders printed by both must be equal; a
# line per group gives the medians and the ratio gamut / GAP.
set -e
[ -n "$1" ] || { echo "usage: $0 SCRATCH [RUNS] [NAME ...]" >&2; exit 2; }
SCRATCH=$(mkdir -p "$1" && cd "$1" && pwd)
RUNS=${2:-3}
[ $# -ge 2 ] && shift 2 || shift 1
REPO=$(cd "$(dirname "$0")/.." && pwd)
(cd "$REPO" && cargo build -q --release)
G=${CARGO_TARGET_DIR:-$REPO/target}/release/gamut
python3 "$REPO/bench/puzzles.py" "$SCRATCH" --more
NAMES=${*:-"cube3 cube4 megaminx cube5 cube7 slide4hard slide6hard slide10hard slide17hard sym50 sym100 alt101 wreath5x20 diagonal3x40 product30x5 pairs12 pairs20 pairs24 power8 power12 power17 wreath5by10 wreath4by25 wreath10by10 wreath3by60 wreath6by50 wreath2by150 blocks20_30 blocks25_25_25_25 blocks40_60_80 blocks10_20_30_40_50_60 blocks30_30_30_30_30_30 diagonal10by20 diagonal6by50 even4by50 even2by100 iterated3by4by10"}
cd "$SCRATCH"
printf '| group | degree | order | gamut CPU s (median) | GAP Size CPU ms (median) | gamut / GAP |\n|---|---|---|---|---|---|\n'
for n in $NAMES; do
    printf 'use "./%s.game"\norder(%s)\n' "$n" "$n" > "order-$n.game"
    rm -f "cpu-$n.txt"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%U %S' -o "time-$n.txt" "$G" "order-$n.game" > "gamut-$n.out" 2> /dev/null
        awk '{ print $1 + $2 }' "time-$n.txt" >> "cpu-$n.txt"
    done
    ours=$(tail -n 1 "gamut-$n.out" | tr -d '_')
    cpu=$(sort -n "cpu-$n.txt" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    cat > "gap-$n.g" <<EOF
Read("$n.g");
times := [];;
for r in [1..$RUNS] do
  H := Group(GeneratorsOfGroup($n));; t := Runtime();; s := Size(H);; Add(times, Runtime() - t);
od;
Sort(times);
PrintTo("gap-$n.out", s, "\n", times[QuoInt($RUNS + 1, 2)], "\n", LargestMovedPoint($n), "\n");
QUIT;
EOF
    timeout 1800 gap -q -o 8g "gap-$n.g" > /dev/null || { printf '| %s | | | %s | not done in 30 minutes | |\n' "$n" "$cpu"; continue; }
    theirs=$(head -n -2 "gap-$n.out" | tr -d '\\\n ')
    gms=$(tail -n 2 "gap-$n.out" | head -n 1)
    deg=$(tail -n 1 "gap-$n.out")
    [ "$ours" = "$theirs" ] || { echo "ORDERS DIFFER on $n: gamut $ours, GAP $theirs" >&2; exit 1; }
    ratio=$(awk -v a="$cpu" -v b="$gms" 'BEGIN { if (b > 0) printf "%.2f", a * 1000 / b; else print "-" }')
    short=$(echo "$ours" | awk '{ if (length($0) > 12) printf "%.4fe%d", substr($0,1,5)/10000, length($0)-1; else print }')
    printf '| %s | %s | %s | %s | %s | %s |\n' "$n" "$deg" "$short" "$cpu" "$gms" "$ratio"
done
