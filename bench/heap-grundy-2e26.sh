#!/bin/sh
# Grundy's game to 2^26 heaps (67 million): the largest value below every power of two and
# the heap where it first occurs, the engine time and the peak memory (issue 15).
cd "$(dirname "$0")/.." && cargo test -q --release --test heap_speed --no-run &&
  HEAP_LOG=${HEAP_LOG:-26} /usr/bin/time -v cargo test -q --release --test heap_speed -- \
    --ignored grundys_game_records --nocapture 2>&1 |
  grep -E '^\||engine time|Maximum resident|User time|Elapsed'
