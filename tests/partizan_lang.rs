//! Partizan games in the language: values in CGSuite's notation (text and `--json` strings),
//! game literals, arithmetic and order, thermography, the built-in rulesets against published
//! values and cgt-tools, and `left move` / `right move` rules against the built-ins.
mod common;
use common::{Rng, run_e, value, values};
use serde_json::json;

fn strings(src: &str) -> Vec<String> {
    values(src)
        .into_iter()
        .map(|v| match v {
            serde_json::Value::String(s) => s,
            other => panic!("{src}: {other} is not a string"),
        })
        .collect()
}

/// CGSuite's notation for the special values, and literals that print back as written
/// (CGSuite's documentation, "Canonical forms").
#[test]
fn notation_of_values() {
    let cases = [
        ("{1 | -1}", "±1"),
        ("±1", "±1"),
        ("{1 | *}", "{1|*}"),
        ("{2|1/2||-1}", "{2|1/2||-1}"),
        ("{0, * | 0}", "^*"),
        ("^ + *", "^*"),
        ("^ + ^", "^^"),
        ("^ + ^ + ^", "^3"),
        ("-^", "v"),
        ("*2 + *3", "*"),
        ("{0 | 0}", "*"),
        ("{0 |}", "1"),
        ("{|}", "0"),
        ("{0 | 1}", "1/2"),
        ("{1/2 | 1}", "3/4"),
        ("{-1 | }", "0"),
        ("game(\"1/2\") + game(\"1/2\")", "1"),
        ("{0 | ^*}", "^^"),
        ("value(kayles(5))", "*4"),
        ("game(7)", "7"),
        ("{2^70/2^68 | 0}", "{4|0}"),
        // nimbers are built in quadratic time (each from all smaller ones: it was exponential)
        ("*300 + *45", "*257"),
        ("value(nim(1000))", "*1000"),
    ];
    for (src, want) in cases {
        assert_eq!(value(src), json!(want), "{src}");
    }
    // text output is the same notation
    let (code, out, err) = run_e("{2|1/2||-1}\n±1\n^*");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "{2|1/2||-1}\n±1\n^*\n", "")
    );
    // `^` or `*` alone on a line is an atom, not an operator that joins the next line
    let (code, out, err) = run_e("let g = {0|1}\n^\n-^\n*\n*2\n1\n^\n5");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "^\nv\n*\n*2\n1\n^\n5\n", "")
    );
    // integers stay integers until they meet a game
    assert_eq!(value("2 * 3"), json!(6));
    assert_eq!(value("{1, 2}"), json!([1, 2]));
}

#[test]
fn order_and_outcomes() {
    let v = values(
        "^ > 0\n* > 0\nconfused(^, *)\nconfused(^, 0)\n{1|*} >= 1\n\
         game(\"1/2\") < 1\n^ < game(\"1/64\")\n-1 < -^\n{1|-1} == ±1\n^ != 0",
    );
    let t = |b: bool| json!(b);
    assert_eq!(
        v,
        vec![
            t(true),
            t(false),
            t(true),
            t(false),
            t(false),
            t(true),
            t(true),
            t(true),
            t(true),
            t(true),
        ]
    );
    let o = strings("outcome(^)\noutcome(-^)\noutcome(*)\noutcome(0)\noutcome(^*)\noutcome(±1)");
    assert_eq!(o, ["L", "R", "N", "P", "N", "N"]);
}

#[test]
fn thermography() {
    // a hot switch {a | b}: mean (a + b)/2, temperature (a - b)/2 (Winning Ways ch. 6)
    let s = strings(
        "mean({3 | 1/2})\ntemperature({3 | 1/2})\nstops({3 | {1 | -1}})[0]\nstops({3 | {1 | -1}})[1]\n\
         cool(±1, 1)\nheat(*, 1)\ntemperature(5)\nstr(birthday(^))\natomic_weight(^)\natomic_weight(^^*)",
    );
    assert_eq!(s, ["7/4", "5/4", "3", "1", "*", "±1", "-1", "2", "1", "2"]);
    let t = value("thermograph(±1)");
    assert_eq!(t["temperature"], json!("1"));
    assert_eq!(t["mast"], json!("0"));
}

