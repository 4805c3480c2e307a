//! Pictures of partizan positions (`show` text and `export` SVG), and tables whose long cells
//! are cut in text output. The SVGs are parsed and their squares, edges and vertices counted
//! against the position.
mod common;
use gamut::engine::board::picture::SHADES;
use gamut::engine::partizan::picture::{EDGE_BLUE, EDGE_GREEN, EDGE_RED, FILLED, GROUND};
use plotters::style::RGBColor;

/// `export(P, file.svg)` of the position written in `pos`, read back; with `show(P)`'s text.
fn export_svg(setup: &str, pos: &str, name: &str) -> (String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join(format!("{name}.svg"));
    let f = f.to_string_lossy();
    let out = common::values(&format!("{setup}\nshow({pos})\nexport({pos}, \"{f}\")"));
    assert_eq!(out[1].as_str(), Some(&*format!("wrote {f}")));
    let shown = out[0].as_str().unwrap().to_string();
    (shown, std::fs::read_to_string(&*f).unwrap())
}

fn parse_svg(text: &str) -> roxmltree::Document<'_> {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opt).unwrap()
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn count(doc: &roxmltree::Document, tag: &str, attr: &str, value: &str) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && n.attribute(attr) == Some(value))
        .count()
}

fn texts<'a>(doc: &'a roxmltree::Document) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect()
}

/// The error of running `src`.
fn error(src: &str) -> String {
    let mut it = gamut::lang::run::eval::Interp::new(Box::new(|_, _| {}));
    let e = it.run_source("<test>", src).unwrap_err();
    format!("{} (hint: {})", e.message, e.hint.unwrap_or_default())
}

/// `show` draws a grid row by row, its squares' letters apart by spaces.
fn grid_of(shown: &str) -> Vec<Vec<char>> {
    shown
        .lines()
        .map(|l| l.split(' ').map(|t| t.chars().next().unwrap()).collect())
        .collect()
}

#[test]
fn grid_games_draw_their_squares_as_show_does() {
    let white = "#FFFFFF";
    // (position, what the board was written as, its letters and shades apart from empty)
    let cases = [
        (
            "domineering(\"..#.|#...|..##\")",
            "..#.|#...|..##",
            vec![('#', FILLED)],
        ),
        (
            "clobber(\"xox.|oxo.|..xo\")",
            "xox.|oxo.|..xo",
            vec![('x', SHADES[1]), ('o', SHADES[3])],
        ),
        (
            "toads_frogs(\"TT.T..FF\")",
            "TT.T..FF",
            vec![('T', SHADES[1]), ('F', SHADES[3])],
        ),
    ];
    for (k, (pos, written, kinds)) in cases.iter().enumerate() {
        let (shown, svg) = export_svg("", pos, &format!("grid{k}"));
        let want: Vec<Vec<char>> = written.split('|').map(|r| r.chars().collect()).collect();
        assert_eq!(grid_of(&shown), want, "{pos}: {shown}");
        let doc = parse_svg(&svg);
        let squares = written.chars().filter(|&c| c != '|').count();
        let empty = written.matches('.').count();
        // a square per cell and a swatch per kind in the legend; the page is white as well
        assert_eq!(count(&doc, "rect", "fill", white), empty + 1 + 1, "{pos}");
        let mut counted = empty;
        for &(letter, shade) in kinds {
            let n = written.matches(letter).count();
            assert_eq!(
                count(&doc, "rect", "fill", &hex(shade)),
                n + 1,
                "{pos} {letter}"
            );
            let drawn = texts(&doc)
                .iter()
                .filter(|t| **t == letter.to_string())
                .count();
            assert_eq!(drawn, n + 1, "{pos} {letter}");
            counted += n;
        }
        assert_eq!(counted, squares);
        assert!(texts(&doc).iter().any(|t| t.contains(&pos[..5])), "{pos}");
    }
}

#[test]
fn an_option_is_drawn_as_it_stands() {
    // Left's first option of an empty 2 x 3 board fills a column
    let (shown, svg) = export_svg("", "left_options(domineering(2, 3))[0]", "option");
    assert_eq!(shown, "# . .\n# . .");
    let doc = parse_svg(&svg);
    assert_eq!(count(&doc, "rect", "fill", &hex(FILLED)), 2 + 1);
    assert!(texts(&doc).contains(&"filled (2)"), "{:?}", texts(&doc));
    assert!(texts(&doc).contains(&"empty (4)"), "{:?}", texts(&doc));
}

