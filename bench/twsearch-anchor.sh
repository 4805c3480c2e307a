#!/bin/sh
# gamut's diameter(...) against twsearch's God's-algorithm search (`twsearch -q -g`) on two
# standard puzzles, the same full breadth-first search in the same quarter-turn metric:
# the 3 x 4 Loopover (bench/loopover-3x4.game, 12! positions) and the 2 x 2 x 2 cube on its
# 24 stickers with one corner fixed (bench/cube-2x2x2.game, 3,674,160 positions).
#
# Usage: bench/twsearch-anchor.sh SCRATCH [RUNS]
# SCRATCH is a folder outside the repository; the anchor is Rokicki's twsearch, the C++
# program of cubing/twsearch at 0a8bfb07dd1f389cedd4bd957519f09c5926d547 (the parent of
# d7042aa, which removed the C++ sources), built there by hand beforehand as
# SCRATCH/twsearch/build/bin/twsearch (or give its path as TWSEARCH). This script does not
# fetch or build it. Runs alternate gamut, twsearch, gamut, ... RUNS times each (default 3)
# and print wall, CPU and peak RSS of each run, the medians and the ratios gamut / twsearch.
# twsearch options: -q counts a move and its inverse as one move each (gamut's metric), -t 2
# two threads (its default on 2 cores); -F on the cube, where the 24 distinct stickers give
# a state space of 24! (log2 79 > 50) and twsearch would otherwise enumerate canonical move
# sequences instead of searching breadth-first. On the Loopover (12!, log2 28.8) it uses its
# 2-bit array, which is single-threaded (-F there, sorting on 2 threads, was slower: depth 9
# after 171 s, 8.4 GB; -H is refused by -g).
set -e
[ -n "$1" ] || { echo "usage: $0 SCRATCH [RUNS]" >&2; exit 2; }
SCRATCH=$(mkdir -p "$1" && cd "$1" && pwd)
RUNS=${2:-3}
REPO=$(cd "$(dirname "$0")/.." && pwd)
TW=${TWSEARCH:-$SCRATCH/twsearch/build/bin/twsearch}
[ -x "$TW" ] || { echo "no twsearch binary at $TW (see the comment at the top)" >&2; exit 1; }
(cd "$REPO" && cargo build -q --release)
G=${CARGO_TARGET_DIR:-$REPO/target}/release/gamut
cd "$SCRATCH"

# The .tws files, written by gamut's export from the puzzles' own definitions.
tws() { # bench file, group name
  { grep -E '^(board|gen|group) ' "$REPO/bench/$1.game"; echo "export($2, \"$1.tws\")"; } > "$1-export.game"
  "$G" run "$1-export.game"
}
tws loopover-3x4 loopover34
tws cube-2x2x2 cube2

T='%e %U %S %M'
one() { # label, log, command...
  l=$1; f=$2; shift 2
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o time.tmp -f "$T" "$@" > "$f" 2>&1
  set -- $(cat time.tmp)
  cpu=$(echo "$2 + $3" | bc)
  echo "$l $1 $cpu $4 $load" >> times.txt
  printf '%-10s %8s s wall %8s s cpu %8s KB peak  (load %s)\n' "$l" "$1" "$cpu" "$4" "$load"
}
median() { # label, column
  grep "^$1 " times.txt | awk -v c="$2" '{print $c}' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
}
dist() { # gamut log or twsearch log: the counts by distance, one line
  if grep -q '^distribution' "$1"; then grep '^distribution' "$1" | tr -d '[]_,' | cut -d' ' -f2-
  else grep '^Dist ' "$1" | awk '$4 > 0 {printf "%s ", $4} END {print ""}' | sed 's/ $//'; fi
}
: > times.txt
for p in "loopover-3x4 -t 2" "cube-2x2x2 -F -t 2"; do
  set -- $p; puz=$1; shift; opts="$*"
  echo "== $puz: gamut run bench/$puz.game, then twsearch -q $opts -g $puz.tws"
  i=1
  while [ $i -le "$RUNS" ]; do
    one "gamut-$puz" gamut-$puz.log "$G" run "$REPO/bench/$puz.game"
    one "tws-$puz" tws-$puz.log "$TW" -q $opts -g $puz.tws
    i=$((i + 1))
  done
  a=$(dist gamut-$puz.log); b=$(dist tws-$puz.log)
  echo "gamut:    $a"; echo "twsearch: $b"
  [ "$a" = "$b" ] && echo "distributions identical" || echo "DISTRIBUTIONS DIFFER"
  for c in 2 3 4; do
    ga=$(median "gamut-$puz" $c); tw=$(median "tws-$puz" $c)
    echo "median $(echo "wall cpu peak_KB" | cut -d' ' -f$((c - 1))): gamut $ga, twsearch $tw, ratio $(echo "scale=3; $ga / $tw" | bc)"
  done
done
