//! Fuzzing the parser and evaluator: random token streams and random well-formed programs must
//! give a value or an error, never a panic. The default run is short; the recorded long run
//! (docs/reliability.md) is `PROPTEST_CASES=200000 cargo test --release --test fuzz`.
use gamut::lang::run::eval::Interp;
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "let",
    "fn",
    "for",
    "in",
    "if",
    "else",
    "gen",
    "group",
    "board",
    "game",
    "move",
    "use",
    "x",
    "y",
    "f",
    "G",
    "R",
    "n",
    "kayles",
    "nim",
    "slide2",
    "slide3_easy",
    "grid",
    "shift",
    "half_turn",
    "reflect",
    "row",
    "col",
    "\"vertical\"",
    "\"diagonal\"",
    "placement",
    "node_kayles",
    "cycles",
    "dots",
    "graph",
    "leaper",
    "order",
    "diameter",
    "orbit",
    "word",
    "grundy",
    "outcome",
    "period",
    "table",
    "len",
    "min",
    "max",
    "sum",
    "xor",
    "misere",
    "octal",
    "moore",
    "sets",
    "orbits",
    "print",
    "0",
    "1",
    "2",
    "3",
    "7",
    "-1",
    "99999999999999999999",
    "\"0.77\"",
    "\"right\"",
    "\"\"",
    "\"slide\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ";",
    ":",
    ".",
    "..",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "==",
    "!=",
    "<=",
    ">=",
    "=",
    "|",
    "and",
    "or",
    "not",
    "true",
    "false",
    "#",
    "\n",
    " ",
    "\\",
    "'",
    "@",
    "é",
];

fn run(src: &str) {
    if let Some(path) = std::env::var_os("GAMUT_FUZZ_TRACE") {
        // the input about to run, for a crash that takes the process down
        let name = format!(
            "{}-{:?}",
            path.to_string_lossy(),
            std::thread::current().id()
        );
        let _ = std::fs::write(name, src);
    }
    let mut it = Interp::new(Box::new(|_, _| {}));
    let _ = it.run_source("<fuzz>", src);
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "0",
        "1",
        "5",
        "-3",
        "x",
        "n",
        "\"s\"",
        "true",
        "[1, 2]",
        "{1, 2}",
        "1..4",
        "(1,2,3)",
        "()",
        "kayles(5)",
        "nim(3)",
        "slide2",
        "grid(2, 2)",
        "{1}",
        "[{1}, {2}]",
        "grid(3, 4)",
        "\"right\"",
        "\"vertical\"",
    ])
    .prop_map(String::from);
    leaf.prop_recursive(4, 32, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "^", "==", "<", "and", "in", ".."
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                prop::sample::select(vec![
                    "len",
                    "min",
                    "max",
                    "sum",
                    "order",
                    "grundy",
                    "outcome",
                    "diameter",
                    "orbit",
                    "sort",
                    "str",
                    "abs",
                    "half_turn",
                    "reflect",
                    "shift",
                    "show",
                    "cycle",
                    "sign",
                    "cycle_type",
                    "rotate"
                ]),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            inner
                .clone()
                .prop_map(|a| format!("[y for y in {a} if y == y]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}[{b}]")),
            (inner.clone(), inner.clone(), inner)
                .prop_map(|(c, a, b)| format!("if {c} {{ {a} }} else {{ {b} }}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_token_streams_never_panic(toks in prop::collection::vec(prop::sample::select(TOKENS), 0..40)) {
        run(&toks.join(" "));
    }

    #[test]
    fn random_programs_never_panic(stmts in prop::collection::vec(expr(), 1..6)) {
        let src = format!("let x = 3\nlet n = 4\nfn f(a) = a\n{}", stmts.join("\n"));
        run(&src);
    }
}

#[test]
fn crashers_found_by_fuzzing_stay_fixed() {
    // each of these once reached a panic or a stack overflow
    for src in [
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1",
        "# a comment with ( an open bracket\n1",
        "[1, 2][99999999999999999999]",
        "grundy(kayles, 0..-1)",
        "(1,2)^99999999999999999999",
        "octal(\"0.[\")",
        "octal(\"1.0\")",
        "moore(0, [1])",
        "grid(0, 3)",
        "\"abc\" * -1",
    ] {
        run(src);
    }
}

#[test]
fn interpreters_free_their_environment() {
    // functions in the prelude hold their scope, which holds them: dropping the interpreter
    // must break that cycle, or every fuzz case leaks the whole prelude
    let it = Interp::new(Box::new(|_, _| {}));
    let Some(gamut::lang::run::value::Value::Group(g)) = it.globals.lookup("slide4_easy") else {
        panic!()
    };
    assert!(std::rc::Rc::strong_count(&g) > 1);
    drop(it);
    assert_eq!(std::rc::Rc::strong_count(&g), 1);
}

/// Every builtin, called with no argument or with a few small ones of each kind, gives a value
/// or an error (`moves()` and `winning()` once read an argument they were not given).
#[test]
fn every_builtin_takes_any_arguments_without_a_panic() {
    let names: Vec<String> = Interp::new(Box::new(|_, _| {}))
        .builtins
        .keys()
        .map(|s| s.to_string())
        .collect();
    assert!(names.len() > 100, "{} builtins", names.len());
    let shapes = [
        "",
        "0",
        "-1",
        "\"\"",
        "[]",
        "{}",
        "kayles(2)",
        "0, 0",
        "\"L\", 1",
    ];
    let mut it = Interp::new(Box::new(|_, _| {}));
    for name in &names {
        for args in shapes {
            let _ = it.run_source("<sweep>", &format!("{name}({args})"));
        }
    }
}
