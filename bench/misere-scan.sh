#!/bin/sh
# Scans the two- and three-digit octal games 0.d1d2 and 0.d1d2d3 (last digit nonzero): the size
# of the misère quotient of heaps 1..40 and the heap from which it no longer changed
# (docs/misere-results.md, "Scan of two- and three-digit octal games"). Each game gets
# $TIME seconds (default 20), $MEM of memory (default 1G) and candidates of at most $MAX
# elements (default 4096); DIGITS=2 or DIGITS=3 scans only the two- or three-digit games, and
# FROM=0.024 (say) starts at that code (a scan resumed). GAMUT=/path/to/gamut runs that binary
# instead of building one (so a long scan is not disturbed by rebuilds); CODES="0.261 0.732"
# scans only those codes.
# Prints a Markdown table row per game.
set -e
cd "$(dirname "$0")/.."
if [ -z "$GAMUT" ]; then
    cargo build --release -q
    GAMUT=target/release/gamut
fi
TIME=${TIME:-20}
MEM=${MEM:-1G}
MAX=${MAX:-4096}
DIGITS=${DIGITS:-23}
codes() {
    case $DIGITS in *2*)
        for a in 0 1 2 3 4 5 6 7; do for b in 1 2 3 4 5 6 7; do echo "0.$a$b"; done; done
    esac
    case $DIGITS in *3*) ;; *) return ;; esac
    for a in 0 1 2 3 4 5 6 7; do for b in 0 1 2 3 4 5 6 7; do for c in 1 2 3 4 5 6 7; do
        echo "0.$a$b$c"
    done; done; done
}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
echo "| code | size | stable_from |"
echo "|---|---|---|"
for code in ${CODES:-$(codes | sed -n "/^${FROM:-0\.}/,\$p")}; do
    out=$(timeout "$TIME" "$GAMUT" --memory "$MEM" -e \
        "let q = quotient(octal(\"$code\"), heaps: 40, max_size: $MAX)
print(q.size)
print(q.stable_from)" 2>"$err") && status=0 || status=$?
    if [ "$status" = 0 ]; then
        size=$(echo "$out" | sed -n 1p)
        stable=$(echo "$out" | sed -n 2p)
        [ "$stable" = "none" ] && stable="not by 40"
        echo "| $code | $size | $stable |"
    elif [ "$status" = 124 ]; then
        echo "| $code | | gave up: more than $TIME s |"
    else
        reason=$(sed -n '/×/,/╭/p' "$err" | sed '/╭/d; s/^ *[×│] *//' | tr '\n' ' ' | sed 's/ *$//')
        echo "| $code | | gave up: $reason |"
    fi
done
