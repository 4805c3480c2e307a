#!/bin/sh
# Konane and Toads-and-Frogs in cgt-tools (github.com/t4ccer/cgt-tools, a checkout outside this
# tree), the dedicated searches bench/rules-konane.game and bench/rules-toads-strings.game are
# timed against. Builds a small program on cgt's `Konane` and `ToadsAndFrogs` (canonical form
# with a transposition table, release without LTO) and prints the values of the same positions.
# Usage: CGT_SRC=/path/to/cgt-tools bench/rules-konane-cgt.sh [konane|tf] [POSITION ...]
# Prints the path of the program built, then one value per position.
set -eu
CGT_SRC=${CGT_SRC:?set CGT_SRC to a cgt-tools checkout}
OUT=${OUT:-/tmp/cgt-konane}
mkdir -p "$OUT/src"
cat >"$OUT/Cargo.toml" <<TOML
[package]
name = "cgt-konane"
version = "0.1.0"
edition = "2024"
[dependencies]
cgt = { path = "$CGT_SRC" }
[profile.release]
lto = false
TOML
cat >"$OUT/src/main.rs" <<'RS'
use cgt::short::partizan::{
    games::{konane::Konane, toads_and_frogs::ToadsAndFrogs},
    partizan_game::PartizanGame,
    transposition_table::ParallelTranspositionTable,
};
use std::str::FromStr;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    for p in &args[2..] {
        if args[1] == "konane" {
            let g: Konane = Konane::from_str(p).expect("a board such as xo.|.ox");
            println!("{}", g.canonical_form(&ParallelTranspositionTable::new()));
        } else {
            let g = ToadsAndFrogs::from_str(p).expect("a row such as TT..FF");
            println!("{}", g.canonical_form(&ParallelTranspositionTable::new()));
        }
    }
}
RS
cargo build --release --quiet --manifest-path "$OUT/Cargo.toml"
echo "$OUT/target/release/cgt-konane"
GAME=${1:-konane}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
    if [ "$GAME" = konane ]; then
        set -- "xoxox|o..xo|xoxox|oxoxo" "xoxox|o..xo|xoxox|oxoxo|xoxox"
    else
        set -- "TT.T..F.FF.F" "TTTT....FFFF"
    fi
fi
"$OUT/target/release/cgt-konane" "$GAME" "$@"
