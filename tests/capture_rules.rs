//! Capture and sliding games written by rules (examples/rules-clobber.game,
//! rules-elephants-rhinos.game, rules-toppling-dominoes.game, rules-toads-strings.game): each
//! rule as the example writes it, against the built-in engine or a brute force in this file.
mod common;
use common::{Rng, example_rule as rule, values};
use std::collections::HashMap;
use std::fmt::Write;

/// A position's Left and Right options, as strings.
type Moves = dyn Fn(&str) -> (Vec<String>, Vec<String>);

/// Every string of length `lo..=hi` over `alphabet`.
fn strings(alphabet: &[char], lo: usize, hi: usize) -> Vec<String> {
    let mut all = vec![];
    let mut layer = vec![String::new()];
    for len in 0..=hi {
        if len >= lo {
            all.extend(layer.iter().cloned());
        }
        layer = layer
            .iter()
            .flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{c}")))
            .collect();
    }
    all
}

/// Runs `src` and returns the strings among `items` for which it printed `false`, one
/// boolean per item in order.
fn mismatches(src: &str, items: &[String]) -> Vec<String> {
    let out = values(src);
    assert_eq!(out.len(), 1, "one list from the script");
    let flags = out[0].as_array().unwrap();
    assert_eq!(flags.len(), items.len());
    items
        .iter()
        .zip(flags)
        .filter(|(_, f)| f.as_bool() != Some(true))
        .map(|(s, _)| s.clone())
        .collect()
}

/// Game trees written out as gamut game literals: each position reached from the roots is
/// bound once (`let pK = {left options | right options}`), children first, so gamut's
/// canonical forms of plain literals check the rule engine's values.
struct Literals<'a> {
    moves: &'a Moves,
    names: HashMap<String, usize>,
    script: String,
}

impl Literals<'_> {
    fn name(&mut self, s: &str) -> usize {
        if let Some(&k) = self.names.get(s) {
            return k;
        }
        let (left, right) = (self.moves)(s);
        let side = |me: &mut Self, opts: Vec<String>| {
            let ks: Vec<String> = opts.iter().map(|o| format!("p{}", me.name(o))).collect();
            ks.join(", ")
        };
        let (l, r) = (side(self, left), side(self, right));
        let k = self.names.len();
        self.names.insert(s.to_string(), k);
        writeln!(self.script, "let p{k} = {{{l} | {r}}}").unwrap();
        k
    }
}

/// The script comparing `game`'s value of each position with its literal tree.
fn against_literals(rules: &str, game: &str, positions: &[String], moves: &Moves) -> Vec<String> {
    let mut lits = Literals {
        moves,
        names: HashMap::new(),
        script: String::new(),
    };
    let ks: Vec<usize> = positions.iter().map(|s| lits.name(s)).collect();
    let checks: Vec<String> = positions
        .iter()
        .zip(&ks)
        .map(|(s, k)| format!("value({game}({s:?})) == value(p{k})"))
        .collect();
    let src = format!("{rules}\n{}[{}]", lits.script, checks.join(", "));
    mismatches(&src, positions)
}

/// Elephants and Rhinos: E steps right, R steps left, into an empty cell.
fn er_moves(s: &str) -> (Vec<String>, Vec<String>) {
    let b = s.as_bytes();
    let swap = |i: usize| {
        let mut t = b.to_vec();
        t.swap(i, i + 1);
        String::from_utf8(t).unwrap()
    };
    let pairs = || (0..b.len().saturating_sub(1)).map(|i| (i, b[i], b[i + 1]));
    let left = pairs()
        .filter(|&(_, x, y)| (x, y) == (b'E', b'.'))
        .map(|(i, ..)| swap(i));
    let right = pairs()
        .filter(|&(_, x, y)| (x, y) == (b'.', b'R'))
        .map(|(i, ..)| swap(i));
    (left.collect(), right.collect())
}

/// Toppling Dominoes: a player topples a domino of their colour or green, which takes every
/// domino on the side it falls to.
fn td_moves(s: &str) -> (Vec<String>, Vec<String>) {
    let side = |not: char| {
        let mut v = vec![];
        for (i, c) in s.char_indices() {
            if c != not {
                v.push(s[..i].to_string());
                v.push(s[i + 1..].to_string());
            }
        }
        v
    };
    (side('R'), side('L'))
}

/// The outcome class by plain minimax, not through values: "L", "R", "P" or "N".
fn outcome(s: &str, moves: &Moves) -> &'static str {
    fn wins(s: &str, left: bool, moves: &Moves, memo: &mut HashMap<(String, bool), bool>) -> bool {
        if let Some(&w) = memo.get(&(s.to_string(), left)) {
            return w;
        }
        let (l, r) = moves(s);
        let opts = if left { l } else { r };
        let w = opts.iter().any(|o| !wins(o, !left, moves, memo));
        memo.insert((s.to_string(), left), w);
        w
    }
    let mut memo = HashMap::new();
    match (
        wins(s, true, moves, &mut memo),
        wins(s, false, moves, &mut memo),
    ) {
        (true, false) => "L",
        (false, true) => "R",
        (false, false) => "P",
        (true, true) => "N",
    }
}