/// Winning Ways and Lessons in Play: Domineering (Left places vertical dominoes), Blue-Red
/// Hackenbush strings, Clobber, Col and Snort.
#[test]
fn published_values() {
    let cases = [
        ("value(domineering(2, 2))", "±1"),
        ("value(domineering(1, 2))", "-1"),
        ("value(domineering(2, 1))", "1"),
        ("value(domineering(3, 1))", "1"),
        ("value(domineering(4, 1))", "2"),
        ("value(domineering(3, 3))", "±1"),
        ("value(hackenbush(\"BR\"))", "1/2"),
        ("value(hackenbush(\"BRR\"))", "1/4"),
        ("value(hackenbush(\"BRB\"))", "3/4"),
        ("value(hackenbush(\"RB\"))", "-1/2"),
        ("value(hackenbush(\"GG\"))", "*2"),
        (
            "value(hackenbush([[0, 1, \"B\"], [1, 2, \"R\"], [0, 2, \"B\"]]))",
            "value(hackenbush([[0, 2, \"B\"], [2, 1, \"R\"], [1, 0, \"B\"]]))",
        ),
        ("value(clobber(\"xo\"))", "*"),
        ("value(clobber(\"xxo\"))", "value(clobber(\"oxx\"))"),
        ("value(col(graph { a - b }))", "0"),
        ("value(snort(graph { a - b }))", "±1"),
        ("value(toads_frogs(\"T.F\"))", "*"),
        ("value(domineering(2, 2) + domineering(2, 1))", "{2|0}"),
    ];
    for (src, want) in cases {
        let want = if want.starts_with("value") {
            value(want)
        } else {
            json!(want)
        };
        assert_eq!(value(src), want, "{src}");
    }
}

/// A loop (an edge from a vertex to itself) is a legal Hackenbush edge: cutting it drops
/// nothing else, so it plays as an edge to a new vertex of its own (Winning Ways, ch. 7's
/// flowers have loops for petals).
#[test]
fn hackenbush_loops_play_as_pendant_edges() {
    let cases = [
        (
            "[[0, 1, \"B\"], [1, 1, \"R\"]]",
            "[[0, 1, \"B\"], [1, 2, \"R\"]]",
        ),
        ("[[0, 0, \"G\"]]", "[[0, 1, \"G\"]]"),
        (
            "[[0, 1, \"G\"], [1, 1, \"B\"], [1, 1, \"R\"], [1, 2, \"G\"], [2, 2, \"G\"]]",
            "[[0, 1, \"G\"], [1, 3, \"B\"], [1, 4, \"R\"], [1, 2, \"G\"], [2, 5, \"G\"]]",
        ),
        (
            "[[0, 1, \"B\"], [1, 2, \"R\"], [2, 0, \"B\"], [2, 2, \"R\"], [0, 0, \"B\"]]",
            "[[0, 1, \"B\"], [1, 2, \"R\"], [2, 0, \"B\"], [2, 3, \"R\"], [0, 4, \"B\"]]",
        ),
    ];
    for (with_loops, pendant) in cases {
        let got = value(&format!("value(hackenbush({with_loops}))"));
        assert_eq!(
            got,
            value(&format!("value(hackenbush({pendant}))")),
            "{with_loops}"
        );
    }
    assert_eq!(
        value("value(hackenbush([[0, 1, \"B\"], [1, 1, \"R\"]]))"),
        json!("1/2")
    );
}

