//! Every game value gamut prints reads back as a literal: printing a value and reading the
//! text in a script gives the same game (the new user's defect of the memory issue: `^<2>`,
//! `Tiny(2)`, `v`, `±(1*)` and `2Tiny(2)` read only through `game("...")`).
mod common;
use common::{Rng, values};
use serde_json::json;

/// Random games built from atoms by options, sums, negatives and switches, as gamut source.
fn random_games(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut pool: Vec<String> = [
        "0",
        "*",
        "^",
        "1",
        "-1",
        "1/2",
        "-3/4",
        "*2",
        "^<2>",
        "Tiny(1)",
        "Miny(1/2)",
        "v[2]",
        "2 + *3",
        "2 + ^3",
        "-1 + ^<3>",
        "^^*",
        "{1 | -1}",
    ]
    .map(String::from)
    .to_vec();
    let mut out = vec![];
    while out.len() < count {
        let mut pick = || pool[rng.below(pool.len())].clone();
        let (a, b, c) = (pick(), pick(), pick());
        let g = match rng.below(7) {
            0 => format!("{{{a} | {b}}}"),
            1 => format!("{{{a}, {b} | {c}}}"),
            2 => format!("({a}) + ({b})"),
            3 => format!("-({a})"),
            4 => format!("±({a})"),
            5 => format!("{{{a} || {b} | {c}}}"),
            _ => format!("({a}) + Tiny({b})"),
        };
        // keep the games small enough to print in a line or two
        if g.len() < 200 {
            pool.push(g.clone());
            out.push(g);
        }
    }
    out
}

#[test]
fn printed_games_read_back_as_the_same_game() {
    let games = random_games(17, 400);
    let each: Vec<String> = games.iter().map(|g| format!("str({g})")).collect();
    let printed: Vec<String> = values(&format!("[{}]", each.join(", ")))
        .remove(0)
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(printed.len(), games.len());
    // each printed text, pasted as source, equals the game it was printed from
    let src: String = games
        .iter()
        .zip(&printed)
        .map(|(g, p)| format!("({p}) == ({g})\n"))
        .collect();
    for (i, v) in values(&src).into_iter().enumerate() {
        assert_eq!(v, json!(true), "{} printed as {}", games[i], printed[i]);
    }
}

#[test]
fn the_forms_the_issue_names_read_back() {
    let cases = [
        ("^<2>", "game(\"^<2>\")"),
        ("Tiny(2)", "game(\"Tiny(2)\")"),
        ("v", "game(\"v\")"),
        ("±(1*)", "game(\"±(1*)\")"),
        ("2Tiny(2)", "game(\"2Tiny(2)\")"),
        ("-1/2v*", "game(\"-1/2v*\")"),
        ("3/4v[3]*", "game(\"3/4v[3]*\")"),
        ("±1/2", "game(\"±1/2\")"),
        ("±{*,^}", "game(\"±{*,^}\")"),
        ("{^^*|*,v}", "game(\"{^^*|*,v}\")"),
        ("1+*3", "game(\"1*3\")"),
        ("2+^3", "game(\"2^3\")"),
    ];
    let src: String = cases
        .iter()
        .map(|(lit, g)| format!("[str({lit}), ({lit}) == {g}]\n"))
        .collect();
    for ((lit, _), v) in cases.iter().zip(values(&src)) {
        assert_eq!(v, json!([lit, true]), "{lit}");
    }
}

/// What the game words do not take from arithmetic and names.
#[test]
fn arithmetic_and_names_keep_their_meaning() {
    let got = values(
        "[2^3, 2*3, 6/3*2, 1/2^3, -2^2, 2^-1, 2 ^ 3]
         let v = 5
         [v, v*3, vv]",
    );
    assert_eq!(got[0], json!([8, 6, 4, "1/8", -4, "1/2", 8]));
    assert_eq!(got[1], json!([5, 15, "vv"]));
}