fn outcomes_agree(rules: &str, game: &str, positions: &[String], moves: &Moves) -> Vec<String> {
    let checks: Vec<String> = positions
        .iter()
        .map(|s| format!("outcome({game}({s:?})) == {:?}", outcome(s, moves)))
        .collect();
    mismatches(&format!("{rules}\n[{}]", checks.join(", ")), positions)
}

#[test]
fn elephants_rhinos_against_brute_force() {
    let rules = rule("rules-elephants-rhinos.game", "er");
    let rows = strings(&['E', 'R', '.'], 1, 6);
    assert_eq!(
        against_literals(&rules, "er", &rows, &er_moves),
        Vec::<String>::new()
    );
    assert_eq!(
        outcomes_agree(&rules, "er", &rows, &er_moves),
        Vec::<String>::new()
    );
}

#[test]
fn toppling_dominoes_against_brute_force_and_published_values() {
    let rules = rule("rules-toppling-dominoes.game", "td");
    let rows = strings(&['L', 'R', 'G'], 1, 6);
    assert_eq!(
        against_literals(&rules, "td", &rows, &td_moves),
        Vec::<String>::new()
    );
    assert_eq!(
        outcomes_agree(&rules, "td", &rows, &td_moves),
        Vec::<String>::new()
    );
    // Lessons in Play: n blue dominoes are n, n red ones -n, n green ones the nimber *n.
    let src = format!(
        "{rules}\n[[value(td(\"L\" * n)) == n, value(td(\"R\" * n)) == -n, value(td(\"G\" * n)) == value(nim(n))] for n in 0..9]"
    );
    assert_eq!(
        values(&src)[0],
        serde_json::to_value(vec![[true; 3]; 10]).unwrap()
    );
}

/// A wrong rule (elephants that also step two cells) must be caught by the same comparison,
/// so the checks above can fail.
#[test]
fn a_wrong_rule_is_caught() {
    let wrong = rule("rules-elephants-rhinos.game", "er").replacen(
        "    right move",
        "    left move s[:i] + \"..E\" + s[i+3:] for i in 0..len(s)-3 if s[i:i+3] == \"E..\"\n    right move",
        1,
    );
    let rows = strings(&['E', 'R', '.'], 3, 4);
    assert!(!against_literals(&wrong, "er", &rows, &er_moves).is_empty());
    assert!(!outcomes_agree(&wrong, "er", &rows, &er_moves).is_empty());
}

#[test]
fn clobber_rules_against_builtin() {
    let rules = rule("rules-clobber.game", "clob") + "\n" + &rule("rules-clobber.game", "clobrow");
    // Every row of up to 7 cells by the string rule, and by the board rule.
    let rows = strings(&['x', 'o', '.'], 1, 7);
    let src = |game: &dyn Fn(&String) -> String| {
        let checks: Vec<String> = rows
            .iter()
            .map(|r| format!("value({}) == value(clobber({r:?}))", game(r)))
            .collect();
        format!("{rules}\n[{}]", checks.join(", "))
    };
    let row = |r: &String| format!("clobrow({r:?})");
    assert_eq!(mismatches(&src(&row), &rows), Vec::<String>::new());
    let board = |r: &String| format!("clob(grid(1, {}), {r:?})", r.len());
    assert_eq!(mismatches(&src(&board), &rows), Vec::<String>::new());
    // Random 3 x 3 and 2 x 4 boards by the board rule.
    let mut rng = Rng(0xc1ab);
    let boards: Vec<String> = (0..120)
        .map(|k| {
            let (m, n) = if k % 2 == 0 { (3, 3) } else { (2, 4) };
            (0..m)
                .map(|_| {
                    (0..n)
                        .map(|_| ['x', 'o', '.'][rng.below(3)])
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    let checks: Vec<String> = boards
        .iter()
        .map(|b| {
            let (m, n) = (b.split('|').count(), b.find('|').unwrap());
            format!("value(clob(grid({m}, {n}), {b:?})) == value(clobber({b:?}))")
        })
        .collect();
    let src = format!("{rules}\n[{}]", checks.join(", "));
    assert_eq!(mismatches(&src, &boards), Vec::<String>::new());
}

#[test]
fn toads_frogs_over_strings_against_builtin() {
    let rules = rule("rules-toads-strings.game", "tf");
    // The issue's own check, then every row of up to 7 cells.
    let src = format!("{rules}\nvalue(tf(\"TTT..FF\")) == value(toads_frogs(\"TTT..FF\"))");
    assert_eq!(values(&src)[0], serde_json::json!(true));
    let rows = strings(&['T', 'F', '.'], 1, 7);
    let checks: Vec<String> = rows
        .iter()
        .map(|r| format!("value(tf({r:?})) == value(toads_frogs({r:?}))"))
        .collect();
    let src = format!("{rules}\n[{}]", checks.join(", "));
    assert_eq!(mismatches(&src, &rows), Vec::<String>::new());
}
