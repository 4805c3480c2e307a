//! Source text → owned AST. pest types never leave this module.
pub mod ast;

use ast::*;
use num_bigint::BigInt;
use pest::Parser;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::LazyLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/gamut.pest"]
struct GamutParser;

/// A parse error: where, what, and whether more input could complete it (for the REPL).
#[derive(Debug, Clone)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
    pub hint: String,
    pub at_end: bool,
}

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left)
            | Op::infix(Rule::in_op, Assoc::Left))
        .op(Op::infix(Rule::amp, Assoc::Left))
        .op(Op::infix(Rule::bar, Assoc::Left))
        .op(Op::infix(Rule::range_op, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left)
            | Op::infix(Rule::div, Assoc::Left)
            | Op::infix(Rule::idiv, Assoc::Left)
            | Op::infix(Rule::rem, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::pm))
        .op(Op::infix(Rule::pow, Assoc::Right))
});

/// From the opening quote at `i`: the index of the closing quote (or of the newline or end
/// that leaves the string unclosed), skipping escapes.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i
}

/// From `i`: the index of the end of the line (a comment runs to it).
fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

/// The bytes outside strings and comments, with their offsets: brackets and operators inside
/// a string or a comment never count.
fn code_bytes(b: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let at = i;
            match b[i] {
                b'"' => i = string_end(b, i) + 1,
                b'#' => i = line_end(b, i),
                c => {
                    i += 1;
                    return Some((at, c));
                }
            }
        }
        None
    })
}