/// Positions from CGSuite's own test suite (Aaron Siegel, CGSuite: `GameGridTest`,
/// `GameStripTest`, `GameGraphTest`), as CGSuite prints their canonical forms (`+-` there is `±`).
#[test]
fn cgsuite_test_suite_positions() {
    let cases = [
        (
            "value(domineering(4, 4))",
            "±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}",
        ),
        ("value(domineering(2, 4))", "Miny(2)"),
        (
            "value(toads_frogs(\"TTTTT..FFFFF\"))",
            "±{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}",
        ),
        ("value(clobber(\"xox|ox.\"))", "{^^*|*,v}"),
        ("value(hackenbush(\"BRBRRBBR\"))", "77/128"),
        ("value(hackenbush(\"BRBGRRR\"))", "3/4v[3]*"),
        (
            "value(hackenbush([[0, 1, \"B\"], [1, 2, \"B\"], [1, 3, \"R\"], [3, 4, \"B\"]]))",
            "3/2",
        ),
        (
            "value(hackenbush([[0, 1, \"G\"], [1, 2, \"G\"], [2, 3, \"G\"], [3, 4, \"G\"], \
             [3, 5, \"G\"], [1, 6, \"G\"], [6, 7, \"G\"], [7, 8, \"G\"], [8, 9, \"G\"], \
             [6, 10, \"G\"], [10, 11, \"G\"], [1, 12, \"G\"], [12, 13, \"G\"], \
             [13, 14, \"G\"], [12, 15, \"G\"]]))",
            "*5",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(value(src), json!(want), "{src}");
    }
}

/// Every position of the stored cgt-tools table, through the language.
#[test]
fn agrees_with_cgt_tools() {
    let data = std::fs::read_to_string("tests/data/partizan_cgt_tools.tsv").unwrap();
    let mut src = String::new();
    for line in data.lines() {
        let (pos, want) = line.split_once('\t').unwrap();
        let f = if pos.contains(['T', 'F']) && !pos.contains('|') {
            "toads_frogs"
        } else {
            "domineering"
        };
        src.push_str(&format!("value({f}({pos:?})) == game({want:?})\n"));
    }
    let v = values(&src);
    assert!(v.len() > 200);
    for (line, ok) in data.lines().zip(v) {
        assert_eq!(ok, json!(true), "{line}");
    }
}

/// Cutcake (Winning Ways ch. 2): w ≥ h with 2^k ≤ h < 2^(k+1) has value ⌊w / 2^k⌋ − 1, and a
/// turned cake the negative. Maundy Cake one row high: 1 + the best p·f(w/p) over divisors p.
#[test]
fn cakes() {
    let mut src = String::new();
    let mut want = vec![];
    for w in 1..=8i64 {
        for h in 1..=8i64 {
            src.push_str(&format!("value(cutcake({w}, {h}))\n"));
            let f = |w: i64, h: i64| (w >> (63 - h.leading_zeros())) - 1;
            want.push(json!((if w >= h { f(w, h) } else { -f(h, w) }).to_string()));
        }
    }
    let mut f = [0i64; 25];
    for w in 2..=24 {
        f[w] = 1
            + (2..=w)
                .filter(|p| w % p == 0)
                .map(|p| p as i64 * f[w / p])
                .max()
                .unwrap();
        src.push_str(&format!("value(maundy_cake({w}, 1))\n"));
        want.push(json!(f[w].to_string()));
    }
    assert_eq!(values(&src), want);
}

/// A `game` block with `left move` and `right move` lines gives the built-in's values.
#[test]
fn scripted_rules_match_the_builtins() {
    let v = strings(
        "game cut(m, n) {
           left move (a, n), (m - a, n) for a in 1..m-1
           right move (m, b), (m, n - b) for b in 1..n-1
         }
         game sub(n) {
           left move n - k for k in [1, 3] if k <= n
           right move n - k for k in [2, 3] if k <= n
         }
         let s = partizan_subtraction({1, 3}, {2, 3})
         for m in 1..6 { for n in 1..6 { print(str(value(cut(m, n)) == value(cutcake(m, n)))) } }
         for n in 0..30 { print(str(value(sub(n)) == value(s(n)))) }
         value(cut(3, 4))
         str(len(left_options(cut(5, 1))))   # cuts at 1 and 4 are one option, as at 2 and 3
         outcome(cut(2, 2))",
    );
    let (checks, rest) = v.split_at(36 + 31);
    assert!(checks.iter().all(|c| c == "true"), "{checks:?}");
    assert_eq!(rest, ["-1", "2", "P"]);
}

