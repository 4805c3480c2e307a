#!/bin/sh
# Heap games against the two anchors of issue 15 (docs/benchmarks.md, "Heap games (issue 15)").
# Builds Czajka's C++ analyzer (tczajka/octal-games, old/src/analyze_exec.cc, g++ -O3, with its
# heap bound made a -D option) and Beling's ogsolve (beling/impartial-games, cargo --release
# with target-cpu=native as its README says) in $SCRATCH, outside the repository, then times
# each pair with /usr/bin/time. gamut runs through its engine test (tests/heap_speed.rs,
# bench_code and grundys_game_records), which times the engine alone and prints the
# checksum ogsolve prints.
set -e
SCRATCH=${SCRATCH:-/tmp/heap-anchors}
REPO=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$SCRATCH" && cd "$SCRATCH"
[ -d octal-games ] || git clone -q https://github.com/tczajka/octal-games
[ -d impartial-games ] || git clone -q https://github.com/beling/impartial-games
sed -i 's/^constexpr uint64_t maxn = 1<<28;.*/#ifndef MAXN\n#define MAXN (1ull<<28)\n#endif\nconstexpr uint64_t maxn = MAXN;/' octal-games/old/src/analyze_exec.cc
for k in 20 21 24; do
  [ -x czajka_$k ] || g++ -O3 -std=c++11 -march=native -Ioctal-games/old/src \
    -DMAXN="(1ull<<$k)" octal-games/old/src/analyze_exec.cc octal-games/old/src/game.cc \
    octal-games/old/src/hadamard.cc -o czajka_$k
done
(cd impartial-games && RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$SCRATCH/ogs-target" cargo build -q --release -p ogsolve)
O="$SCRATCH/ogs-target/release/ogsolve"
(cd "$REPO" && cargo test -q --release --test heap_speed --no-run)
G=$(ls -t "$REPO"/target/release/deps/heap_speed-* | grep -v '\.d$' | head -1)
T="/usr/bin/time -f %U+%S_s_cpu_%e_s_wall_%M_KB"
pair() { # code, last heap, ogsolve method
  echo "== $1 to $2: gamut, then ogsolve -m $3"
  $T env HEAP_CODE=$1 HEAP_N=$2 "$G" --ignored bench_code --nocapture 2>&1 | grep -E "checksum|wall"
  $T "$O" "$1" -n "$2" -m "$3" 2>&1 | grep -E "checksum|wall"
}
pair 0.106 1000000 rc2
pair 4.07 1000000 rc2
pair 0.77 1000000 rc2
pair 0.16 1000000 rc
pair 0.644 1000000 rc
pair 0.07 50000 naive
pair 0.137 50000 naive
pair 0.007 50000 naive
pair 0.07 200000 naive
for k in 20 21; do
  echo "== Grundy's game, heaps below 2^$k: gamut, then Czajka"
  $T env HEAP_LOG=$k "$G" --ignored grundys_game_records --nocapture 2>&1 | grep -E "2\^$k |wall"
  $T ./czajka_$k grundy 2>&1 | grep -E "n=2\^$k |wall"
done