/// Newlines inside `(` `)` and `[` `]` continue the line: blank them (and comments there) to
/// spaces. So does a newline after `=`, `,` or a binary operator (the expression goes on), and
/// one before `else` (so `else` may start a line). A byte-order mark is blanked too. Byte
/// offsets are unchanged, so spans still point into the original text.
fn join_bracketed_lines(src: &str) -> String {
    let mut out = src.as_bytes().to_vec();
    if src.starts_with('\u{feff}') {
        out[..3].copy_from_slice(b"   ");
    }
    let mut depth = 0i32;
    let mut i = 0;
    let b = src.as_bytes();
    // the last significant byte before the current position (outside strings and comments)
    let mut code_end = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = string_end(b, i);
                code_end = i.min(b.len().saturating_sub(1));
            }
            b'#' => {
                // a comment: its brackets do not count; inside brackets it is blanked with its newline
                while i < b.len() && b[i] != b'\n' {
                    if depth > 0 {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = (depth - 1).max(0),
            b'\n' if depth > 0 => out[i] = b' ',
            b'\n' if continues(&src[..=code_end.min(i)]) || next_is_else(&src[i + 1..]) => {
                out[i] = b' ';
            }
            _ => {}
        }
        if i < b.len() && !b[i].is_ascii_whitespace() {
            code_end = i;
        }
        i += 1;
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

/// Does a line ending in this text go on to the next line (`=`, `,` or a binary operator)?
fn continues(code: &str) -> bool {
    let t = code.trim_end();
    if t.is_empty() {
        return false;
    }
    for op in ["==", "!=", "<=", ">=", "..", "="] {
        if t.ends_with(op) {
            return true;
        }
    }
    if let Some(c) = t.chars().last()
        && "+-*/%^|,".contains(c)
    {
        // `*` and `^` after an operand on the same line multiply or raise; elsewhere they are
        // game atoms (`x = ^`, or `^` alone on a line)
        let line = &t[t.rfind('\n').map_or(0, |i| i + 1)..t.len() - 1];
        let operand = line
            .trim_end()
            .chars()
            .last()
            .is_some_and(|p| p.is_alphanumeric() || ")]}\"_".contains(p));
        return !"*^".contains(c) || (operand && !(c == '*' && ends_in_ups(line)));
    }
    ["and", "or", "not", "in"].iter().any(|w| {
        t.ends_with(w)
            && t[..t.len() - w.len()]
                .chars()
                .last()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

/// Does the text end in CGSuite's ups or downs (`^`, `vv`, `v3`, `^<2>`, `v[3]`, `1/2v`), so
/// that a `*` after it is the star of a game word, not a product?
fn ends_in_ups(line: &str) -> bool {
    let mut w = line.trim_end();
    for (open, close) in [('<', '>'), ('[', ']')] {
        if let Some(inner) = w.strip_suffix(close)
            && let Some(i) = inner.rfind(open)
            && inner[i + 1..].bytes().all(|b| b.is_ascii_digit())
        {
            w = &inner[..i];
        }
    }
    let w = w.trim_end_matches(|c: char| c.is_ascii_digit());
    let before = w.trim_end_matches(['^', 'v']);
    before.len() < w.len() && !before.ends_with(|c: char| c.is_alphabetic() || c == '_')
}

fn next_is_else(rest: &str) -> bool {
    let t = rest.trim_start_matches([' ', '\t', '\r']);
    t.starts_with("else") && !t[4..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// Brackets nested deeper than this are refused (the parser and evaluator recurse on them).
pub const MAX_NESTING: usize = 200;

pub fn parse_program(src: &str, src_id: u32) -> Result<Vec<Stmt>, ParseError> {
    check_nesting(src, src_id)?;
    check_text(src, src_id)?;
    let text = join_bracketed_lines(src);
    let mut pairs =
        GamutParser::parse(Rule::program, &text).map_err(|e| convert_error(e, src, src_id))?;
    let b = Builder {
        src: src_id,
        error: RefCell::new(None),
    };
    let program = pairs.next().unwrap();
    let stmts = program
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| b.stmt(p))
        .collect();
    match b.error.into_inner() {
        Some(e) => Err(e),
        None => Ok(stmts),
    }
}

/// The digits of 2^24 - 1, the largest number of bits an integer may have.
const MAX_DIGITS: usize = 5_050_445;

/// The value of a string of decimal digits, halves joined as `high · 10^k + low`: one digit
/// at a time is quadratic (a minute for ten million digits).
fn decimal(digits: &[u8]) -> BigInt {
    const SMALL: usize = 2048;
    if digits.len() <= SMALL {
        return BigInt::parse_bytes(digits, 10).unwrap_or_default();
    }
    // the low part a power of two times SMALL digits, so its power of ten is built by squaring
    let mut k = SMALL;
    while 2 * k < digits.len() {
        k *= 2;
    }
    let (high, low) = digits.split_at(digits.len() - k);
    decimal(high) * num_traits::pow(BigInt::from(10), k) + decimal(low)
}

/// Operators (and prefix signs) in one statement beyond this are refused: the tree they make
/// is as deep as they are many.
pub const MAX_OPERATORS: usize = 20_000;

fn check_nesting(src: &str, src_id: u32) -> Result<(), ParseError> {
    let mut depth = 0usize;
    let mut ops = 0usize;
    let mut digits = (0usize, 0usize); // where the current run of digits starts, and its length
    let err = |i: usize, message: String, hint: &str| ParseError {
        span: Span {
            src: src_id,
            start: i as u32,
            end: i as u32 + 1,
        },
        message,
        hint: hint.into(),
        at_end: false,
    };
    for (i, c) in code_bytes(src.as_bytes()) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' | b';' if depth == 0 => ops = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'^' | b'<' | b'>' | b'=' | b'|' => ops += 1,
            b'a' | b'i' | b'n' | b'o' if word_operator(src.as_bytes(), i) => ops += 1,
            _ => {}
        }
        match c {
            b'0'..=b'9' if digits.1 == 0 => digits = (i, 1),
            b'0'..=b'9' => digits.1 += 1,
            b'_' => {}
            _ => digits.1 = 0,
        }
        if digits.1 > MAX_DIGITS {
            return Err(err(
                digits.0,
                format!(
                    "a number of more than {} digits, past the 2^24 bits an integer may have",
                    crate::engine::control::num(MAX_DIGITS)
                ),
                "integers are exact; keep them below 2^16777216",
            ));
        }
        if depth > MAX_NESTING {
            return Err(err(
                i,
                format!("brackets nested more than {MAX_NESTING} deep"),
                "split the expression with `let`",
            ));
        }
        if ops > MAX_OPERATORS {
            return Err(err(
                i,
                format!(
                    "more than {} operators in one statement",
                    crate::engine::control::num(MAX_OPERATORS)
                ),
                "split the expression with `let`, or build long sums with sum([...])",
            ));
        }
    }
    Ok(())
}

/// Refuses a backslash in a string that is not one of the escapes `\"`, `\\`, `\n`, `\t`, and
/// a character outside strings and comments that no token has (`é` in a name, say: the parser
/// would blame the token before it).
fn check_text(src: &str, src_id: u32) -> Result<(), ParseError> {
    let b = src.as_bytes();
    let err = |start: usize, len: usize, message: String, hint: &str| ParseError {
        span: Span {
            src: src_id,
            start: start as u32,
            end: (start + len) as u32,
        },
        message,
        hint: hint.into(),
        at_end: false,
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => i = line_end(b, i),
            b'"' => {
                let end = string_end(b, i);
                let mut j = i + 1;
                while j < end {
                    if b[j] != b'\\' {
                        j += 1;
                        continue;
                    }
                    if !matches!(b.get(j + 1), Some(b'"' | b'\\' | b'n' | b't')) {
                        let next = src[j + 1..].chars().next().map_or(0, char::len_utf8);
                        return Err(err(
                            j,
                            1 + next,
                            "an unknown escape in a string".into(),
                            "strings know \\\", \\\\, \\n and \\t; write a backslash as \\\\",
                        ));
                    }
                    j += 2;
                }
                i = end + 1;
            }
            c if c.is_ascii() => i += 1,
            _ => {
                let c = src[i..].chars().next().unwrap_or_default();
                // ± is Conway's notation; a byte-order mark may open the file
                if c != '±' && !(i == 0 && c == '\u{feff}') {
                    return Err(err(
                        i,
                        c.len_utf8(),
                        format!("`{c}` (U+{:04X}) is not part of gamut's syntax", c as u32),
                        "outside strings and comments, write ASCII: names are letters, digits and _",
                    ));
                }
                i += c.len_utf8();
            }
        }
    }
    Ok(())
}

/// Does the word operator `and`, `in`, `not` or `or` start at `i`?
fn word_operator(b: &[u8], i: usize) -> bool {
    let ident = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    if i > 0 && ident(&b[i - 1]) {
        return false;
    }
    let end = b[i..]
        .iter()
        .position(|c| !ident(c))
        .map_or(b.len(), |n| i + n);
    matches!(&b[i..end], b"and" | b"in" | b"not" | b"or")
}

/// The opening bracket that is never closed, if any (for "the input ends early").
fn unclosed_bracket(src: &str) -> Option<(usize, char)> {
    let mut stack = vec![];
    for (i, c) in code_bytes(src.as_bytes()) {
        match c {
            b'(' | b'[' | b'{' => stack.push((i, c as char)),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}

fn rule_word(r: &Rule) -> Option<&'static str> {
    Some(match r {
        Rule::expr
        | Rule::head
        | Rule::postfixed
        | Rule::head_term
        | Rule::expr_stmt
        | Rule::component => "an expression",
        Rule::ident => "a name",
        Rule::vertex => "a vertex name",
        Rule::chain | Rule::cells_part | Rule::cell => "an edge chain `a - b` or `cells [a, b, c]`",
        Rule::int => "a number",
        Rule::string => "a string",
        Rule::block => "`{`",
        Rule::params => "a parameter list `(...)`",
        Rule::call => "arguments `(...)`",
        Rule::index => "an index `[...]`",
        Rule::field => "a field `.name`",
        Rule::move_rule | Rule::board_move => "a `move` line",
        Rule::board_end => "an `end` line",
        Rule::cells_decl => "`cells`",
        Rule::change => "a change `cells to state`",
        Rule::is_kw => "`is` (a condition is `cells is state`)",
        Rule::for_clauses => "`for`",
        Rule::if_clause => "`if`",
        Rule::EOI => "end of input",
        Rule::or_op
        | Rule::and_op
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::lt
        | Rule::gt
        | Rule::in_op
        | Rule::range_op
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::pow
        | Rule::bar => "an operator",
        Rule::let_stmt
        | Rule::fn_stmt
        | Rule::for_stmt
        | Rule::if_stmt
        | Rule::use_stmt
        | Rule::gen_stmt
        | Rule::group_stmt
        | Rule::board_stmt
        | Rule::board_game_stmt
        | Rule::game_stmt => "a statement",
        _ => return None,
    })
}

fn convert_error(e: pest::error::Error<Rule>, src: &str, src_id: u32) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let at_end = src[pos.min(src.len())..].trim().is_empty();
    let found = src[pos.min(src.len())..].chars().next();
    let mut expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(rule_word).collect()
        }
        ErrorVariant::CustomError { .. } => vec![],
    };
    expected.sort();
    expected.dedup();
    let rest = &src[pos.min(src.len())..];
    // the whole token that was found, not just its first character
    let token: String = match found {
        Some(c) if c.is_alphanumeric() || c == '_' => rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .take(40)
            .collect(),
        Some(c) => c.to_string(),
        None => String::new(),
    };
    let found_txt = match found {
        None => "end of input".to_string(),
        Some('\n') => "end of line".to_string(),
        Some(_) => format!("`{token}`"),
    };
    let before = src[..pos.min(src.len())].trim_end();
    let line_start = src[..pos.min(src.len())].rfind('\n').map_or(0, |i| i + 1);
    let line_before = &src[line_start..pos.min(src.len())];
    let prev_char = src[..pos.min(src.len())].chars().last();
    let mut message = if expected.is_empty() || expected.len() > 3 {
        format!("unexpected {found_txt}")
    } else {
        format!("expected {}, found {found_txt}", expected.join(" or "))
    };
    // a value `if` without `else`: `let y = if c { 1 }`
    let if_without_else = {
        let stmt = src[..pos.min(src.len())]
            .rsplit(['\n', ';'])
            .next()
            .unwrap_or("");
        let words: Vec<&str> = stmt
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        words.contains(&"if")
            && !words.contains(&"else")
            && (stmt.trim_start().starts_with("let ")
                || stmt.contains("= if")
                || stmt.contains("(if"))
            && (before.ends_with('}') || found == Some('}'))
    };
    let keyword_typo = if found.is_some_and(|c| c.is_alphabetic()) {
        let words: Vec<String> = [
            "let", "fn", "for", "if", "else", "gen", "group", "board", "game", "move", "use", "in",
            "and", "or", "not",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut sorted: Vec<char> = token.chars().collect();
        sorted.sort_unstable();
        words
            .iter()
            .find(|w| {
                let mut ws: Vec<char> = w.chars().collect();
                ws.sort_unstable();
                ws == sorted && **w != token
            })
            .cloned()
            .or_else(|| crate::lang::error::closest(&token, &words).filter(|w| *w != token))
    } else {
        None
    };
    if let Some((message, hint, start, end)) = newcomer_mistake(src, pos.min(src.len())) {
        return ParseError {
            span: Span {
                src: src_id,
                start: start as u32,
                end: end as u32,
            },
            message,
            hint,
            at_end,
        };
    }
    let words: Vec<&str> = line_before.split_whitespace().collect();
    let hint = if let ["game", name] = words.as_slice()
        && found.is_some_and(|c| c.is_alphanumeric())
    {
        format!(
            "a ruleset's parameters go in parentheses: `game {name}(n) {{ move ... }}`; a function of one expression is `fn {name}(n) = ...`"
        )
    } else if let Some(w) = keyword_typo {
        format!("did you mean `{w}`?")
    } else if if_without_else {
        message = "an `if` that gives a value needs an `else` branch".into();
        "write `if condition { a } else { b }`".into()
    } else if found.is_some_and(|c| c.is_ascii_digit()) && prev_char == Some('.') {
        message = "gamut has no decimal numbers: numbers are exact integers and fractions".into();
        "write a fraction: `3/2` is exact; `//` is floor division and `%` the remainder, e.g. 7 // 2 is 3".into()
    } else if rest.starts_with("&&") || (rest.starts_with('&') && prev_char == Some('&')) {
        "write `and` to combine conditions: `a > 0 and b > 0`".into()
    } else if rest.starts_with("||") || (rest.starts_with('|') && before.ends_with('|')) {
        "write `or` for either condition: `a > 0 or b > 0` (`|` is the union of sets)".into()
    } else if found == Some(':') && line_before.contains('[') {
        "a slice is `xs[i:j]`, `xs[:j]` or `xs[i:]`; slices take no step".into()
    } else if rest.starts_with('!') && !rest.starts_with("!=") {
        "write `not` to negate a condition: `not (a > 0)`".into()
    } else if found == Some('"')
        && rest[1..].contains('"')
        && !rest[1..].split('\n').next().unwrap_or("").is_empty()
        && rest[1..].split('\n').next().unwrap_or("").contains('"')
    {
        let last_word = before
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next();
        if last_word == Some("use") {
            "`use` is a statement of its own line, not a value: put `use \"...\"` before the definitions that need it".into()
        } else if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            "to call a function put its arguments in parentheses: print(\"hi\")".into()
        } else {
            "a string cannot follow here; is an operator or a comma missing?".into()
        }
    } else {
        match found {
            Some('=') if !before.ends_with(['=', '!', '<', '>']) => {
                "to bind a name write `let name = value`; to compare write `==`".into()
            }
            Some('"') => "a string starts here but is not closed on the same line".into(),
            Some(')') | Some(']') | Some('}') => {
                "a bracket closes here that was not opened, or something is missing before it"
                    .into()
            }
            None => match unclosed_bracket(src) {
                Some((at, c)) => {
                    let line = src[..at].matches('\n').count() + 1;
                    let close = match c {
                        '(' => ')',
                        '[' => ']',
                        _ => '}',
                    };
                    format!("the `{c}` opened on line {line} is never closed: add `{close}`")
                }
                None => "the input ends early: an expression is missing at the end".into(),
            },
            Some(c)
                if (c.is_alphanumeric() || c == '(')
                    && line_before
                        .trim_end()
                        .ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    && line_before.ends_with([' ', '\t']) =>
            {
                let first = line_before.split_whitespace().next().unwrap_or("");
                if line_before.trim() == first
                    && ["let", "fn", "gen", "group", "board", "game"].contains(&first)
                {
                    format!("a name must follow `{first}`: names start with a letter or `_`")
                } else if ["let", "fn", "gen", "group", "board", "game"].contains(&first)
                    || line_before.trim().contains(' ')
                {
                    "two values stand side by side: is an operator, a comma or a bracket missing?"
                        .into()
                } else if first == "end" {
                    "an `end` line binds cells first: end for f in faces if f is marked".into()
                } else {
                    format!(
                        "to call a function put its arguments in parentheses: {}(...); statements are let, fn, for, if, gen, group, board, game, use",
                        line_before.trim()
                    )
                }
            }
            _ if before.ends_with(',') => "a list ends with a comma but nothing follows it".into(),
            _ => "check the syntax near here; see docs/language.md or `:help`".into(),
        }
    };
    let end = (pos + token.len().max(found.map_or(0, |c| c.len_utf8()))).min(src.len());
    // at the end of the input nothing is there to underline: the last character before it is
    let (pos, end) = match (found, before.chars().last()) {
        (None, Some(c)) => (before.len() - c.len_utf8(), before.len()),
        _ => (pos, end),
    };
    ParseError {
        span: Span {
            src: src_id,
            start: pos as u32,
            end: end as u32,
        },
        message,
        hint,
        at_end,
    }
}

/// Mistakes that habits from GAP and Python lead to, when parsing fails at `pos`: the
/// message, a hint with the gamut way to write it, and the span to underline.
fn newcomer_mistake(src: &str, pos: usize) -> Option<(String, String, usize, usize)> {
    let line_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line = src[line_start..].split('\n').next().unwrap_or("");
    let stmt = line.trim_start();
    let stmt_at = line_start + line.len() - stmt.len();
    let before = &src[line_start..pos];
    let rest = &src[pos..];
    // an unclosed bracket on an earlier line: the error is there, not where parsing stopped
    if let Some((at, c)) = unclosed_bracket(src)
        && at < line_start
    {
        let close = match c {
            '(' => ')',
            '[' => ']',
            _ => '}',
        };
        return Some((
            format!("this `{c}` is never closed"),
            format!(
                "add `{close}` where the expression ends; the lines after it were read as part of it"
            ),
            at,
            at + 1,
        ));
    }
    // GAP's cycles without commas: (1 2 3)
    if let Some(open) = before.rfind('(')
        && rest.starts_with(|c: char| c.is_ascii_digit())
        && before[open + 1..]
            .trim()
            .bytes()
            .all(|b| b.is_ascii_digit())
        && before.ends_with([' ', '\t'])
    {
        let start = line_start + open;
        let close = src[start..].find(')').map(|i| start + i + 1);
        let inner = &src[start + 1..close.map_or(pos, |c| c - 1)];
        if inner
            .split_whitespace()
            .all(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            let points: Vec<&str> = inner.split_whitespace().collect();
            return Some((
                "the points of a cycle are separated by commas".into(),
                format!("write ({})", points.join(",")),
                start,
                close.unwrap_or(pos),
            ));
        }
    }
    let word = |w: &str| {
        stmt.strip_prefix(w)
            .filter(|r| r.starts_with([' ', '\t']))
            .map(str::trim_start)
    };
    // game g(k) on board { ... }: the board comes with the call, integers with heap games
    if let Some(def) = word("game")
        && let Some(open) = def.find('(')
        && def[open..].contains(" on ")
        && rest.starts_with(|c: char| c.is_alphabetic())
    {
        let name = def[..open].trim();
        return Some((
            "a game on a board or on edges takes no parameters".into(),
            format!(
                "write `game {name} on board {{ ... }}` and give the board when you call it: {name}(grid(4, 4)); a variant is a game of its own"
            ),
            pos,
            pos + name.len(),
        ));
    }
    // a board move's conditions joined by `or`
    if rest.starts_with("or ")
        && ["move", "left move", "right move", "end"]
            .iter()
            .any(|w| stmt.starts_with(w))
    {
        return Some((
            "the conditions of a move on a board are joined by `and`, not `or`".into(),
            "for \"this cell or that one\" ask of their union: `if some left(c) | right(c) is filled`; or write a `move` line for each case".into(),
            pos,
            pos + 2,
        ));
    }
    // use chess: a library is named by a string
    if let Some(name) = word("use")
        && name.starts_with(|c: char| c.is_alphabetic())
    {
        let end = name
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        let at = stmt_at + stmt.len() - name.len();
        return Some((
            "`use` takes the library's name as a string".into(),
            format!("write use \"{}\"", &name[..end]),
            at,
            at + end,
        ));
    }
    // group G = [(1,2), (3,4)]: generators go in angle brackets
    if let Some(def) = word("group")
        && let Some((name, gens)) = def.split_once('=')
        && !gens.trim_start().starts_with('<')
    {
        let gens = gens.trim();
        let inner = gens
            .strip_prefix(['[', '{'])
            .and_then(|g| g.strip_suffix([']', '}']))
            .unwrap_or(gens);
        let at = stmt_at + stmt.len() - gens.len();
        return Some((
            "the generators of a group are listed in angle brackets".into(),
            format!("write group {} = <{}>", name.trim(), inner.trim()),
            at,
            at + gens.len(),
        ));
    }
    // let G = <...>: GAP's notation for the group generated by ...
    if let Some(def) = word("let")
        && let Some((name, gens)) = def.split_once('=')
        && rest.starts_with('<')
    {
        let gens = gens.trim();
        return Some((
            "`<...>` makes a group only in the `group` statement".into(),
            format!("write group {} = {gens}", name.trim()),
            pos,
            pos + gens.len(),
        ));
    }
    // for (or if) with its block on the next line, or Python's colon
    for kw in ["for", "if"] {
        if word(kw).is_some()
            && !before.contains('{')
            && (rest.starts_with('\n') || rest.starts_with(':') || rest.is_empty())
        {
            let header = before.trim_end().trim_end_matches(':').trim_end();
            return Some((
                format!("the block of `{kw}` must start on its first line"),
                format!(
                    "put `{{` at the end of the line: {} {{ ... }}",
                    header.trim_start()
                ),
                stmt_at,
                stmt_at + header.trim_start().len(),
            ));
        }
    }
    None
}

struct Builder {
    src: u32,
    /// the first mistake the grammar lets through (a parameter named twice)
    error: RefCell<Option<ParseError>>,
}

impl Builder {
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span {
            src: self.src,
            start: s.start() as u32,
            end: s.end() as u32,
        }
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident {
            name: p.as_str().into(),
            span: self.span(&p),
        }
    }

    fn block(&self, p: Pair<Rule>) -> Vec<Stmt> {
        p.into_inner().map(|s| self.stmt(s)).collect()
    }

    /// Records a mistake the grammar lets through; the first one is the parse's error.
    fn mistake(&self, span: Span, message: String, hint: String) {
        self.error.borrow_mut().get_or_insert(ParseError {
            span,
            message,
            hint,
            at_end: false,
        });
    }

    /// A parameter list; a name given twice (the second would hide the first) is a mistake.
    fn params(&self, p: Pair<Rule>) -> Vec<Ident> {
        let params: Vec<Ident> = p.into_inner().map(|i| self.ident(i)).collect();
        for (i, q) in params.iter().enumerate() {
            if params[..i].iter().any(|o| o.name == q.name) {
                self.mistake(
                    q.span,
                    format!("the parameter `{}` is named twice", q.name),
                    "give each parameter its own name".into(),
                );
            }
        }
        params
    }

    fn stmt(&self, p: Pair<Rule>) -> Stmt {
        let rule = p.as_rule();
        let mut it = p.into_inner();
        match rule {
            Rule::let_stmt => Stmt::Let(
                self.ident(it.next().unwrap()),
                self.expr(it.next().unwrap()),
            ),
            Rule::gen_stmt => Stmt::Gen(
                self.ident(it.next().unwrap()),
                self.expr(it.next().unwrap()),
            ),
            Rule::board_stmt => Stmt::Board(
                self.ident(it.next().unwrap()),
                self.expr(it.next().unwrap()),
            ),
            Rule::fn_stmt => {
                let name = self.ident(it.next().unwrap());
                let params = self.params(it.next().unwrap());
                let b = it.next().unwrap();
                let body = if b.as_rule() == Rule::body {
                    let span = self.span(&b);
                    Expr {
                        kind: ExprKind::Block(Rc::new(self.block(b))),
                        span,
                    }
                } else {
                    self.expr(b)
                };
                Stmt::Fn(name, Rc::new(Lambda { params, body }))
            }
            Rule::for_stmt => {
                let var = self.ident(it.next().unwrap());
                let iter = self.expr(it.next().unwrap());
                Stmt::For(var, iter, self.block(it.next().unwrap()))
            }
            Rule::if_stmt => {
                let cond = self.expr(it.next().unwrap());
                let then = self.block(it.next().unwrap());
                let els = match it.next() {
                    None => vec![],
                    Some(e) if e.as_rule() == Rule::block => self.block(e),
                    Some(e) => vec![self.stmt(e)],
                };
                Stmt::If(cond, then, els)
            }
            Rule::use_stmt => {
                let s = it.next().unwrap();
                let span = self.span(&s);
                Stmt::Use(unescape(s.as_str()).into(), span)
            }
            Rule::group_stmt => {
                let name = self.ident(it.next().unwrap());
                Stmt::Group(name, it.map(|e| self.expr(e)).collect())
            }
            Rule::game_stmt => {
                let mut it = it.peekable();
                let loopy = it.next_if(|p| p.as_rule() == Rule::loopy_kw).is_some();
                let name = self.ident(it.next().unwrap());
                let params = self.params(it.next().unwrap());
                let rules = it.map(|r| self.move_rule(r)).collect();
                Stmt::Game(Rc::new(GameDef {
                    loopy,
                    name,
                    params,
                    rules,
                }))
            }
            Rule::board_game_stmt => {
                let name = self.ident(it.next().unwrap());
                let mut def = BoardGameDef {
                    name,
                    on_edges: false,
                    states: vec![],
                    rules: vec![],
                    ends: vec![],
                };
                for part in it {
                    match part.as_rule() {
                        Rule::on_edges => def.on_edges = true,
                        Rule::cells_decl => {
                            def.states = part.into_inner().map(|i| self.ident(i)).collect()
                        }
                        Rule::board_end => {
                            let span = self.span(&part);
                            let (mut bindings, mut conds) = (vec![], vec![]);
                            for x in part.into_inner() {
                                match x.as_rule() {
                                    Rule::for_clauses => bindings = self.bindings(x),
                                    _ => conds = self.board_conds(x),
                                }
                            }
                            def.ends.push(BoardEnd {
                                bindings,
                                conds,
                                span,
                            });
                        }
                        _ => def.rules.push(self.board_move(part)),
                    }
                }
                Stmt::BoardGame(Rc::new(def))
            }
            Rule::expr_stmt => Stmt::Expr(self.expr(it.next().unwrap())),
            r => unreachable!("statement rule {r:?}"),
        }
    }

    /// `for x in xs, y in ys`
    fn bindings(&self, p: Pair<Rule>) -> Vec<(Ident, Expr)> {
        p.into_inner()
            .map(|b| {
                let mut bi = b.into_inner();
                (
                    self.ident(bi.next().unwrap()),
                    self.expr(bi.next().unwrap()),
                )
            })
            .collect()
    }

    fn board_move(&self, p: Pair<Rule>) -> BoardMove {
        let mut rule = BoardMove {
            side: None,
            changes: vec![],
            bindings: vec![],
            conds: vec![],
            span: self.span(&p),
        };
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::change => {
                    let (mut cells, mut idents) = (vec![], vec![]);
                    for x in part.into_inner() {
                        match x.as_rule() {
                            Rule::expr => cells.push(self.expr(x)),
                            _ => idents.push(self.ident(x)),
                        }
                    }
                    let to = idents.pop().unwrap();
                    rule.changes.push(Change {
                        cells,
                        from: idents.pop(),
                        to,
                    });
                }
                Rule::for_clauses => rule.bindings = self.bindings(part),
                Rule::board_if => rule.conds = self.board_conds(part),
                Rule::side => rule.side = Some(side(&part)),
                r => unreachable!("board move part {r:?}"),
            }
        }
        rule
    }

    /// `if [some] cells is [not] state and ...`
    fn board_conds(&self, p: Pair<Rule>) -> Vec<Cond> {
        p.into_inner()
            .filter(|c| c.as_rule() == Rule::cond)
            .map(|c| {
                let mut ci = c.into_inner().filter(|x| x.as_rule() != Rule::is_kw);
                let mut next = ci.next().unwrap();
                let some = next.as_rule() == Rule::some_kw;
                if some {
                    next = ci.next().unwrap();
                }
                let cells = self.expr(next);
                let mut next = ci.next().unwrap();
                let negated = next.as_rule() == Rule::is_not;
                if negated {
                    next = ci.next().unwrap();
                }
                Cond {
                    some,
                    cells,
                    negated,
                    state: self.ident(next),
                }
            })
            .collect()
    }

    fn move_rule(&self, p: Pair<Rule>) -> MoveRule {
        let span = self.span(&p);
        let mut rule = MoveRule {
            side: None,
            components: vec![],
            bindings: vec![],
            cond: None,
            span,
        };
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::component => {
                    let inner = part.into_inner().next().unwrap();
                    rule.components.push(match inner.as_rule() {
                        Rule::tuple => inner.into_inner().map(|e| self.expr(e)).collect(),
                        _ => vec![self.expr(inner)],
                    });
                }
                Rule::for_clauses => rule.bindings = self.bindings(part),
                Rule::if_clause => rule.cond = Some(self.expr(part.into_inner().next().unwrap())),
                Rule::side => rule.side = Some(side(&part)),
                r => unreachable!("move part {r:?}"),
            }
        }
        rule
    }

    fn expr(&self, p: Pair<Rule>) -> Expr {
        PRATT
            .map_primary(|p| self.postfixed(p))
            .map_prefix(|op, rhs| {
                let span = self.span(&op).to(rhs.span);
                let op = match op.as_rule() {
                    Rule::neg => UnOp::Neg,
                    Rule::pm => UnOp::PlusMinus,
                    _ => UnOp::Not,
                };
                Expr {
                    kind: ExprKind::Unary(op, Box::new(rhs)),
                    span,
                }
            })
            .map_infix(|lhs, op, rhs| {
                let op = match op.as_rule() {
                    Rule::or_op => BinOp::Or,
                    Rule::and_op => BinOp::And,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::in_op => BinOp::In,
                    Rule::range_op => BinOp::Range,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::idiv => BinOp::FloorDiv,
                    Rule::rem => BinOp::Rem,
                    Rule::pow => BinOp::Pow,
                    Rule::bar => BinOp::Bar,
                    Rule::amp => BinOp::Amp,
                    r => unreachable!("infix {r:?}"),
                };
                let span = lhs.span.to(rhs.span);
                Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                }
            })
            .parse(p.into_inner())
    }

    /// `callee(args, name: value)`.
    fn call(&self, callee: Expr, post: Pair<Rule>) -> ExprKind {
        let (mut args, mut kwargs) = (vec![], vec![]);
        for a in post.into_inner() {
            let a = a.into_inner().next().unwrap();
            if a.as_rule() == Rule::kwarg {
                let mut k = a.into_inner();
                kwargs.push((self.ident(k.next().unwrap()), self.expr(k.next().unwrap())));
            } else {
                if let Some((k, _)) = kwargs.first() {
                    self.mistake(
                        self.span(&a),
                        "a positional argument after a keyword argument".into(),
                        format!(
                            "keyword arguments come last: put `{}: ...` after this one",
                            k.name
                        ),
                    );
                }
                args.push(self.expr(a));
            }
        }
        ExprKind::Call {
            callee: Box::new(callee),
            args,
            kwargs,
        }
    }

    fn postfixed(&self, p: Pair<Rule>) -> Expr {
        let mut it = p.into_inner();
        let mut e = self.primary(it.next().unwrap());
        for post in it {
            let span = e.span.to(self.span(&post));
            let kind = match post.as_rule() {
                Rule::call => self.call(e, post),
                Rule::index => {
                    let parts: Vec<Pair<Rule>> = post.into_inner().collect();
                    match parts.iter().position(|p| p.as_rule() == Rule::colon) {
                        Some(c) => {
                            let end =
                                |p: Option<&Pair<Rule>>| p.map(|p| Box::new(self.expr(p.clone())));
                            ExprKind::Slice(
                                Box::new(e),
                                end(parts[..c].first()),
                                end(parts.get(c + 1)),
                            )
                        }
                        None => ExprKind::Index(
                            Box::new(e),
                            parts.into_iter().map(|x| self.expr(x)).collect(),
                        ),
                    }
                }
                Rule::field => {
                    ExprKind::Field(Box::new(e), self.ident(post.into_inner().next().unwrap()))
                }
                r => unreachable!("postfix {r:?}"),
            };
            e = Expr { kind, span };
        }
        e
    }

    /// The sides of a brace literal and the lengths of the bars between them.
    fn game_parts<'i>(
        &self,
        parts: impl Iterator<Item = Pair<'i, Rule>>,
    ) -> (Vec<Vec<Expr>>, Vec<usize>) {
        let (mut sides, mut bars) = (vec![], vec![]);
        for part in parts {
            if part.as_rule() == Rule::bars {
                bars.push(part.as_str().len());
            } else {
                sides.push(part.into_inner().map(|e| self.expr(e)).collect());
            }
        }
        (sides, bars)
    }

    fn primary_or_expr(&self, p: Pair<Rule>) -> Expr {
        if matches!(p.as_rule(), Rule::expr | Rule::head) {
            self.expr(p)
        } else {
            self.primary(p)
        }
    }

    fn primary(&self, p: Pair<Rule>) -> Expr {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::int => ExprKind::Int(Rc::new(decimal(p.as_str().replace('_', "").as_bytes()))),
            Rule::none => ExprKind::None,
            Rule::string => ExprKind::Str(unescape(p.as_str()).into()),
            Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
            Rule::ident => ExprKind::Ident(p.as_str().into()),
            Rule::paren_or_cycles => {
                let inner: Vec<Pair<Rule>> = p.into_inner().collect();
                if inner.len() == 1 && inner[0].as_rule() == Rule::expr {
                    return self.expr(inner.into_iter().next().unwrap());
                }
                let mut cycles = vec![vec![]];
                for x in inner {
                    if x.as_rule() == Rule::cycle {
                        cycles.push(x.into_inner().map(|e| self.expr(e)).collect());
                    } else {
                        cycles[0].push(self.expr(x));
                    }
                }
                ExprKind::Cycles(cycles)
            }
            Rule::list_or_comp => {
                let mut elems = vec![];
                let mut tail = None;
                for x in p.into_inner() {
                    if x.as_rule() == Rule::comp_tail {
                        tail = Some(x);
                    } else {
                        elems.push(self.expr(x));
                    }
                }
                match tail {
                    None => ExprKind::List(elems),
                    Some(t) => {
                        let mut clauses = vec![];
                        let mut cond = None;
                        for c in t.into_inner() {
                            let rule = c.as_rule();
                            let mut ci = c.into_inner().filter(|x| x.as_rule() != Rule::is_kw);
                            if rule == Rule::comp_for {
                                let var = self.ident(ci.next().unwrap());
                                clauses.push((var, self.expr(ci.next().unwrap())));
                            } else {
                                cond = Some(Box::new(self.expr(ci.next().unwrap())));
                            }
                        }
                        ExprKind::Comprehension {
                            elem: Box::new(elems.pop().unwrap()),
                            clauses,
                            cond,
                        }
                    }
                }
            }
            Rule::cg_atom => ExprKind::CgAtom(p.as_str().into()),
            // `2Tiny(G)` is 2 + Tiny(G)
            Rule::num_tiny => {
                let whole = self.span(&p);
                let mut parts = p.into_inner();
                let pre = parts.next().unwrap();
                let (span, text) = (self.span(&pre), pre.as_str());
                let (number, name) = text.split_at(text.len() - "Tiny".len());
                let at = |kind| Expr { kind, span };
                let call = self.call(at(ExprKind::Ident(name.into())), parts.next().unwrap());
                ExprKind::Binary(
                    BinOp::Add,
                    Box::new(at(ExprKind::CgAtom(number.into()))),
                    Box::new(Expr {
                        kind: call,
                        span: whole,
                    }),
                )
            }
            Rule::brace => {
                let (mut sides, bars) = self.game_parts(p.into_inner());
                if bars.is_empty() {
                    ExprKind::Set(sides.pop().unwrap_or_default())
                } else {
                    return game_literal(sides, &bars, span);
                }
            }
            // `a{0 | a}`: the game literal, named for its options
            Rule::labelled => {
                let mut parts = p.into_inner();
                let name = self.ident(parts.next().unwrap());
                let (sides, bars) = self.game_parts(parts);
                let mut e = game_literal(sides, &bars, span);
                if let ExprKind::GameLit { label, .. } = &mut e.kind {
                    *label = Some(name);
                }
                return e;
            }
            Rule::lambda => {
                let mut it = p.into_inner();
                let params = self.params(it.next().unwrap());
                ExprKind::Lambda(Rc::new(Lambda {
                    params,
                    body: self.expr(it.next().unwrap()),
                }))
            }
            Rule::if_expr => {
                let mut it = p.into_inner();
                let mut next = || Box::new(self.primary_or_expr(it.next().unwrap()));
                ExprKind::If(next(), next(), next())
            }
            Rule::graph_lit => {
                let (mut chains, mut cells) = (vec![], vec![]);
                for part in p.into_inner() {
                    let names = |q: Pair<Rule>| q.into_inner().map(|v| self.ident(v)).collect();
                    match part.as_rule() {
                        Rule::chain => chains.push(names(part)),
                        _ => cells.extend(part.into_inner().map(names)),
                    }
                }
                ExprKind::Graph { chains, cells }
            }
            r => unreachable!("primary {r:?}"),
        };
        Expr { kind, span }
    }
}

