#!/bin/sh
# gamut beside MCGS, the Minimax-based Combinatorial Game Solver of Folkersen, Müller and Du
# (University of Alberta, MIT licence, ACG 2025; github.com/ualberta-mueller-group/MCGS), on
# positions both state: Clobber on checkerboards (x in the top left corner), Cram and
# Domineering on empty boards. gamut answers `outcome(clobber(..))` and
# `outcome(domineering(r, c))` from canonical forms and `grundy` of Cram by its rules
# (bench/rules-cram.game's ruleset); MCGS solves the sum with Left (B) and then Right (W)
# moving first, or asks the nim value ({N}) of `[impartial domineering]`.
#
# Usage: bench/mcgs.sh SCRATCH [RUNS] [CASE ...]
# SCRATCH is a folder outside the repository. On first use the script clones MCGS there (a bare
# clone of $MCGS_GIT, by default the GitHub repository; a local clone's path works too) and
# builds it with `make DEBUG=0 MCGS` (g++ and make; about 5 minutes of CPU) at $MCGS_REV,
# default v1.5: later releases build with CMake 4.2 and need the cgt_lib submodule. MCGS runs
# with its defaults: no database file (none is shipped), transposition tables of 2^28 and 2^26
# entries, allocated at start (about 1.7 GB). A CASE is FAMILY:RxC with FAMILY clobber, cram or
# domineering (default: the table in docs/benchmarks.md, "MCGS side by side").
# GAMUT=path times that gamut binary (default: this checkout, built first).
# Runs alternate gamut, MCGS, ... RUNS times each (default 3). Each row: both answers (the
# outcome class N, P, L, R, or the nim value for Cram) and whether they agree, the median CPU
# seconds (user + system) of each whole process, their ratio gamut/MCGS, and MCGS's own search
# time (the sum of its `Time (ms)` lines, wall clock, without the start-up).
set -e
[ -n "$1" ] || { echo "usage: $0 SCRATCH [RUNS] [CASE ...]" >&2; exit 2; }
mkdir -p "$1"
SCRATCH=$(cd "$1" && pwd)
RUNS=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
CASES=${*:-clobber:2x6 clobber:2x8 clobber:3x4 clobber:3x5 clobber:4x4 clobber:3x6
  cram:4x5 cram:5x5 cram:4x7 domineering:4x4 domineering:5x5 domineering:5x6}
REPO=$(cd "$(dirname "$0")/.." && pwd)
M=$SCRATCH/mcgs/MCGS
if [ ! -x "$M" ]; then
  [ -d "$SCRATCH/mcgs.git" ] ||
    git clone -q --bare "${MCGS_GIT:-https://github.com/ualberta-mueller-group/MCGS}" "$SCRATCH/mcgs.git"
  mkdir -p "$SCRATCH/mcgs"
  git -C "$SCRATCH/mcgs.git" archive "${MCGS_REV:-v1.5}" makefile src | tar -x -C "$SCRATCH/mcgs"
  make -s -C "$SCRATCH/mcgs" -j2 DEBUG=0 MCGS >"$SCRATCH/mcgs-build.log" 2>&1 ||
    { echo "building MCGS failed: see $SCRATCH/mcgs-build.log" >&2; exit 1; }
fi
G=${GAMUT:-${CARGO_TARGET_DIR:-$REPO/target}/release/gamut}
[ -n "$GAMUT" ] || (cd "$REPO" && cargo build -q --release)
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# board R C FILL: R rows of C cells; FILL "xo" makes a checkerboard, "." an empty board.
board() {
  awk -v r="$1" -v c="$2" -v f="$3" 'BEGIN {
    for (i = 0; i < r; i++) { s = s (i ? "|" : "")
      for (j = 0; j < c; j++) s = s substr(f, (i + j) % length(f) + 1, 1) }
    print s }'
}
printf '%-16s %-6s %-6s %-6s %10s %10s %8s %12s\n' case gamut MCGS agree "gamut CPU" "MCGS CPU" ratio "MCGS search"
for case in $CASES; do
  fam=${case%%:*}; r=${case#*:}; r=${r%x*}; c=${case#*x}
  src=$SCRATCH/case.game
  case $fam in
    clobber)
      b=$(board "$r" "$c" xo)
      echo "outcome(clobber(\"$b\"))" >"$src"
      in="[clobber] $(echo "$b" | tr xo XO) {B, W}" ;;
    domineering)
      echo "outcome(domineering($r, $c))" >"$src"
      in="[domineering] $(board "$r" "$c" .) {B, W}" ;;
    cram)
      { sed -n '/^game cram/,/^}/p' "$REPO/bench/rules-cram.game"; echo "grundy(cram(grid($r, $c)))"; } >"$src"
      in="[impartial domineering] $(board "$r" "$c" .) {N}" ;;
    *) echo "unknown case $case (FAMILY:RxC, FAMILY clobber, cram or domineering)" >&2; exit 2 ;;
  esac
  rm -f "$SCRATCH/g.time" "$SCRATCH/m.time" "$SCRATCH/m.search"
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %U %S %M' -a -o "$SCRATCH/g.time" "$G" "$src" >"$SCRATCH/g.out" 2>/dev/null
    /usr/bin/time -f '%e %U %S %M' -a -o "$SCRATCH/m.time" "$M" --no-use-db "$in" >"$SCRATCH/m.out" 2>&1
    awk '/^Time \(ms\)/ {s += $3} END {print s / 1000}' "$SCRATCH/m.out" >>"$SCRATCH/m.search"
  done
  ga=$(tail -n 1 "$SCRATCH/g.out")
  ma=$(awk '/^Got:/ {g[++n] = $2} END {
    if (n == 1) print g[1]
    else if (n == 2) print (g[1] == "Win" ? (g[2] == "Win" ? "N" : "L") : (g[2] == "Win" ? "R" : "P"))
    else print "?" }' "$SCRATCH/m.out")
  [ "$ga" = "$ma" ] && agree=yes || agree=NO
  gc=$(awk '{print $2 + $3}' "$SCRATCH/g.time" | median)
  mc=$(awk '{print $2 + $3}' "$SCRATCH/m.time" | median)
  printf '%-16s %-6s %-6s %-6s %9.2fs %9.2fs %8.3f %11.2fs\n' "$fam ${r}x$c" "$ga" "$ma" "$agree" \
    "$gc" "$mc" "$(awk -v a="$gc" -v b="$mc" 'BEGIN {print (b > 0 ? a / b : 0)}')" "$(median <"$SCRATCH/m.search")"
done
