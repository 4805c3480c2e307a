//! Loopy partizan games: stoppers' canonical forms, sides, sums and outcomes, checked against
//! CGSuite's own test cases (CanonicalStopperTestCase, SidedValueTestCase, EvalTest).
mod common;

use gamut::engine::Ctl;
use gamut::engine::partizan::Store;
use gamut::engine::partizan::loopy::{self, Sided};

fn value(st: &mut Store, text: &str) -> Sided {
    let ctl = Ctl::default();
    let g = loopy::parse(text, st, &ctl).unwrap_or_else(|e| panic!("{text}: {e}"));
    Sided::of(&g, st, &ctl).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn show(text: &str) -> String {
    let mut st = Store::default();
    let v = value(&mut st, text);
    v.show(&mut st, &Ctl::default()).unwrap()
}

fn outcome(text: &str) -> &'static str {
    let mut st = Store::default();
    value(&mut st, text).outcome(&Ctl::default()).unwrap()
}

#[test]
fn named_stoppers() {
    for (x, want) in [
        ("on", "on"),
        ("off", "off"),
        ("over", "over"),
        ("under", "under"),
        ("upon", "^[on]"),
        ("dud", "dud"),
        ("{pass|pass}", "dud"),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn cgsuite_stopper_strings() {
    for (x, want) in [
        ("{pass|3/2}", "3/2under"),
        ("{-1/4+*|pass}", "-1/4v[on]"),
        ("{0|||0||0|off}", "{0|Tiny(on)}"),
        ("{on|0||0}", "Miny(on)"),
        ("{0||0|under}", "Tiny(over)"),
        ("{over|under}", "±over"),
        ("{pass|*}", "^[on]"),
        ("{pass,0|0}", "^[on]*"),
        ("{*|pass}", "v[on]"),
        ("{0|0,pass}", "v[on]*"),
        ("{0||0|0,pass}", "^<on>"),
        ("{0,*||*|pass}", "^<on>*"),
        ("{0,pass|0||0}", "v<on>"),
        ("{pass|*||0,*}", "v<on>*"),
        ("x{0|x}", "over"),
        ("x{x|0}", "under"),
        ("x{0||||0|||x|*||*}", "a{0||||0|||a|*||*}"),
        (
            "a{0|{0||||0,*2|||a|0||0}||0}",
            "a{0|{0||||0,*2|||a|0||0}||0}",
        ),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn cgsuite_sided_strings() {
    for (x, want) in [
        ("a{{|a}|}", "1 & 0"),
        ("{0|{dud|},*}", "^ & v*"),
        ("a{1||a|0}", "2 & ±1"),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn outcomes() {
    for (x, want) in [
        ("on", "L"),
        ("off", "R"),
        ("over", "L"),
        ("{pass|3/2}", "L"),
        ("{-1/4+*|pass}", "R"),
        ("{0|||0||0|off}", "L"),
        ("{on|0||0}", "R"),
        ("dud", "D"),
        ("a{{|a}|}", "PHat"),
        ("{0|{dud|},*}", "NHat"),
        ("a{0||||0|||a|*||*}", "L"),
        ("a{0|{0||||0,*2|||a|0||0}||0}", "N"),
    ] {
        assert_eq!(outcome(x), want, "{x}");
    }
}

#[test]
fn sums() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    let mut sum = |a: &str, b: &str| {
        let (x, y) = (value(&mut st, a), value(&mut st, b));
        let s = x.add(&y, &mut st, &ctl).unwrap();
        s.show(&mut st, &ctl).unwrap()
    };
    assert_eq!(sum("on", "off"), "dud");
    assert_eq!(sum("over", "5"), "5over");
    assert_eq!(sum("under", "5"), "5under");
    assert_eq!(sum("over", "^"), "over");
    assert_eq!(sum("over", "-5"), "-5over");
    assert_eq!(sum("over", "under"), "over & under");
    assert_eq!(sum("{pass|*}", "5"), "5^[on]");
    assert_eq!(sum("{0|0,pass}", "5"), "5v[on]*");
    assert_eq!(sum("{0||0|0,pass}", "5"), "5^<on>");
}

#[test]
fn order() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    let on = value(&mut st, "on");
    let over = value(&mut st, "over");
    let zero = value(&mut st, "0");
    let up = value(&mut st, "^");
    let dud = value(&mut st, "dud");
    assert!(over.leq(&on, &ctl).unwrap());
    assert!(!on.leq(&over, &ctl).unwrap());
    assert!(zero.leq(&over, &ctl).unwrap());
    assert!(up.leq(&over, &ctl).unwrap());
    assert!(!over.leq(&up, &ctl).unwrap());
    assert!(!dud.leq(&zero, &ctl).unwrap() && !zero.leq(&dud, &ctl).unwrap());
}

#[test]
fn errors_not_panics() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    for bad in [
        "pass",
        "{pass}",
        "a{0|b}",
        "{0||1||2}",
        "{0|",
        "a{0|a",
        "{0|pass+1}",
    ] {
        assert!(loopy::parse(bad, &mut st, &ctl).is_err(), "{bad}");
    }
    // Bach's carousel is not stopper-sided: a clear error
    let g = loopy::parse("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}", &mut st, &ctl).unwrap();
    assert!(Sided::of(&g, &mut st, &ctl).is_err());
    assert!(Sided::find(&g, &mut st, &ctl).unwrap().is_none());
    // a tiny memory budget refuses a large sum instead of allocating it
    let small = Ctl::default().with_memory(1 << 10);
    let big = loopy::parse("{0,1,2,3,4,5,6,7|pass,*}", &mut st, &ctl).unwrap();
    let sum = loopy::add(&big, &big, &ctl).unwrap();
    assert!(Sided::of(&sum, &mut st, &small).is_err());
}

#[test]
fn cancelled_work_stops() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    let g = loopy::parse("a{0||||0|||a|*||*}", &mut st, &ctl).unwrap();
    let sum = loopy::add(&g, &g.neg(), &ctl).unwrap();
    ctl.cancel_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let e = Sided::of(&sum, &mut st, &ctl).unwrap_err();
    assert_eq!(e.kind, gamut::engine::ErrorKind::Cancelled);
}

#[test]
fn language() {
    let v = common::values(
        "[on, off, over, under, upon, dud]\non + off\nover - over\n{pass | 3/2}\n{0 || 0 | 0, pass}\n\
         over + 5\nover - 5\nover + ^\n±{0 | pass}\n-upon\noutcome(dud)\nover > ^\n\
         game(\"a{{|a}|}\")\nonside(game(\"a{{|a}|}\"))\noffside(game(\"a{{|a}|}\"))\n\
         outcome(game(\"{0|{dud|},*}\"))\nis_stopper(dud)",
    );
    let text: Vec<String> = v
        .iter()
        .map(|x| match x {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    assert_eq!(
        text,
        [
            r#"["on","off","over","under","^[on]","dud"]"#,
            "dud",
            "over & under",
            "3/2under",
            "^<on>",
            "5over",
            "-5over",
            "over",
            "±over",
            "v[on]",
            "D",
            "true",
            "1 & 0",
            "1",
            "0",
            "NHat",
            "false",
        ]
    );
}

/// Backsliding Toads and Frogs, written here apart from the example's rules: Left's toads `t`
/// move right, Right's frogs `f` left, a square into an empty one, back a square, or over an
/// opposing piece.
fn backsliding(s: &[u8], left: bool) -> Vec<Vec<u8>> {
    let (me, them, d): (u8, u8, isize) = if left {
        (b't', b'f', 1)
    } else {
        (b'f', b't', -1)
    };
    let n = s.len() as isize;
    let mut out = vec![];
    for i in 0..n {
        if s[i as usize] != me {
            continue;
        }
        for (step, jump) in [(d, false), (-d, false), (2 * d, true)] {
            let j = i + step;
            if j < 0 || j >= n || s[j as usize] != b'.' || jump && s[(i + d) as usize] != them {
                continue;
            }
            let mut t = s.to_vec();
            t[i as usize] = b'.';
            t[j as usize] = me;
            out.push(t);
        }
    }
    out
}

/// Retrograde analysis of the plays from `start`, an endless play a draw: (Left moving first,
/// Right moving first), each 1 when Left wins, -1 when Right wins, 0 for a draw.
fn brute(start: &[u8], moves: impl Fn(&[u8], bool) -> Vec<Vec<u8>>) -> (i8, i8) {
    use std::collections::HashMap;
    let mut id = HashMap::from([(start.to_vec(), 0usize)]);
    let mut pos = vec![start.to_vec()];
    let mut succ: Vec<[Vec<usize>; 2]> = vec![];
    let mut i = 0;
    while i < pos.len() {
        let mut both = [vec![], vec![]];
        for (k, left) in [true, false].into_iter().enumerate() {
            for q in moves(&pos[i], left) {
                let n = id.len();
                let j = *id.entry(q.clone()).or_insert_with(|| {
                    pos.push(q);
                    n
                });
                both[k].push(j);
            }
        }
        succ.push(both);
        i += 1;
    }
    // state (position, mover: 0 Left, 1 Right): the mover's result, 1 win, -1 loss
    let n = pos.len();
    let mut res = vec![[0i8; 2]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for v in 0..n {
            for m in 0..2 {
                if res[v][m] != 0 {
                    continue;
                }
                let opts = &succ[v][m];
                if opts.iter().any(|&w| res[w][1 - m] == -1) {
                    res[v][m] = 1;
                    changed = true;
                } else if opts.iter().all(|&w| res[w][1 - m] == 1) {
                    res[v][m] = -1;
                    changed = true;
                }
            }
        }
    }
    let as_left = |r: i8, m: usize| if m == 0 { r } else { -r };
    (as_left(res[0][0], 0), as_left(res[0][1], 1))
}

/// CGSuite's outcome class as (Left moving first, Right moving first).
fn class_results(class: &str) -> (i8, i8) {
    let left = match class {
        "L" | "N" | "NHat" => 1,
        "D" | "NCheck" | "PHat" => 0,
        _ => -1,
    };
    let right = match class {
        "R" | "N" | "NCheck" => -1,
        "D" | "NHat" | "PCheck" => 0,
        _ => 1,
    };
    (left, right)
}

/// The example's rules (the lines defining them), to ask gamut about many positions.
fn example_rules(file: &str) -> String {
    example_rules_from(file, "fn put", "\nfor ")
}

/// The text of `file` from `from` up to the next `to`.
fn example_rules_from(file: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let a = text.find(from).unwrap();
    let b = text[a..].find(to).unwrap() + a;
    text[a..b].to_string()
}

#[test]
fn backsliding_toads_and_frogs_against_brute_force() {
    let mut boards = vec![];
    for len in 2..=5u32 {
        for code in 0..3usize.pow(len) {
            let b: Vec<u8> = (0..len).map(|k| b"tf."[code / 3usize.pow(k) % 3]).collect();
            if b.contains(&b'.') {
                boards.push(b);
            }
        }
    }
    let list: Vec<String> = boards
        .iter()
        .map(|b| format!("\"{}\"", String::from_utf8_lossy(b)))
        .collect();
    let src = format!(
        "{}\n[outcome(loopy_value(p, backsliding)) for p in [{}]]",
        example_rules("examples/loopy-toads.game"),
        list.join(", ")
    );
    let got = common::value(&src);
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), boards.len());
    let mut draws = 0;
    for (b, class) in boards.iter().zip(got) {
        let class = class.as_str().unwrap();
        let want = brute(b, backsliding);
        draws += usize::from(want.0 == 0 || want.1 == 0);
        assert_eq!(
            class_results(class),
            want,
            "{}: gamut says {class}",
            String::from_utf8_lossy(b)
        );
    }
    println!("{} boards, {draws} with a draw", boards.len());
}

/// Sums of small boards: a wall `#` between two boards keeps their moves apart, so the brute
/// force plays the sum as one board. Sums of stoppers need not be stoppers (on + off is a draw).
#[test]
fn backsliding_sums_against_brute_force() {
    let mut boards = vec![];
    for len in 2..=3u32 {
        for code in 0..3usize.pow(len) {
            let b: Vec<u8> = (0..len).map(|k| b"tf."[code / 3usize.pow(k) % 3]).collect();
            if b.contains(&b'.') {
                boards.push(b);
            }
        }
    }
    let list: Vec<String> = boards
        .iter()
        .map(|b| format!("\"{}\"", String::from_utf8_lossy(b)))
        .collect();
    let src = format!(
        "{}\nlet vs = [loopy_value(p, backsliding) for p in [{}]]\n\
         [outcome(vs[i] + vs[j]) for i in 0..{n} for j in 0..{n}]",
        example_rules("examples/loopy-toads.game"),
        list.join(", "),
        n = boards.len() - 1
    );
    let got = common::value(&src);
    let got = got.as_array().unwrap();
    let mut k = 0;
    let mut draws = 0;
    for a in &boards {
        for b in &boards {
            let class = got[k].as_str().unwrap();
            k += 1;
            let mut both = a.clone();
            both.push(b'#');
            both.extend(b);
            let want = brute(&both, backsliding);
            draws += usize::from(want.0 == 0 || want.1 == 0);
            assert_eq!(
                class_results(class),
                want,
                "{}: gamut says {class}",
                String::from_utf8_lossy(&both)
            );
        }
    }
    // the check covers endless plays, not only games that end
    assert!(draws > 0);
}

/// Fox and Geese as CGSuite plays it (game.grid.GenFoxAndGeese), written here apart from the
/// example: squares (row, column), the geese (Left) step diagonally down, the fox (Right)
/// diagonally either way; a fox level with the highest goose, or able to get there, has
/// escaped (CGSuite's decomposition: the position is off, a pass for Right and nothing for Left).
fn fox_and_geese(width: i32) -> impl Fn(&[u8], bool) -> Vec<Vec<u8>> {
    move |p: &[u8], left: bool| {
        // p: the fox's row and column, then the geese's, sorted
        let on = |r: i32, c: i32| r >= 1 && c >= 1 && c <= width;
        let (fox, geese) = ((p[0] as i32, p[1] as i32), &p[2..]);
        let has = |r: i32, c: i32| geese.chunks(2).any(|g| g == [r as u8, c as u8]);
        let top = geese.chunks(2).map(|g| g[0] as i32).max().unwrap();
        let escaped = fox.0 >= top
            || fox.0 == top - 1
                && [-1, 1]
                    .iter()
                    .any(|d| on(fox.0 + 1, fox.1 + d) && !has(fox.0 + 1, fox.1 + d));
        if escaped {
            return if left { vec![] } else { vec![p.to_vec()] };
        }
        let mut out = vec![];
        if left {
            for (k, g) in geese.chunks(2).enumerate() {
                for d in [-1, 1] {
                    let (r, c) = (g[0] as i32 - 1, g[1] as i32 + d);
                    if on(r, c) && (r, c) != fox && !has(r, c) {
                        let mut gs: Vec<[u8; 2]> = geese.chunks(2).map(|x| [x[0], x[1]]).collect();
                        gs[k] = [r as u8, c as u8];
                        gs.sort();
                        let mut q = p[..2].to_vec();
                        q.extend(gs.concat());
                        out.push(q);
                    }
                }
            }
        } else {
            for (a, b) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                let (r, c) = (fox.0 + a, fox.1 + b);
                if on(r, c) && !has(r, c) {
                    let mut q = p.to_vec();
                    q[0] = r as u8;
                    q[1] = c as u8;
                    out.push(q);
                }
            }
        }
        out
    }
}

#[test]
fn fox_and_geese_against_cgsuite_and_brute_force() {
    let rules = example_rules_from("examples/loopy-fox-and-geese.game", "let width", "\n#");
    // CGSuite's ValuesTable for these geese (GameGridTest)
    let v = common::value(&format!(
        "{rules}\nlet geese = [[3, 1], [3, 3], [3, 5], [3, 7]]\n\
         [str(fg(geese, f)) for f in [[2, 2], [2, 4], [2, 6], [2, 8], [1, 1], [1, 3], [1, 5], [1, 7]]]"
    ));
    assert_eq!(
        v,
        serde_json::json!([
            "2over",
            "2",
            "3*",
            "4over",
            "{6|2over}",
            "{2over|2}",
            "{4|3||2}",
            "{4over|3*}"
        ])
    );
    // every fox square for a few flocks on narrow boards, outcomes against the brute force
    for (width, geese) in [
        (4, vec![[3, 1], [3, 3]]),
        (4, vec![[4, 2], [4, 4]]),
        (4, vec![[3, 1], [4, 4]]),
        (6, vec![[3, 1], [3, 3], [3, 5]]),
        (6, vec![[4, 2], [3, 3], [4, 6]]),
    ] {
        let top = geese.iter().map(|g| g[0]).max().unwrap();
        let foxes: Vec<[i32; 2]> = (1..=top)
            .flat_map(|r| (1..=width).map(move |c| [r, c]))
            .filter(|&[r, c]| (r + c) % 2 == 0 && !geese.contains(&[r, c]))
            .collect();
        let text = |xs: &[[i32; 2]]| {
            xs.iter()
                .map(|[r, c]| format!("[{r}, {c}]"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let src = format!(
            "{}\n[outcome(fg([{}], f)) for f in [{}]]",
            rules.replace("let width = 8", &format!("let width = {width}")),
            text(&geese),
            text(&foxes)
        );
        let got = common::value(&src);
        for (f, class) in foxes.iter().zip(got.as_array().unwrap()) {
            let mut gs: Vec<[u8; 2]> = geese.iter().map(|g| [g[0] as u8, g[1] as u8]).collect();
            gs.sort();
            let mut p = vec![f[0] as u8, f[1] as u8];
            p.extend(gs.concat());
            let want = brute(&p, fox_and_geese(width));
            let class = class.as_str().unwrap();
            assert_eq!(
                class_results(class),
                want,
                "width {width}, geese {geese:?}, fox {f:?}: gamut says {class}"
            );
        }
    }
}

#[test]
fn bad_input_is_an_error_with_exit_1() {
    for (opts, src, says) in [
        (
            &["--memory", "20M"][..],
            "loopy_value(0, fn(n) = [[n + 1], []])",
            "exploring a loopy game's positions needs about",
        ),
        (&[], "loopy_value(0, fn(n) = 5)", "two lists, not 5"),
        (
            &[],
            "game(\"a{0|b}\")",
            "`b` is not the label of a game around it",
        ),
        (
            &[],
            "onside(game(\"a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}\"))",
            "has no value gamut can find",
        ),
        (
            &[],
            "{pass | on + off}",
            "an option of a game must be a stopper",
        ),
        (&[], "thermograph(over)", "is a loopy game, not a short one"),
    ] {
        let (code, _, err) = common::run_e_with(opts, src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(says), "{src}: {err}");
    }
}

/// What `show` prints of a loopy game reads back through `game("...")` to the same value and
/// the same text: CGSuite's shorthands (`5over`, `^[on]*`, `v<on>`, `±over`) and sides (`G & H`).
#[test]
fn printed_values_read_back() {
    let xs = "[over + 5, over - 5, {pass | 3/2}, under + 1/2, upon, upon + *, 3 - upon, \
              {0 || 0 | 0, pass}, -{0 || 0 | 0, pass} + *2, ±{0 | pass}, ±upon, on + off, \
              game(\"a{{|a}|}\"), over + upon, {0 | pass} + {pass | 0} + 1, {pass | 0} - 2 + ^, \
              {0 | pass, ^} + *, game(\"a{0||||0|||a|*||*}\")]";
    let v = common::values(&format!(
        "let xs = {xs}\n[game(str(x)) == x for x in xs]\n[str(game(str(x))) == str(x) for x in xs]\n[str(x) for x in xs]"
    ));
    let texts = v[2].as_array().unwrap();
    for (i, (same, text)) in v[0].as_array().unwrap().iter().zip(texts).enumerate() {
        assert_eq!(same, &serde_json::json!(true), "value {i}: {text}");
        assert_eq!(v[1][i], serde_json::json!(true), "text {i}: {text}");
    }
    // the shorthands and sides were met
    let all = texts
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ");
    for shape in [
        "5over", "under", "^[on]", "v[on]", "<on>", "±", " & ", "dud",
    ] {
        assert!(all.contains(shape), "{shape} not in {all}");
    }
    // `G & H` builds the value its text reads as
    let v = common::values(
        "[1 & 0 == game(\"1 & 0\"), over & under == {0 | pass} + {pass | 0}, str(on & off), 2 & 2 == 2]",
    );
    assert_eq!(v[0], serde_json::json!([true, true, "dud", true]));
    // sides must be stoppers, the onside at least the offside
    for (src, want) in [
        ("under & over", "is at least the offside"),
        ("dud & 0", "is a stopper; dud is not"),
        ("\"a\" & 0", "`&` joins two games, not a string"),
        ("game(\"under & over\")", "is at least the offside"),
        ("game(\"dud & 0\")", "is a stopper; dud is not"),
    ] {
        let (code, _, err) = common::run_e(src);
        assert_eq!(code, 1, "{src}");
        assert!(err.contains(want), "{src}: {err}");
    }
}

/// CGSuite's labelled nodes typed as literals (`a{0|a}`, not inside `game("...")`): the same
/// values and texts as `game("...")` gives, and CGSuite's strings (EvalTest,
/// CanonicalStopperTestCase).
#[test]
fn labelled_literals() {
    let cases = [
        ("x{0|x}", "over"),
        ("x{x|0}", "under"),
        ("x{0||||0|||x|*||*}", "a{0||||0|||a|*||*}"),
        ("a{0||||0|||a|*||*}", "a{0||||0|||a|*||*}"),
        (
            "a{0|{0||||0,*2|||a|0||0}||0}",
            "a{0|{0||||0,*2|||a|0||0}||0}",
        ),
        ("a{1||a|0}", "2 & ±1"),
        ("a{{|a}|}", "1 & 0"),
        ("a {0 | a}", "over"),
        ("a{pass|a}", "dud"),
        ("a{0|1}", "1/2"),
        ("a{0 | b{a | b}}", "1 & {0|off}"),
        ("a{0, {1 | a} | *}", "{2|*} & ^"),
    ];
    let lits: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let quoted: Vec<String> = lits.iter().map(|x| format!("game(\"{x}\")")).collect();
    let src = format!(
        "let xs = [{}]\nlet ys = [{}]\n[str(x) for x in xs]\n[xs[i] == ys[i] for i in 0..{}]\n\
         [str(x) for x in ys]",
        lits.join(", "),
        quoted.join(", "),
        lits.len() - 1
    );
    let v = common::values(&src);
    for (i, (x, want)) in cases.iter().enumerate() {
        assert_eq!(v[0][i], serde_json::json!(want), "{x}");
        assert_eq!(v[1][i], serde_json::json!(true), "{x} == game(\"{x}\")");
        assert_eq!(v[2][i], serde_json::json!(want), "game(\"{x}\")");
    }
    // a label shadows a name bound outside; options are games as in any literal; labels nest
    let v = common::values(
        "let a = 5\n[a{0|a}, a, a{0, a | *}, a{0 | b{a | pass}} == game(\"a{0|b{a|pass}}\")]",
    );
    assert_eq!(v[0], serde_json::json!(["over", 5, "^[on]", true]));
}

/// A name before a block is the name, not a label: `if c{ ... }`, `for x in xs{ ... }` keep
/// reading as before, bars in the block included.
#[test]
fn labels_leave_blocks_alone() {
    let v = common::values(
        "use \"chess\"\nlet t = true\nlet xs = [1, 2]\n(if t{ rook | bishop } else { king }) == queen\n\
         [y for y in xs]\nfor x in xs{ print(x) }\nlet g = graph { a - b }",
    );
    assert_eq!(v[0], serde_json::json!(true));
    assert_eq!(v[1], serde_json::json!([1, 2]));
    // bad options are errors, as in any game literal
    for (src, says) in [
        ("a{0|b}", "unknown name `b`"),
        ("a{0|a|1}", "the longest bar appears twice"),
        (
            "a{0|\"s\"}",
            "an option of a game is a game or a number, not a string",
        ),
        ("a{0|dud}", "an option of a game must be a stopper"),
    ] {
        let (code, _, err) = common::run_e(src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(says), "{src}: {err}");
    }
}

/// CGSuite's `Degree` of a stopper, G upsum -G: every case of CanonicalStopperTestCase.
#[test]
fn degree_of_loopiness() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    for (x, want) in [
        ("on", "on"),
        ("off", "on"),
        ("over", "over"),
        ("{pass|3/2}", "over"),
        ("{-1/4+*|pass}", "^<on>"),
        ("{0|{0||0|0,pass}||{0,pass|0||0}}", "^<on>"),
        ("{0|||0||0|off}", "{0||||0|||Miny(on)|0||off}"),
        ("{on|0||0}", "Tiny(on)"),
        ("{0||0|under}", "Tiny(over)"),
        ("±{0|pass}", "over"),
        ("±{5|pass}", "over"),
        ("a{0||||0|||a|*||*}", "{0|a{0|0,{0|||a|0||0}}}"),
        (
            "{0|{0||||-1|||-1+*,a{0||0|a|||-1+*||||-1+*}||-2|b{-2,{-1,-1+*||-1+*|b|||-2}|-2}}}",
            "{0|{0||||-1|||-1*,a{0||0|a|||-1*||||-1*}||-2|b{-2,{-1,-1*||-1*|b|||-2}|-2}}}",
        ),
        (
            "a{0|{0||||0,*2|||a|0||0}||0}",
            "a{0||0|{0|a||0,*2|||0||||0}}",
        ),
        ("{3|1||*}", "0"),
    ] {
        let d = value(&mut st, x).degree(&mut st, &ctl).unwrap();
        assert_eq!(d.show(&mut st, &ctl).unwrap(), want, "{x}");
    }
    // the language's `degree` takes a game as well as a group
    let v = common::values(
        "group G = <(1,2,3), (4,5)>\n[degree(G), degree(upon), degree(a{0|a}), degree(5), degree(^)]",
    );
    assert_eq!(v[0], serde_json::json!([5, "^<on>", "over", "0", "0"]));
    for (src, says) in [
        ("degree(a{1||a|0})", "defined for stoppers"),
        ("degree(\"x\")", "must be a group or a game"),
    ] {
        let (code, _, err) = common::run_e(src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(says), "{src}: {err}");
    }
}

/// The outcome of a game played out on its graph agrees with the one its sides give.
#[test]
fn outcome_by_play_agrees_with_sides() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    for x in [
        "on",
        "off",
        "over",
        "{pass|3/2}",
        "{-1/4+*|pass}",
        "{0|||0||0|off}",
        "{on|0||0}",
        "dud",
        "a{{|a}|}",
        "{0|{dud|},*}",
        "a{0||||0|||a|*||*}",
        "a{0|{0||||0,*2|||a|0||0}||0}",
        "a{1||a|0}",
        "{pass|*}",
        "{0||0|0,pass}",
        "{1|*}",
        "0",
    ] {
        let g = loopy::parse(x, &mut st, &ctl).unwrap();
        let by_sides = Sided::of(&g, &mut st, &ctl).unwrap().outcome(&ctl).unwrap();
        assert_eq!(loopy::play_outcome(&g, &ctl).unwrap(), by_sides, "{x}");
    }
}

/// Bach's carousel, written here apart from gamut's reader: each node's Left and Right options.
/// The other games are parts of the sums below (`over` = {0 | over}, `under` = {under | 0}).
const NODES: [(&str, &[&str], &[&str]); 12] = [
    ("a", &["0", "b"], &["0"]),
    ("b", &["1"], &["1", "c"]),
    ("c", &["*", "d"], &["*"]),
    ("d", &["1*"], &["1*", "a"]),
    ("1*", &["1"], &["1"]),
    ("1", &["0"], &[]),
    ("*", &["0"], &["0"]),
    ("0", &[], &[]),
    ("-1", &[], &["0"]),
    ("^", &["0"], &["*"]),
    ("over", &["0"], &["over"]),
    ("under", &["under"], &["0"]),
];

/// The moves of a sum of NODES, each component two bytes: its node and 1 when negated.
fn sum_moves(p: &[u8], left: bool) -> Vec<Vec<u8>> {
    let at = |name: &str| NODES.iter().position(|n| n.0 == name).unwrap() as u8;
    let mut out = vec![];
    for i in (0..p.len()).step_by(2) {
        let (_, lo, ro) = NODES[p[i] as usize];
        let opts = if left == (p[i + 1] == 0) { lo } else { ro };
        for o in opts {
            let mut q = p.to_vec();
            q[i] = at(o);
            out.push(q);
        }
    }
    out
}

/// Bach's carousel has no stopper sides; its outcome and its sums' come from the graph, as a
/// retrograde analysis of the sum's positions apart from gamut finds them.
#[test]
fn bachs_carousel_outcomes_against_brute_force() {
    let cases: [(&str, &[(&str, u8)]); 11] = [
        ("bach", &[("a", 0)]),
        ("-bach", &[("a", 1)]),
        ("bach + 1", &[("a", 0), ("1", 0)]),
        ("bach - 1", &[("a", 0), ("-1", 0)]),
        ("bach + *", &[("a", 0), ("*", 0)]),
        ("bach + ^", &[("a", 0), ("^", 0)]),
        ("bach - ^", &[("a", 0), ("^", 1)]),
        ("bach + over", &[("a", 0), ("over", 0)]),
        ("bach + under", &[("a", 0), ("under", 0)]),
        ("bach + bach", &[("a", 0), ("a", 0)]),
        ("bach - bach + *", &[("a", 0), ("a", 1), ("*", 0)]),
    ];
    let exprs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let v = common::values(&format!(
        "let bach = a{{0, {{1 | 1, {{*, {{1+* | 1+*, a}} | *}}}} | 0}}\n\
         [{}]\n[is_stopper(bach), str(game(str(bach))) == str(bach)]",
        exprs
            .iter()
            .map(|e| format!("outcome({e})"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut classes = std::collections::BTreeSet::new();
    for (i, (e, parts)) in cases.iter().enumerate() {
        let class = v[0][i].as_str().unwrap();
        classes.insert(class);
        let start: Vec<u8> = parts
            .iter()
            .flat_map(|&(n, neg)| [NODES.iter().position(|x| x.0 == n).unwrap() as u8, neg])
            .collect();
        assert_eq!(
            class_results(class),
            brute(&start, sum_moves),
            "{e}: {class}"
        );
    }
    // draws and wins both met
    assert!(
        classes.contains("N") && classes.contains("L"),
        "{classes:?}"
    );
    assert!(
        classes.iter().any(|c| c.contains("Check") || *c == "D"),
        "{classes:?}"
    );
    assert_eq!(v[1], serde_json::json!([false, true]));
    // what needs a value is a clear error, the rest works on the graph
    for (src, says) in [
        ("onside(B)", "has no value gamut can find"),
        ("B == B", "has no value gamut can find"),
        ("degree(B)", "has no value gamut can find"),
        ("B & 0", "has no value gamut can find"),
        ("left_options(B)", "is a loopy game, not a short one"),
    ] {
        let src = format!("let B = a{{0,{{1|1,{{*,{{1+*|1+*,a}}|*}}}}|0}}\n{src}");
        let (code, _, err) = common::run_e(&src);
        assert_eq!(code, 1, "{src}: {err}");
        assert!(err.contains(says), "{src}: {err}");
    }
    // a large graph prints as its size, and still has an outcome
    let v = common::values(
        "let bach = a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}\nlet s = bach + bach + bach\n[str(s), outcome(s)]",
    );
    assert!(
        v[0][0].as_str().unwrap().contains("8_000 positions"),
        "{}",
        v[0]
    );
}
