#!/bin/sh
# Values, times and node counts of empty Dots-and-Boxes boards, one process per board so that
# /usr/bin/time reports the CPU time and peak memory of each.
#   bench/dots-empty.sh 3x3 3x4        (default: the small boards)
#   DOTS_RETRO=1 bench/dots-empty.sh 3x3   also runs the retrograde reference (boards up to 31 lines: 3x4 needs 2 GB)
#   DOTS_PROGRESS=1 bench/dots-empty.sh 4x4   prints the null-window tests as they go (wall and cpu)
#   DOTS_TABLE_MB=8192 bench/dots-empty.sh 4x5   a larger table than the default 1 GB
#   DOTS_TABLE_FILE=t.bin DOTS_TABLE_MB=8192 bench/dots-empty.sh 4x5   starts from the table a
#       stopped run saved in t.bin (if there is one) and saves its own there every
#       DOTS_SAVE_MINUTES (default 10): a run longer than one sitting goes on where it stopped
#       (one board per file; the table may grow between sittings, not shrink)
set -e
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo test --release --test engine_dots --no-run 2>/dev/null
BIN=$(ls -t "$CARGO_TARGET_DIR"/release/deps/engine_dots-* | grep -v '\.d$' | head -1)
BOARDS="${*:-1x1 1x2 1x3 1x4 1x5 1x6 1x7 1x8 1x9 1x10 2x2 2x3 2x4 2x5 3x3}"
for b in $BOARDS; do
    DOTS_BOARDS=$b /usr/bin/time -f "   cpu %U s user + %S s sys, wall %e s, peak %M KB" \
        "$BIN" --ignored --nocapture --exact empty_boards_bench 2>&1 |
        grep -E "x [0-9]+:|retrograde|cpu|\[" || true
done
