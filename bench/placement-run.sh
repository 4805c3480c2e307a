#!/bin/sh
# Timed runs of the placement engine through the product itself: each spec is one
# `gamut -e '...'` process (its parallel engine, its thread pool, its memory budget).
#   sh bench/placement-run.sh "queens 11" "grid 3 16" ...
# Specs: "queens N" (the nimber, checked against OEIS A344227 and Rudd's a(14..16)),
# "queens N MB" (the same under a memory budget of MB megabytes: the table gets a quarter),
# "queens-outcome N", "grid M N" (Node-Kayles), "table PIECES M N" (PIECES as the tests name
# them: Knights, BishopsKnights, ...).
# The issue-22 runs: sh bench/placement-run.sh "queens 13" "queens 14" "queens 13 64"
# and, niced in the background, nice -n 5 sh bench/placement-run.sh "queens 15" "queens 16".
set -e
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --release
gamut=$CARGO_TARGET_DIR/release/gamut
# a(1..13) from A344227, a(14..16) from T. Rudd's queens-nimbers
queens_values="1 1 2 1 3 1 2 3 1 0 1 0 1 0 1 0"
for spec in "$@"; do
    set -- $spec
    memory=""
    want=""
    case $1 in
    queens)
        expr="grundy(placement(grid($2, $2), [queen]))"
        want=$(echo $queens_values | cut -d' ' -f"$2")
        [ -n "$3" ] && memory="--memory ${3}M"
        ;;
    queens-outcome) expr="outcome(placement(grid($2, $2), [queen]))" ;;
    grid) expr="grundy(placement(grid($2, $3), [wazir]))" ;;
    table)
        # BishopsKnights -> bishop, knight
        pieces=$(echo "$2" | sed 's/\([A-Z][a-z]*\)s/\1, /g; s/, $//' | tr 'A-Z' 'a-z')
        expr="grundy(placement(grid($3, $4), [$pieces]))"
        ;;
    *)
        echo "unknown spec: $spec" >&2
        exit 2
        ;;
    esac
    out=$(/usr/bin/time -f "wall %es, CPU %Us user + %Ss sys, max RSS %M KB" \
        $gamut $memory -e "$expr" 2>/tmp/placement-run.$$) || { cat /tmp/placement-run.$$; exit 1; }
    echo "RESULT $spec: $out ($(tail -n 1 /tmp/placement-run.$$)), load $(cut -d' ' -f1-3 /proc/loadavg)"
    rm -f /tmp/placement-run.$$
    if [ -n "$want" ] && [ "$out" != "$want" ]; then
        echo "  WRONG: queens $2 should be $want" >&2
        exit 1
    fi
done