/// `left` or `right` before `move`.
fn side(p: &Pair<Rule>) -> Side {
    if p.as_str() == "left" {
        Side::Left
    } else {
        Side::Right
    }
}

fn unescape(s: &str) -> String {
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A game literal from its sides and the bars between them: the longest bar splits Left's
/// options from Right's, and each half with bars of its own is one nested game (CGSuite's
/// `{2|1/2||-1}` is `{{2|1/2}|-1}`).
fn game_literal(mut sides: Vec<Vec<Expr>>, bars: &[usize], span: Span) -> Expr {
    let top = bars.iter().copied().max().unwrap_or(0);
    let at: Vec<usize> = (0..bars.len()).filter(|&i| bars[i] == top).collect();
    let right_sides = sides.split_off(at[0] + 1);
    let half = |sides: Vec<Vec<Expr>>, bars: &[usize]| -> Vec<Expr> {
        if bars.is_empty() {
            return sides.into_iter().next().unwrap_or_default();
        }
        let span = sides
            .iter()
            .flatten()
            .map(|e| e.span)
            .reduce(Span::to)
            .unwrap_or(span);
        vec![game_literal(sides, bars, span)]
    };
    let left = half(sides, &bars[..at[0]]);
    let right = half(right_sides, &bars[at[0] + 1..]);
    Expr {
        kind: ExprKind::GameLit {
            left,
            right,
            ambiguous: at.len() > 1,
            label: None,
        },
        span,
    }
}