/// Random games: G − G = 0, sums commute, printing and reading back give the same game.
#[test]
fn canonical_form_properties() {
    let atoms = ["0", "1", "-1", "*", "^", "1/2", "*2", "-2"];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let game = |rng: &mut Rng| {
        let side = |rng: &mut Rng| -> String {
            let k = rng.below(3);
            (0..k)
                .map(|_| {
                    if rng.below(3) == 0 {
                        format!("{{{}|{}}}", atoms[rng.below(8)], atoms[rng.below(8)])
                    } else {
                        atoms[rng.below(8)].to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("{{{} | {}}}", side(rng), side(rng))
    };
    let mut src = String::new();
    for _ in 0..300 {
        let (g, h) = (game(&mut rng), game(&mut rng));
        src.push_str(&format!(
            "let g = {g}\nlet h = {h}\n(g - g == 0) and (g + h == h + g) and game(str(g)) == g and (g <= h) == not (g > h or confused(g, h))\n"
        ));
    }
    let v = values(&src);
    assert_eq!(v.len(), 300);
    assert!(v.iter().all(|v| *v == json!(true)));
}

#[test]
fn clear_errors() {
    for (src, msg) in [
        ("{1 | 2 | 3}", "the longest bar appears twice"),
        ("{1 | \"x\"}", "an option of a game is a game or a number"),
        ("{1/3 | 0}", "not a dyadic number"),
        // past 2^62 below the line a number is refused, never floor-divided
        ("{1/2^63 | 0}", "too large"),
        ("{0 | -3/2^64}", "too large"),
        ("{2^63 | 0}", "too large"),
        ("game(2^70)", "too large"),
        ("game(\"1/9223372036854775808\")", "number too large"),
        ("grundy(domineering(2, 2))", "a partizan position"),
        ("hackenbush(\"BQ\")", "not a Hackenbush colour"),
        (
            "clobber(\"xoxoxoxoxo|oxoxoxoxox|xoxoxoxoxo|oxoxoxoxox|xoxoxoxoxo|oxoxoxoxox|xoxoxoxoxo\")",
            "at most 64 cells",
        ),
        (
            "winning(domineering(2, 2), \"X\")",
            "the player is \"L\" or \"R\"",
        ),
        (
            "game g(n) {\n left move n - 1 if value(g(0)) == 0\n}\nvalue(g(2))",
            "inside the rules of a partizan game",
        ),
    ] {
        let (code, _, err) = run_e(src);
        assert_eq!(code, 1, "{src}");
        assert!(err.contains(msg), "{src}: {err}");
    }
}

/// `plot(thermograph(G), file)` writes a picture with the walls and the title.
#[test]
fn thermograph_picture() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (svg, png) = (dir.join("h.svg"), dir.join("h.png"));
    let (code, out, err) = run_e(&format!(
        "plot(thermograph({{3 | {{1 | -1}}}}), {svg:?})\nplot(thermograph(±1), {png:?}, size: 400)"
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote "), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("thermograph of {3|±1}"));
    assert!(
        text.matches("<polyline").count() >= 4,
        "two walls and their masts"
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
}

/// `moves(P)` gives each player's options with their values, and `winning(P, side)` the
/// options after which that side wins moving second; both checked option by option against
/// `value` and `outcome` on boards of several rulesets.
#[test]
fn moves_and_winning_of_positions() {
    let positions = [
        "domineering(\"...|...|..#\")",
        "domineering(3, 3)",
        "clobber(\"xoxo|oxx.\")",
        "toads_frogs(\"TT..FF\")",
        "hackenbush([[0, 1, \"B\"], [1, 2, \"R\"], [0, 2, \"B\"], [2, 3, \"R\"]])",
        "cutcake(3, 2)",
        "clobber(\"xo|ox\") + clobber(\"xxo\")",
        "domineering(2, 3) + clobber(\"xo\") + nim(1)",
    ];
    for p in positions {
        let src = format!(
            "let p = {p}\nlet m = moves(p)\n\
             [value(o) == m[\"left\"][o] for o in keys(m[\"left\"])] + [value(o) == m[\"right\"][o] for o in keys(m[\"right\"])]\n\
             keys(m[\"left\"]) == left_options(p) and keys(m[\"right\"]) == right_options(p)\n\
             winning(p, \"L\") == [o for o in left_options(p) if outcome(o) == \"L\" or outcome(o) == \"P\"]\n\
             winning(p, \"R\") == [o for o in right_options(p) if outcome(o) == \"R\" or outcome(o) == \"P\"]"
        );
        let v = values(&src);
        assert_eq!(v.len(), 4, "{p}");
        let each = v[0].as_array().unwrap();
        assert!(
            !each.is_empty() && each.iter().all(|b| *b == json!(true)),
            "{p}: {v:?}"
        );
        assert!(v[1..].iter().all(|b| *b == json!(true)), "{p}: {v:?}");
    }
    // a game value: its canonical Left options ≥ 0, Right options ≤ 0
    assert_eq!(
        value("winning({1, -1, * | -2, {0 | 1}}, \"L\")"),
        json!(["1"])
    );
    assert_eq!(
        value("winning({1, -1, * | -2, {0 | 1}}, \"R\")"),
        json!(["-2"])
    );
    assert_eq!(value("winning({-1 | 1}, \"L\")"), json!([]));
    let (code, _, err) = run_e("winning(domineering(2, 2))");
    assert_eq!(code, 1);
    assert!(err.contains("say whose"), "{err}");
}

/// `+` of partizan positions keeps a position: its outcome is searched over its components
/// (those of one ruleset searched, the rest by value) and must agree with its canonical value's;
/// its moves are the moves in each component.
#[test]
fn sums_of_positions_are_searched_as_sums() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let row = |rng: &mut Rng, cells: &str, n: usize| -> String {
        let c: Vec<char> = cells.chars().collect();
        (0..n).map(|_| c[rng.below(c.len())]).collect()
    };
    let mut src = String::from(
        "game clob on board {
            cells empty, x, o
            left move c to empty, d to x for c in x, d in adjacent(c) if d is o
            right move c to empty, d to o for c in o, d in adjacent(c) if d is x
        }\n",
    );
    let mut sums = vec![];
    for _ in 0..120 {
        let parts: Vec<String> = (0..2 + rng.below(2))
            .map(|_| match rng.below(5) {
                0 | 1 => {
                    let n = 2 + rng.below(4);
                    format!(
                        "clobber(\"{}|{}\")",
                        row(&mut rng, "xxoo.", n),
                        row(&mut rng, "xxoo.", n)
                    )
                }
                2 => format!(
                    "domineering(\"{}|{}\")",
                    row(&mut rng, "..#", 3),
                    row(&mut rng, "..#", 3)
                ),
                3 => format!("nim({})", rng.below(4)),
                _ => {
                    let n = 3 + rng.below(4);
                    format!("clob(grid(1, {n}), \"{}\")", row(&mut rng, "xo.", n))
                }
            })
            .collect();
        sums.push(parts.join(" + "));
    }
    for s in &sums {
        src.push_str(&format!("let s = {s}\n[outcome(s), outcome(value(s))]\n"));
    }
    let v = values(&src);
    assert_eq!(v.len(), sums.len());
    for (s, v) in sums.iter().zip(&v) {
        assert_eq!(v[0], v[1], "{s}");
    }
    assert_eq!(
        value("str(clobber(\"xo\") + clobber(\"x.o\"))"),
        json!("clobber(\"xo\") + clobber(\"x.o\")")
    );
    assert_eq!(
        value("left_options(clobber(\"xo\") + domineering(2, 1))"),
        json!([
            "clobber(\".x\") + domineering(2, 1)",
            "clobber(\"xo\") + domineering(\"#|#\")"
        ])
    );
}
