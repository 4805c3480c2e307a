//! Habits from GAP and Python get an error that names the gamut way to write it, with the
//! right part of the source underlined.
mod common;
use gamut::lang::syntax::parse_program;

/// The message, the underlined text and the hint of the parse error of `src`.
fn error(src: &str) -> (String, String, String) {
    let e = parse_program(src, 0).expect_err(src);
    let span = &src[e.span.start as usize..e.span.end as usize];
    (e.message, span.to_string(), e.hint)
}

#[test]
fn gap_cycles_without_commas() {
    let (msg, span, hint) = error("let p = (1 2 3)");
    assert_eq!(msg, "the points of a cycle are separated by commas");
    assert_eq!(span, "(1 2 3)");
    assert_eq!(hint, "write (1,2,3)");
    let (_, span, hint) = error("gen R = (1,2)(3 4 5)");
    assert_eq!(span, "(3 4 5)");
    assert_eq!(hint, "write (3,4,5)");
}

#[test]
fn use_without_quotes() {
    let (msg, span, hint) = error("use chess");
    assert_eq!(msg, "`use` takes the library's name as a string");
    assert_eq!(span, "chess");
    assert_eq!(hint, "write use \"chess\"");
}

#[test]
fn group_of_a_list() {
    let (msg, span, hint) = error("group G = [(1,2), (3,4)]");
    assert_eq!(
        msg,
        "the generators of a group are listed in angle brackets"
    );
    assert_eq!(span, "[(1,2), (3,4)]");
    assert_eq!(hint, "write group G = <(1,2), (3,4)>");
}

#[test]
fn let_of_angle_brackets() {
    let (msg, span, hint) = error("gen R = (1,2)\nlet G = <R, (3,4)>");
    assert_eq!(msg, "`<...>` makes a group only in the `group` statement");
    assert_eq!(span, "<R, (3,4)>");
    assert_eq!(hint, "write group G = <R, (3,4)>");
}

#[test]
fn an_unclosed_bracket_is_blamed_not_the_end() {
    let (msg, span, hint) = error("let x = [1, 2\nlet y = 3\nprint(y)\n");
    assert_eq!(msg, "this `[` is never closed");
    assert_eq!(span, "[");
    assert!(hint.starts_with("add `]`"), "{hint}");
    let src = "let a = 1\nfn f(n) = max(n, (n + 1)\nf(2)\nf(3)";
    let e = parse_program(src, 0).unwrap_err();
    assert_eq!(e.span.start as usize, src.find("max(").unwrap() + 3);
    assert_eq!(e.message, "this `(` is never closed");
}

#[test]
fn a_block_on_the_next_line() {
    let (msg, span, hint) = error("for k in 1..3\n{ print(k) }");
    assert_eq!(msg, "the block of `for` must start on its first line");
    assert_eq!(span, "for k in 1..3");
    assert_eq!(
        hint,
        "put `{` at the end of the line: for k in 1..3 { ... }"
    );
    // Python's colon
    let (msg, span, hint) = error("for k in 1..3:\n    print(k)");
    assert_eq!(msg, "the block of `for` must start on its first line");
    assert_eq!(span, "for k in 1..3");
    assert_eq!(
        hint,
        "put `{` at the end of the line: for k in 1..3 { ... }"
    );
    let (msg, span, hint) = error("let n = 2\nif n > 1\n{ print(n) }");
    assert_eq!(span, "if n > 1");
    assert_eq!(msg, "the block of `if` must start on its first line");
    assert_eq!(hint, "put `{` at the end of the line: if n > 1 { ... }");
}

#[test]
fn the_suggested_fixes_parse() {
    for src in [
        "let p = (1,2,3)",
        "use \"chess\"",
        "group G = <(1,2), (3,4)>",
        "for k in 1..3 { print(k) }",
    ] {
        parse_program(src, 0).unwrap_or_else(|e| panic!("{src}: {}", e.message));
    }
}

#[test]
fn a_block_left_open_on_its_line_is_still_an_unclosed_bracket() {
    let e = parse_program("for i in 1..3 { print(i)", 0).unwrap_err();
    assert!(e.hint.contains("never closed"), "{}", e.hint);
}

#[test]
fn an_end_line_without_its_cells() {
    let (msg, span, hint) =
        error("game g on edges { move e to marked for e in unmarked\n end if e is marked }");
    assert_eq!(msg, "expected `for`, found `if`");
    assert_eq!(span, "if");
    assert_eq!(
        hint,
        "an `end` line binds cells first: end for f in faces if f is marked"
    );
}

