//! Every example `:help NAME` shows runs as shown: each builtin, statement and standard-library
//! name has one, it runs without an error, and where the help shows what it prints (`# → X`
//! after a line), it prints exactly that.
mod common;
use common::gamut;
use gamut::lang::help::{STATEMENTS, help};
use gamut::lang::run::eval::{Interp, stdlib_names};

/// The examples of a help text: the code after `example:` on its line, or the indented lines
/// below a bare `example:`.
fn examples(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut lines = text.lines().peekable();
    while let Some(l) = lines.next() {
        if let Some(rest) = l.trim().strip_prefix("example:") {
            if !rest.trim().is_empty() {
                out.push(rest.trim().to_string());
                continue;
            }
            let mut body = vec![];
            while let Some(l) = lines.next_if(|l| l.starts_with("  ")) {
                body.push(&l[2..]);
            }
            out.push(body.join("\n"));
        }
    }
    out
}

#[test]
fn every_help_example_runs_as_shown() {
    let it = Interp::new(Box::new(|_, _| {}));
    let mut names: Vec<String> = it.builtins.keys().map(|s| s.to_string()).collect();
    names.extend(STATEMENTS.iter().map(|(k, _, _)| k.to_string()));
    names.extend(stdlib_names().into_iter().map(|(n, _)| n));
    assert!(names.len() > 100, "{} names", names.len());
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut shown = 0;
    for name in names {
        let text = help(&it, &name).unwrap_or_else(|| panic!("no help for {name}"));
        let codes = examples(&text);
        assert!(!codes.is_empty(), "`:help {name}` shows no example");
        for code in codes {
            let out = gamut()
                .current_dir(dir)
                .args(["run", "-"])
                .write_stdin(code.clone())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.is_empty(),
                "`:help {name}`: {code}\n{stderr}"
            );
            let expected: Vec<&str> = code
                .lines()
                .filter_map(|l| l.split_once("# → ").map(|(_, x)| x))
                .collect();
            if !expected.is_empty() {
                shown += 1;
                let got = String::from_utf8_lossy(&out.stdout);
                assert_eq!(
                    got.trim_end_matches('\n'),
                    expected.join("\n"),
                    "`:help {name}`: {code}"
                );
            }
        }
    }
    assert!(shown > 80, "only {shown} examples show their output");
}

/// The test above would pass on help texts without examples if `examples` found none.
#[test]
fn examples_are_found_in_each_kind_of_help() {
    let it = Interp::new(Box::new(|_, _| {}));
    assert_eq!(
        examples(&help(&it, "grundy").unwrap()),
        ["grundy(kayles(10) + nim(3))   # → 1"]
    );
    assert!(examples(&help(&it, "lasker").unwrap())[0].starts_with("grundy(lasker"));
    // the builtin `group` and the statement `group`
    let group = examples(&help(&it, "group").unwrap());
    assert_eq!(group.len(), 2);
    assert!(group[1].contains("\ngroup G = <R, Q>\n"));
    assert!(help(&it, "no_such_name").is_none());
}

/// A name the user binds hides the builtin, and `:help` says so before the builtin's text.
#[test]
fn help_says_when_a_user_binding_hides_a_builtin() {
    let mut it = Interp::new(Box::new(|_, _| {}));
    assert!(
        !help(&it, "order")
            .unwrap()
            .contains("defined in this session")
    );
    it.run_source("<test>", "let order = 5").unwrap();
    let text = help(&it, "order").unwrap();
    assert!(
        text.starts_with("`order` is an integer defined in this session; it hides the builtin:"),
        "{text}"
    );
    assert!(text.contains("order(G)"), "{text}");
    // a standard-library name is not a user binding
    assert!(!help(&it, "kayles").unwrap().contains("hides"));
}

/// `:help` of a ruleset written as rules says which engine values it: the heap engine where
/// its rules are a take-and-break game.
#[test]
fn help_says_when_rules_are_a_take_and_break_game() {
    let mut it = Interp::new(Box::new(|_, _| {}));
    let src = "game lk(n) {\n move n - k for k in 1..n\n move a, n - a for a in 1..n-1 if a <= n - a\n}\n\
               game odd(n) { move n - k for k in 1..n if k % 2 == 1 }\n\
               let S = [2, 5]\ngame s(n) { move n - k for k in S if k <= n }";
    it.run_source("<test>", src).unwrap();
    let lk = help(&it, "lk").unwrap();
    assert!(
        lk.starts_with("`lk` is a ruleset defined in this session: game lk(n), 2 rules"),
        "{lk}"
    );
    assert!(
        lk.contains("the take-and-break game octal(\"4.3[3]\")"),
        "{lk}"
    );
    let odd = help(&it, "odd").unwrap();
    assert!(odd.contains("run compiled, valued over a table"), "{odd}");
    let s = help(&it, "s").unwrap();
    assert!(s.contains("octal(\"0.03003\")"), "{s}");
    // the set read from the scope: bound again, the game is another
    it.run_source("<test>", "let S = [1]").unwrap();
    assert!(help(&it, "s").unwrap().contains("octal(\"0.3\")"));
}

/// The words of games by rules have help, each with an example of a game by rules using it.
#[test]
fn board_rule_words_have_help_with_an_example() {
    let it = Interp::new(Box::new(|_, _| {}));
    for word in [
        "on", "cells", "empty", "filled", "adjacent", "up", "down", "left", "right", "to", "from",
        "is", "some", "end", "attacks", "edges", "marked", "unmarked", "faces", "into", "out_of",
        "head", "tail",
    ] {
        let text = help(&it, word).unwrap_or_else(|| panic!("no help for {word}"));
        let uses = examples(&text)
            .into_iter()
            .any(|e| (e.contains(" on board ") || e.contains(" on edges ")) && e.contains(word));
        assert!(
            uses,
            "`:help {word}` has no game by rules using it:\n{text}"
        );
    }
}