#[test]
fn a_partizan_board_game_by_rules_exports_as_the_impartial_ones_do() {
    let rules = "game dom on board {
    left move c, d to filled for c in empty, d in down(c) if d is empty
    right move c, d to filled for c in empty, d in right(c) if d is empty
}";
    let (shown, svg) = export_svg(rules, "dom(grid(3, 4), \"f..f|....|.ff.\")", "rules");
    assert_eq!(shown, "f . . f\n. . . .\n. f f .");
    let doc = parse_svg(&svg);
    assert_eq!(count(&doc, "rect", "fill", &hex(SHADES[1])), 4 + 1);
    assert_eq!(count(&doc, "rect", "fill", "#FFFFFF"), 8 + 2);
    assert!(texts(&doc).contains(&"filled (4)"), "{:?}", texts(&doc));
}

/// The edges of a Hackenbush list joined to the ground, by colour.
fn grounded(edges: &[(u32, u32, char)]) -> (usize, usize, usize, Vec<u32>) {
    let mut reach = vec![0u32];
    loop {
        let before = reach.len();
        for &(a, b, _) in edges {
            for (x, y) in [(a, b), (b, a)] {
                if reach.contains(&x) && !reach.contains(&y) {
                    reach.push(y);
                }
            }
        }
        if reach.len() == before {
            break;
        }
    }
    let on = |c| {
        edges
            .iter()
            .filter(|e| e.2 == c && reach.contains(&e.0))
            .count()
    };
    (on('B'), on('R'), on('G'), reach)
}

#[test]
fn hackenbush_is_drawn_on_the_ground_with_edges_in_their_colours() {
    let edges: &[(u32, u32, char)] = &[
        (0, 1, 'B'),
        (1, 2, 'R'),
        (0, 2, 'B'),
        (2, 3, 'G'),
        (0, 4, 'R'),
        (4, 5, 'B'),
        (5, 6, 'R'),
        (5, 7, 'B'),
        (6, 7, 'G'),
        (0, 1, 'G'),
        (8, 9, 'G'),
    ];
    let list: Vec<String> = edges
        .iter()
        .map(|(a, b, c)| format!("[{a}, {b}, \"{c}\"]"))
        .collect();
    let pos = format!("hackenbush([{}])", list.join(", "));
    let (shown, svg) = export_svg("", &pos, "hackenbush");
    let (blue, red, green, reach) = grounded(edges);
    assert_eq!((blue, red, green), (4, 3, 3));
    // show: an edge a line, the ground named, each in its colour
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), edges.len(), "{shown}");
    for &(a, b, c) in edges {
        let name = |v: u32| {
            if v == 0 {
                "ground".to_string()
            } else {
                v.to_string()
            }
        };
        let colour = match c {
            'B' => "blue",
            'R' => "red",
            _ => "green",
        };
        let line = format!("{} - {}  {colour}", name(a), name(b));
        assert!(
            lines.iter().any(|l| l.starts_with(&line)),
            "{line}: {shown}"
        );
    }
    assert_eq!(
        lines.last(),
        Some(&"8 - 9  green (not joined to the ground)")
    );
    // the top edge first, the ground's last
    assert!(lines[0].starts_with("6 - 7") || lines[0].starts_with("5 - 6"));
    // the picture: a polyline per edge on the ground in its colour, a dot per vertex above it
    let doc = parse_svg(&svg);
    assert_eq!(count(&doc, "polyline", "stroke", &hex(EDGE_BLUE)), blue);
    assert_eq!(count(&doc, "polyline", "stroke", &hex(EDGE_RED)), red);
    assert_eq!(count(&doc, "polyline", "stroke", &hex(EDGE_GREEN)), green);
    assert_eq!(count(&doc, "polyline", "stroke", &hex(GROUND)), 1);
    assert_eq!(count(&doc, "circle", "fill", "#000000"), reach.len() - 1);
    let t = texts(&doc);
    for s in [
        "blue, Left's (4)",
        "red, Right's (3)",
        "green, either's (3)",
    ] {
        assert!(t.contains(&s), "{s}: {t:?}");
    }
    assert!(
        t.iter().any(|s| s.starts_with("1 edge not joined")),
        "{t:?}"
    );
}