/// Integer literals are read by halves (one digit at a time took a minute for ten million
/// digits), and a literal past 2^24 bits is refused before it is read.
#[test]
fn long_integer_literals_are_read_exactly_or_refused() {
    // 10^n - 1 and a digit pattern, read back through str and checked mod a prime by hand
    const P: u64 = 1_000_000_007;
    for n in [1usize, 2047, 2048, 2049, 4097, 100_000] {
        let digits: String = (0..n)
            .map(|i| char::from(b'1' + (i * 7 % 9) as u8))
            .collect();
        let want = digits
            .bytes()
            .fold(0u64, |acc, d| (acc * 10 + (d - b'0') as u64) % P);
        let got = common::value(&format!("[{digits} % {P}, len(str({digits}))]"));
        assert_eq!(got, serde_json::json!([want, n]), "{n} digits");
    }
    let (message, span, _) = error(&format!("let x = {}", "9".repeat(5_050_446)));
    assert!(
        message.contains("a number of more than 5_050_445 digits"),
        "{message}"
    );
    assert_eq!(span, "9");
    // the largest literal allowed is read
    assert!(parse_program(&"9".repeat(5_050_445), 0).is_ok());
}

#[test]
fn board_games_without_parameters_and_conditions_without_or() {
    let (msg, span, hint) = error("game g(k) on board {\n    move c to filled for c in empty\n}");
    assert_eq!(msg, "a game on a board or on edges takes no parameters");
    assert_eq!(span, "g");
    assert!(hint.contains("g(grid(4, 4))"), "{hint}");
    let (msg, span, hint) = error(
        "game g on board {\n    move c to filled for c in empty if left(c) is filled or right(c) is filled\n}",
    );
    assert_eq!(
        msg,
        "the conditions of a move on a board are joined by `and`, not `or`"
    );
    assert_eq!(span, "or");
    assert!(hint.contains("some left(c) | right(c) is filled"), "{hint}");
}

#[test]
fn c_operators_and_a_ruleset_without_parentheses_get_their_own_hints() {
    let (_, _, hint) = error("let ok = 1 == 1 && 2 == 2");
    assert!(hint.contains("write `and`"), "{hint}");
    let (_, _, hint) = error("let ok = 1 == 1 || 2 == 2");
    assert!(hint.contains("write `or`"), "{hint}");
    let (_, _, hint) = error("\"abc\"[1:2:3]");
    assert!(hint.contains("slices take no step"), "{hint}");
    let (_, _, hint) = error("let ok = !true");
    assert!(hint.contains("write `not`"), "{hint}");
    let (_, _, hint) = error("game take n { move n - 1 }");
    assert!(hint.contains("`game take(n) {"), "{hint}");
}

/// An input that ends early underlines its last character, not an empty place past the end.
#[test]
fn an_early_end_underlines_the_last_character() {
    for (src, start) in [("1 +", 2), ("let x =  \n", 6), ("f(1,", 3)] {
        let e = parse_program(src, 0).unwrap_err();
        assert_eq!(
            (e.span.start, e.span.end),
            (start, start + 1),
            "{src}: {}",
            e.message
        );
    }
}

/// `use` where a value is expected is named as the statement it is.
#[test]
fn use_in_an_expression_is_a_statement() {
    let e = parse_program("fn f(x) = use \"heaps\"", 0).unwrap_err();
    assert!(e.hint.contains("`use` is a statement"), "{}", e.hint);
    let e = parse_program("print \"hi\"", 0).unwrap_err();
    assert!(e.hint.contains("parentheses"), "{}", e.hint);
}

/// A parameter named twice is a mistake in the program's text: refused before anything runs.
#[test]
fn a_parameter_named_twice_is_a_parse_error() {
    for (src, at) in [
        ("fn f(x, x) = x", 8),
        ("game g(a, a) { move a }", 10),
        ("let h = fn(y, y) = y", 14),
        ("print(1)\nfn f(n, k, n) = n", 20),
    ] {
        let e = parse_program(src, 0).unwrap_err();
        assert!(e.message.contains("is named twice"), "{src}: {}", e.message);
        assert_eq!(e.span.start, at, "{src}");
    }
}

/// Keyword arguments come last (contract: "trailing keyword arguments").
#[test]
fn a_positional_argument_after_a_keyword_is_refused() {
    let e = parse_program("period(to: 5, kayles)", 0).unwrap_err();
    assert!(
        e.message.contains("after a keyword argument"),
        "{}",
        e.message
    );
    assert!(e.hint.contains("`to: ...`"), "{}", e.hint);
    parse_program("period(kayles, to: 5)", 0).unwrap();
}
