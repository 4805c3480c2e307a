#!/bin/sh
# gamut on Cram by its rules (bench/rules-cram-RxC.game, which the rules compiler hands to the
# Cram engine) beside Beling's igs, the Rust impartial games solver of beling/impartial-games
# (its `igsolve cram ROWS COLS`, default settings: its pruning method br-asp-set and a hash map
# transposition table; its end database is off unless --edb_segments is given).
#
# Usage: bench/igs-cram.sh SCRATCH [RUNS]
# SCRATCH is a folder outside the repository holding a build of igsolve, made by hand
# beforehand as SCRATCH/igs/target/release/igsolve (or give its path as IGSOLVE):
#   git clone https://github.com/beling/impartial-games SCRATCH/igs   (tested at 07a34e6)
#   cd SCRATCH/igs && cargo update -p ph@0.11.0 --precise 0.10.0 && cargo build --release -p igsolve
# (the `cargo update` keeps its dependency csf 0.2.0-alpha.2 on the ph 0.10 it was written
# for; with ph 0.11 csf does not compile). This script does not fetch or build it.
# Runs alternate gamut, igsolve, ... RUNS times each (default 5); each line is wall, user and
# system seconds and peak RSS in KiB; the medians follow.
set -e
[ -n "$1" ] || { echo "usage: $0 SCRATCH [RUNS]" >&2; exit 2; }
SCRATCH=$(cd "$1" && pwd)
RUNS=${2:-5}
REPO=$(cd "$(dirname "$0")/.." && pwd)
IGS=${IGSOLVE:-$SCRATCH/igs/target/release/igsolve}
[ -x "$IGS" ] || { echo "no igsolve binary at $IGS (see the comment at the top)" >&2; exit 1; }
(cd "$REPO" && cargo build -q --release)
G=${CARGO_TARGET_DIR:-$REPO/target}/release/gamut
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for b in "5 5" "4 7" "5 6" "5 7" "6 6"; do
  set -- $b
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %U %S %M' -a -o "$SCRATCH/gamut-$1x$2.log" "$G" "$REPO/bench/rules-cram-$1x$2.game" >/dev/null
    /usr/bin/time -f '%e %U %S %M' -a -o "$SCRATCH/igs-$1x$2.log" "$IGS" cram "$1" "$2" >/dev/null
  done
  for who in gamut igs; do
    f="$SCRATCH/$who-$1x$2.log"
    echo "Cram $1 x $2, $who: CPU $(awk '{print $2 + $3}' "$f" | median) s, wall $(awk '{print $1}' "$f" | median) s, peak $(awk '{print $4}' "$f" | median) KiB"
    rm "$f"
  done
done