#[test]
fn a_hackenbush_string_stands_upright_with_its_ground_edge_lowest() {
    let (shown, svg) = export_svg("", "hackenbush(\"BRGB\")", "stalk");
    assert_eq!(
        shown,
        "3 - 4  blue\n2 - 3  green\n1 - 2  red\nground - 1  blue"
    );
    let doc = parse_svg(&svg);
    // every edge of a string is vertical, one above the other
    let mut segments: Vec<(i64, i64, i64, i64)> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polyline")
        .filter(|n| n.attribute("stroke") != Some(&*hex(GROUND)))
        .map(|n| {
            let p: Vec<i64> = n
                .attribute("points")
                .unwrap()
                .split([' ', ','])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            (p[0], p[1], p[2], p[3])
        })
        .collect();
    assert_eq!(segments.len(), 4);
    segments.sort_by_key(|s| -s.1.max(s.3));
    for w in segments.windows(2) {
        assert_eq!(w[0].1.min(w[0].3), w[1].1.max(w[1].3), "{segments:?}");
    }
    assert!(segments.iter().all(|s| s.0 == s.2 && s.0 == segments[0].0));
}

#[test]
fn what_cannot_be_drawn_is_refused_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let f = d.join("x.svg");
    let f = f.to_string_lossy();
    let long = ".".repeat(150);
    let e = error(&format!("export(toads_frogs(\"T{long}F\"), \"{f}\")"));
    assert!(
        e.contains("too long to draw") && e.contains("show(P)"),
        "{e}"
    );
    let e = error(&format!(
        "export(hackenbush([[0, 1, \"B\"] for i in 1..1200]), \"{f}\")"
    ));
    assert!(e.contains("1_200 edges") || e.contains("1200 edges"), "{e}");
    let e = error(&format!(
        "export(domineering(2, 2), \"{}\")",
        d.join("x.dot").display()
    ));
    assert!(e.contains("exports to .svg or .png"), "{e}");
    // a game without a picture says which do have one
    let e = error("show(cutcake(2, 3))");
    assert!(e.contains("hackenbush"), "{e}");
}

#[test]
fn a_table_cuts_long_cells_in_text_and_keeps_them_whole_in_json() {
    let src = "table(fn(m, n) = value(domineering(m, n)), 3..4, 5..6)";
    let whole = common::value("str(value(domineering(4, 6)))");
    let whole = whole.as_str().unwrap();
    assert!(whole.chars().count() > 300, "{whole}");
    let text = common::value(&format!("str({src})"));
    let text = text.as_str().unwrap();
    let width = gamut::lang::run::value::TABLE_CELL;
    let (table, note) = text.rsplit_once('\n').unwrap();
    for line in table.lines() {
        assert!(line.chars().count() < 3 * width, "{line}");
    }
    let cut: String = whole.chars().take(width - 1).chain(['…']).collect();
    assert!(table.contains(&cut), "{text}");
    assert_eq!(table.matches('…').count(), 1, "{text}");
    assert!(
        note.contains("cuts 1 cell") && note.contains("row 4, column 6"),
        "{note}"
    );
    assert!(note.contains("--json"), "{note}");
    // JSON keeps the cell whole
    let (code, out, err) = common::run_e_with(&["--json"], src);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["value"]["values"][1][1].as_str(), Some(whole));
    // short cells are left as they were
    let small = common::value("str(table(fn(m, n) = m + n, 1..2, 1..2))");
    assert_eq!(small.as_str(), Some("  | 1 2\n--+----\n1 | 2 3\n2 | 3 4"));
}

#[test]
fn many_cut_cells_are_counted_and_the_first_named() {
    let text = common::value("str(table(fn(m, n) = \"x\" * (50 + m + n), 1..3, 1..2))");
    let text = text.as_str().unwrap();
    let note = text.lines().last().unwrap();
    assert!(note.contains("cuts 6 cells"), "{note}");
    assert!(
        note.contains("row 1, column 1; row 1, column 2; row 2, column 1; and 3 more"),
        "{note}"
    );
}
