//! Pictures and interop: the tests open what they write. PNGs are decoded and
//! pixels read at known cells, SVGs parsed as XML, DOT parsed for its nodes and edges, GAP and
//! `.tws` files read back; GAP itself is run when it is installed. A test that needs Graphviz or
//! GAP is skipped without it as tests/tools/mod.rs says.
mod common;
mod tools;
use gamut::engine::group::export::{HOP_COLOURS, WALK_LEFT, WALK_TOP, walk_swatch};
use gamut::lang::run::eval::Interp;
use std::cell::RefCell;
use std::rc::Rc;

fn path(d: &std::path::Path, f: &str) -> String {
    d.join(f).to_string_lossy().into_owned()
}

/// Run source; the printed values as JSON, or the error message and hint.
fn run(src: &str) -> Result<Vec<serde_json::Value>, String> {
    let out = Rc::new(RefCell::new(vec![]));
    let sink = out.clone();
    let mut it = Interp::new(Box::new(move |_, v| sink.borrow_mut().push(v.to_json())));
    it.run_source("<test>", src)
        .map_err(|e| format!("{} (hint: {})", e.message, e.hint.unwrap_or_default()))?;
    Ok(out.take())
}

fn int(src: &str) -> i64 {
    common::value(src)
        .as_i64()
        .unwrap_or_else(|| panic!("{src} is not an integer"))
}

fn parse_svg(text: &str) -> roxmltree::Document<'_> {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opt).unwrap()
}

/// Whether Graphviz is installed; if not, the skip is reported (tests/tools/mod.rs).
fn has_dot() -> bool {
    tools::found(
        std::process::Command::new("dot").arg("-V").output().is_ok(),
        "Graphviz's `dot` is not installed (apt-get install graphviz)",
    )
}

struct Image {
    w: u32,
    h: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn open(p: &str) -> Image {
        let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        let ch = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            c => panic!("unexpected colour type {c:?}"),
        };
        let rgb = buf[..info.buffer_size()]
            .chunks(ch)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Image {
            w: info.width,
            h: info.height,
            rgb,
        }
    }
    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.w + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
    fn count(&self, c: [u8; 3]) -> usize {
        self.rgb.chunks(3).filter(|p| *p == c).count()
    }
}

/// Nodes `nK [...]` and edges `nA -- nB [...]` of a DOT file written by gamut.
fn dot_counts(text: &str) -> (usize, usize, usize) {
    let mut nodes = 0;
    let mut edges = 0;
    let mut ranks = 0;
    for l in text.lines().map(str::trim) {
        if l.starts_with("{ rank=same;") {
            ranks += 1;
        } else if l.starts_with('n') && l.contains(" -- ") {
            edges += 1;
        } else if l.starts_with('n')
            && l.split_whitespace().next().unwrap()[1..]
                .parse::<u32>()
                .is_ok()
        {
            nodes += 1;
        }
    }
    (nodes, edges, ranks)
}

#[test]
fn cayley_dot_has_one_node_per_element_and_one_edge_per_undirected_edge() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for g in ["slide2", "slide3_easy", "slide4_easy", "slide5_easy"] {
        let f = path(d, &format!("{g}.dot"));
        run(&format!("export({g}, \"{f}\")")).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(text.starts_with("graph "), "undirected: {}", &text[..40]);
        let (nodes, edges, ranks) = dot_counts(&text);
        assert_eq!(nodes as i64, int(&format!("order({g})")), "{g}");
        assert_eq!(edges as i64, int(&format!("edges({g})")), "{g}");
        assert_eq!(
            ranks as i64,
            int(&format!("diameter({g}).diameter")) + 1,
            "{g}"
        );
        // a legend naming every generator in its colour
        for (k, name) in ["R", "U", "C"].iter().enumerate() {
            let colour = gamut::engine::group::export::GEN_COLOURS[k];
            assert!(
                text.contains(&format!("<font color=\"{colour}\"><b>━━")),
                "{g}"
            );
            assert!(text.contains(&format!(" {name}</b>")), "{g}");
            assert!(text.contains(&format!("color=\"{colour}\", dir=")), "{g}");
        }
    }
    // the toy version: R and U are involutions (no arrows), C is a quarter turn (arrows)
    let text = std::fs::read_to_string(path(d, "slide2.dot")).unwrap();
    assert!(text.contains("n0 [label=\"I\"]"));
    assert_eq!(text.matches("dir=none").count(), 8);
    assert_eq!(
        text.matches("dir=forward").count() + text.matches("dir=back").count(),
        8
    );
}

#[test]
fn sub_game_graph_draws_each_pattern_as_a_board() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let f = path(d, "sub.dot");
    run(&format!("export(orbit(slide4_easy, {{1, 11}}), \"{f}\")")).unwrap();
    let text = std::fs::read_to_string(&f).unwrap();
    let (nodes, _, _) = dot_counts(&text);
    assert_eq!(nodes as i64, int("orbit(slide4_easy, {1, 11}).size"));
    // each node a 4x4 table with two coloured cells
    let first = text
        .lines()
        .find(|l| l.trim_start().starts_with("n0 [label=<"))
        .unwrap();
    assert_eq!(first.matches("<tr>").count(), 4);
    assert_eq!(first.matches("<td width").count(), 16);
    assert_eq!(first.matches("bgcolor=\"#3b6fd8\"").count(), 2);
}

/// The `<tr>` rows and `<td>` cells of node n0's board in a sub-game DOT file.
fn first_board(text: &str) -> (usize, usize) {
    let first = text
        .lines()
        .find(|l| l.trim_start().starts_with("n0 [label=<"))
        .unwrap();
    (
        first.matches("<tr>").count(),
        first.matches("<td width").count(),
    )
}

#[test]
fn sub_game_pictures_keep_the_board_shape() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // a 2 x 4 slide puzzle (rows right, columns up), and a 3 x 2 one with a single-row move
    for (src, rows, cols) in [
        (
            "group(R: shift(grid(2, 4), \"right\"), U: shift(grid(2, 4), \"up\"))",
            2,
            4,
        ),
        (
            "group(R: shift(grid(3, 2), \"right\", row: 2), U: shift(grid(3, 2), \"up\"))",
            3,
            2,
        ),
        // no move of a board: a square degree is drawn square, else one row
        ("group(A: (1,2,3,4,5,6,7,8,9))", 3, 3),
        ("group(A: (1,2,3,4,5,6,7,8))", 1, 8),
    ] {
        let f = path(d, "sub.dot");
        run(&format!("export(orbit({src}, {{1, 2}}), \"{f}\")")).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        assert_eq!(first_board(&text), (rows, rows * cols), "{src}");
    }
}

/// Elements of an SVG with the given tag and attribute value.
/// The fill of the board pictures' state `s`, as the SVG writes it.
fn hex(s: usize) -> String {
    let c = gamut::engine::board::picture::SHADES[s];
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The texts of an SVG, trimmed.
fn svg_texts<'a>(doc: &'a roxmltree::Document) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect()
}

fn svg_count(doc: &roxmltree::Document, tag: &str, attr: &str, value: &str) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && n.attribute(attr) == Some(value))
        .count()
}

#[test]
fn a_game_of_cycles_picture_shows_cells_arrows_and_the_sink_source_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let svg = path(d, "dd.svg");
    let png = path(d, "dd.png");
    let pos = "cycles(double_diamond, marked: [\"a>b\", \"b>d\"])";
    run(&format!(
        "export({pos}, \"{svg}\")\nexport({pos}, \"{png}\")"
    ))
    .unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = parse_svg(&text);
    let root = doc.root_element();
    assert_eq!(
        (root.attribute("width"), root.attribute("height")),
        (Some("760"), Some("560"))
    );
    let hex = |c: plotters::style::RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    use gamut::engine::cycles::picture::{CELL, FORCED, MARKED, ONE_WAY};
    // the four cells shaded (the legend's swatch is a rectangle)
    assert_eq!(svg_count(&doc, "polygon", "fill", &hex(CELL)), 4);
    // an arrowhead per marked edge, and the legend's
    assert_eq!(svg_count(&doc, "polygon", "fill", &hex(MARKED)), 2 + 1);
    // a vertex circle per vertex (each outlined)
    assert_eq!(svg_count(&doc, "circle", "stroke", "#000000"), 6);
    // the sink/source rule, worked out here from the edges: a's other edges all point out
    // (a>b) and one edge is left, so a is forced; ad has one legal way, the legal moves say
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(FORCED)), 1);
    let moves = common::value(&format!("keys(moves({pos}))"));
    let legal: Vec<&str> = moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let one_way = ["ab", "ad", "bd", "be", "de", "bc", "bf", "cf", "ef"]
        .iter()
        .filter(|e| {
            let (x, y) = (&e[..1], &e[1..]);
            let ways = [format!("{x}>{y}"), format!("{y}>{x}")];
            ways.iter().filter(|w| legal.contains(&w.as_str())).count() == 1
        })
        .count();
    assert_eq!(one_way, 1);
    let open_heads = doc
        .descendants()
        .filter(|n| {
            n.tag_name().name() == "polyline"
                && n.attribute("stroke") == Some(hex(ONE_WAY).as_str())
                && n.attribute("points").unwrap().split_whitespace().count() == 4
        })
        .count();
    assert_eq!(open_heads, one_way + 1, "one per edge and the legend's");
    // the legend names the rule
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.iter().any(|t| t.contains("only this way is legal")));
    assert!(texts.iter().any(|t| t.contains("last edge forced")));
    let img = Image::open(&png);
    assert_eq!((img.w, img.h), (760, 560));
    assert!(img.count([CELL.0, CELL.1, CELL.2]) > 20_000, "shaded cells");
    assert!(
        img.count([FORCED.0, FORCED.1, FORCED.2]) > 300,
        "the forced vertex"
    );
}

#[test]
fn svg_and_png_through_graphviz() {
    if !has_dot() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let svg = path(d, "g.svg");
    let png = path(d, "g.png");
    run(&format!(
        "export(slide4_easy, \"{svg}\")\nexport(slide2, \"{png}\")"
    ))
    .unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = parse_svg(&text);
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.tag_name().name() == "g" && n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(class("node"), 64);
    assert_eq!(class("edge"), 192);
    // the legend is drawn as text
    assert!(doc.descendants().any(|n| {
        n.tag_name().name() == "text"
            && n.text()
                .is_some_and(|t| t.contains("Cayley graph of slide4_easy"))
    }));
    let img = Image::open(&png);
    assert!(img.w > 200 && img.h > 150, "{}x{}", img.w, img.h);
    // the generator colours appear in the picture
    assert!(img.count([0x2c, 0xa0, 0x2c]) > 50, "green C edges");
}

#[test]
fn large_graph_is_drawn_as_distance_layers() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let f = path(d, "hard.dot");
    run(&format!("export(slide3_hard, \"{f}\")")).unwrap();
    let text = std::fs::read_to_string(&f).unwrap();
    assert_eq!(text.matches("[label=\"distance").count(), 18);
    assert!(text.contains("4 elements\"]"));
    let e = run("export(slide4_hard, \"x.dot\")").unwrap_err();
    assert!(e.contains("too many") && e.contains("plot("), "{e}");
}

/// A test skipped for a missing tool says so past libtest's capture, and fails under
/// GAMUT_REQUIRE_TOOLS=1: this test binary runs the Graphviz test with a PATH without `dot`.
#[test]
fn a_missing_tool_is_reported_or_fails_when_required() {
    let run = |require: &str| {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "svg_and_png_through_graphviz"])
            .env("PATH", "")
            .env("GAMUT_REQUIRE_TOOLS", require)
            .output()
            .unwrap()
    };
    let out = run("0");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("SKIPPED in svg_and_png_through_graphviz: Graphviz's `dot` is not installed"),
        "{err}"
    );
    let out = run("1");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("GAMUT_REQUIRE_TOOLS=1 requires"), "{text}");
}

#[test]
fn missing_graphviz_is_explained() {
    // the message when `dot` is absent; PATH without it
    let tmp = tempfile::tempdir().unwrap();
    let svg = path(tmp.path(), "x.svg");
    let e = gamut::engine::group::export::render_dot("graph {}", &svg, "svg");
    if has_dot() {
        assert!(e.is_ok());
    }
    // a child process whose PATH has no `dot`
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamut"))
        .env("PATH", "")
        .arg("-e")
        .arg(format!("export(slide2, {svg:?})"))
        .output()
        .unwrap();
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(msg.contains("apt-get install graphviz"), "{msg}");
}

#[test]
fn walk_matrix_png_colours_cells_as_the_thesis() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let f = path(d, "walk6.png");
    let vals = run(&format!(
        "let w = walks(slide4_easy, 6, order_by: \"<R, U>\", size: 640)\nexport(w, \"{f}\")\nw.hops[0]\nw.order\nw.cosets"
    ))
    .unwrap();
    let row0: Vec<Option<i64>> = vals[1]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64())
        .collect();
    let order: Vec<&str> = vals[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // H = <R, U> first: its 16 elements are words in R and U only
    assert_eq!(order[0], "I");
    assert!(order[..16].iter().all(|w| !w.contains('C')), "{order:?}");
    assert!(order[16..].iter().all(|w| w.contains('C')));
    assert_eq!(vals[3].as_array().unwrap().len(), 4, "four cosets");
    let img = Image::open(&f);
    // 640 pixels of matrix, 10 per entry, plus margins and the legend
    assert_eq!((img.w, img.h), (WALK_LEFT + 640 + 190, WALK_TOP + 640 + 56));
    let cell = |i: u32, j: u32| img.at(WALK_LEFT + 10 * j + 5, WALK_TOP + 10 * i + 5);
    assert_eq!(cell(0, 0), HOP_COLOURS[0], "black diagonal");
    assert_eq!(cell(37, 37), HOP_COLOURS[0]);
    for (j, h) in row0.iter().enumerate() {
        let h = h.expect("every entry reached by 6-walks") as usize;
        assert_eq!(
            cell(0, j as u32),
            HOP_COLOURS[h],
            "entry (0, {j}) at {h} hops"
        );
    }
    assert!(row0.contains(&Some(6)), "red: the far corner");
    assert_eq!(HOP_COLOURS[6], [220, 30, 30]);
    // legend: a swatch per hop count 0..6
    for hop in 0..=6 {
        let (x, y) = walk_swatch(640, hop);
        assert_eq!(
            img.at(x + 8, y + 8),
            HOP_COLOURS[hop as usize],
            "legend {hop}"
        );
    }
    // 2-walks leave white where no walk of length ≤ 2 reaches
    let f2 = path(d, "walk2.png");
    run(&format!(
        "export(walks(slide4_easy, 2), \"{f2}\", size: 320)"
    ))
    .unwrap();
    let img = Image::open(&f2);
    assert_eq!(img.w, WALK_LEFT + 320 + 190);
    assert!(img.count([255, 255, 255]) > 320 * 320 / 2);
    assert_eq!(img.at(WALK_LEFT + 2, WALK_TOP + 2), HOP_COLOURS[0]);
}

#[test]
fn walk_matrix_default_size_is_readable() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // 64 elements: 12 pixels an entry
    let f = path(d, "w.png");
    run(&format!("export(walks(slide4_easy, 1), \"{f}\")")).unwrap();
    assert_eq!(Image::open(&f).w, WALK_LEFT + 768 + 190);
    // 1440 elements: one pixel no longer holds one entry; the side stays 768
    let f = path(d, "big.png");
    run(&format!(
        "let g = group(a: (1,2,3,4,5,6), b: (1,2), c: (7,8))\nexport(walks(g, 1), \"{f}\")"
    ))
    .unwrap();
    let img = Image::open(&f);
    assert_eq!(img.w, WALK_LEFT + 768 + 190);
    assert_eq!(img.at(WALK_LEFT, WALK_TOP), HOP_COLOURS[0]);
    // an SVG of the same matrix parses, one rectangle per entry
    let s = path(d, "w.svg");
    run(&format!("export(walks(slide2, 2), \"{s}\")")).unwrap();
    let text = std::fs::read_to_string(&s).unwrap();
    let doc = parse_svg(&text);
    let rects = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "rect")
        .count();
    assert!(rects >= 64, "{rects}");
    let e = run("walks(slide4_easy, 2, order_by: \"<R, X>\")").unwrap_err();
    assert!(e.contains("no generator `X`"), "{e}");
}

#[test]
fn plots_of_sequences_and_distributions() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let g = path(d, "g.png");
    let b = path(d, "d.svg");
    let l = path(d, "l.png");
    run(&format!(
        "plot(grundy(grundys_game, 0..500), \"{g}\", title: \"Grundy's game\")\nplot(diameter(slide4_easy).distribution, \"{b}\")\nplot([grundy(kayles, 0..60), grundy(dawsons_kayles, 0..60)], \"{l}\", names: [\"Kayles\", \"Dawson\"])"
    ))
    .unwrap();
    let img = Image::open(&g);
    assert_eq!((img.w, img.h), (900, 540));
    assert!(img.count([31, 119, 180]) > 500, "the points");
    let text = std::fs::read_to_string(&b).unwrap();
    let doc = parse_svg(&text);
    // one filled bar per distance 0..6 in the series colour
    let bars = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "rect" && n.attribute("fill") == Some("#1F77B4"))
        .count();
    assert_eq!(bars, 7, "{text}");
    let img = Image::open(&l);
    assert!(img.count([31, 119, 180]) > 100 && img.count([214, 39, 40]) > 100);
    let e = run("plot([1, 2], \"x.pdf\")").unwrap_err();
    assert!(e.contains(".png or .svg"), "{e}");
}

#[test]
fn gap_round_trip_on_every_stdlib_group() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for g in [
        "slide2",
        "slide3_easy",
        "slide3_hard",
        "slide4_easy",
        "slide4_hard",
        "slide5_easy",
        "slide6_easy",
    ] {
        let f = path(d, &format!("{g}.g"));
        let v = run(&format!(
            "export({g}, \"{f}\")\nlet h = import_gap(\"{f}\")\norder(h) == order({g})\ngenerators(h) == generators({g})\nh"
        ))
        .unwrap();
        assert_eq!(v[1], serde_json::json!(true), "{g}");
        assert_eq!(v[2], serde_json::json!(true), "{g}");
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(text.contains(&format!("{g} := Group([(")), "{text}");
    }
}

#[test]
fn appendix_b_from_gap_text_gives_the_thesis_orders() {
    let f = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/appendix_b.g");
    let v = run(&format!(
        "let b = import_gap(\"{f}\")\n[order(b[k]) for k in [\"rs2\", \"rs3e\", \"rs3h\", \"rs4e\", \"rs4h\", \"rs5e\", \"rs6e\"]]\norder(import_gap(\"{f}\", \"rs4h\")) == order(slide4_hard)"
    ))
    .unwrap();
    assert_eq!(
        v[0],
        serde_json::json!([8, 36, 362880, 64, 1625702400i64, 100, 144])
    );
    assert_eq!(v[1], serde_json::json!(true));
}

#[test]
fn gap_agrees_on_every_stdlib_group() {
    if !tools::found(
        std::process::Command::new("gap").arg("-h").output().is_ok(),
        "GAP is not installed (apt-get install gap-core)",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let groups = [
        "slide2",
        "slide3_easy",
        "slide3_hard",
        "slide4_easy",
        "slide4_hard",
        "slide5_easy",
        "slide6_easy",
    ];
    let mut script = String::new();
    let mut want = vec![];
    for g in groups {
        let f = path(d, &format!("{g}.g"));
        let v = run(&format!(
            "export({g}, \"{f}\")\norder({g})\norbits({g}, sets(1)).orbits\n[order(p) for p in [generators({g})[\"R\"], generators({g})[\"U\"], generators({g})[\"C\"], eval_word({g}, \"R U C\")]]"
        ))
        .unwrap();
        want.push(format!(
            "{} {} {}",
            v[1],
            v[2],
            v[3].as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ));
        script.push_str(&format!(
            "Read(\"{f}\");; G := {g};; gs := GeneratorsOfGroup(G);; Print(Size(G), \" \", Length(Orbits(G, [1..LargestMovedPoint(G)])), \" \", JoinStringsWithSeparator(List(Concatenation(gs, [gs[1]*gs[2]*gs[3]]), x -> String(Order(x))), \",\"), \"\\n\");\n"
        ));
    }
    // the thesis' Appendix B, read by GAP itself
    script.push_str(&format!(
        "Read(\"{}\");; Print(List([rs2,rs3e,rs3h,rs4e,rs4h,rs5e,rs6e], Size), \"\\n\");\n",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/appendix_b.g")
    ));
    let out = std::process::Command::new("gap")
        .args(["-q", "-b"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(script.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    for (k, g) in groups.iter().enumerate() {
        assert_eq!(
            lines[k].trim(),
            want[k],
            "{g}: GAP says {:?}, gamut {:?}",
            lines[k],
            want[k]
        );
    }
    assert_eq!(
        lines[groups.len()].replace(' ', ""),
        "[8,36,362880,64,1625702400,100,144]"
    );
}

#[test]
fn tws_round_trip_and_refusals() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for g in ["slide2", "slide3_hard", "slide4_hard", "slide6_easy"] {
        let f = path(d, &format!("{g}.tws"));
        let v = run(&format!(
            "export({g}, \"{f}\")\nlet h = import_tws(\"{f}\")\norder(h) == order({g})\ngenerators(h) == generators({g})"
        ))
        .unwrap();
        assert_eq!(v[1], serde_json::json!(true), "{g}");
        assert_eq!(v[2], serde_json::json!(true), "{g}");
    }
    // a hand-written puzzle: the 3-cycle and a swap make S3, 6 positions, God's number 2
    let f = path(d, "s3.tws");
    std::fs::write(
        &f,
        "Name s3\n# comment\nSet P 3 1\nSolved\nP\n1 2 3\nEnd\nMove A\nP\n3 1 2\nEnd\nMove B\nP\n2 1 3\nEnd\n",
    )
    .unwrap();
    let v = run(&format!(
        "let s = import_tws(\"{f}\")\norder(s)\ndiameter(s).diameter\ngenerators(s)"
    ))
    .unwrap();
    assert_eq!(v[0], serde_json::json!(6));
    assert_eq!(v[1], serde_json::json!(2));
    // new[i] = old[list[i]]: A takes the piece at 3 to 1, so in gamut A = (1,2,3)
    assert_eq!(v[2]["A"], serde_json::json!("(1,2,3)"));
    let two = path(d, "two.tws");
    std::fs::write(&two, "Set A 2 1\nSet B 2 1\nMove X\nA\n2 1\nB\n1 2\nEnd\n").unwrap();
    let e = run(&format!("import_tws(\"{two}\")")).unwrap_err();
    assert!(e.contains("one piece set"), "{e}");
    let ori = path(d, "ori.tws");
    std::fs::write(&ori, "Set C 3 3\nMove X\nC\n2 3 1\n1 1 1\nEnd\n").unwrap();
    let e = run(&format!("import_tws(\"{ori}\")")).unwrap_err();
    assert!(e.contains("orientation"), "{e}");
}

#[test]
fn a_game_of_cycles_position_exports_with_arrows_on_marked_edges() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let f = path(d, "dd.dot");
    run(&format!(
        "export(cycles(double_diamond, marked: [\"a>b\", \"b>d\"]), \"{f}\")"
    ))
    .unwrap();
    let text = std::fs::read_to_string(&f).unwrap();
    // 9 edges, two of them directed
    assert_eq!(
        text.matches(" -- ").count() + text.matches(" -> ").count(),
        9,
        "{text}"
    );
    assert!(run(&format!("export(cycles(diamond), \"{}\")", path(d, "x.g"))).is_err());
}

/// `export(x)` and `plot(data)` without a file are picture values: one line of text, a JSON
/// object, drawn on demand (as notebooks show them) and saved by `export(picture, file)` to the
/// same file as `export(x, file)`.
#[test]
fn pictures_are_values_that_export_saves() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (a, b) = (path(d, "a.dot"), path(d, "b.dot"));
    let out = run(&format!(
        "let p = export(slide2)\np\nexport(p, \"{a}\")\nexport(slide2, \"{b}\")\nplot([3, 1, 2])"
    ))
    .unwrap();
    assert_eq!(out[0]["formats"], serde_json::json!(["svg", "png", "dot"]));
    let title = out[0]["picture"].as_str().unwrap();
    assert!(
        title.starts_with("Cayley graph of slide2: 8 elements"),
        "{title}"
    );
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(out[3]["formats"], serde_json::json!(["svg", "png"]));
    let e = run(&format!("export(plot([1, 2]), \"{}\")", path(d, "c.dot"))).unwrap_err();
    assert!(e.contains("saves as .svg or .png, not .dot"), "{e}");
    let e = run("export(export(slide2), \"c.svg\", size: 100)").unwrap_err();
    assert!(e.contains("`size:`"), "{e}");
    // the values themselves, drawn as a notebook draws them
    let shown = Rc::new(RefCell::new(vec![]));
    let sink = shown.clone();
    let mut it = Interp::new(Box::new(move |_, v| sink.borrow_mut().push(v.clone())));
    it.run_source(
        "<test>",
        "plot([3, 1, 2])\nexport(walks(slide2, 2))\nexport(slide2)",
    )
    .unwrap();
    let shown = shown.take();
    let pictures: Vec<_> = shown
        .iter()
        .map(|v| match v {
            gamut::lang::run::value::Value::Picture(p) => p.clone(),
            v => panic!("not a picture: {}", v.to_text()),
        })
        .collect();
    assert!(
        shown[0]
            .to_text()
            .starts_with("<picture: a bar chart of 3 values; export(p, \"file.svg\")")
    );
    // numbers in a picture's title are grouped as everywhere in text output
    assert!(common::run_e("export(slide3_hard)").1.starts_with(
        "<picture: Cayley graph of slide3_hard: 362_880 elements (more than 2_048, so"
    ));
    // the elements `tag` of a picture's SVG whose attribute `attr` is `value`
    let count = |p: &gamut::lang::run::value::Picture, tag: &str, attr: &str, value: &str| {
        let svg = String::from_utf8(p.bytes("svg").unwrap()).unwrap();
        parse_svg(&svg)
            .descendants()
            .filter(|n| n.tag_name().name() == tag && n.attribute(attr) == Some(value))
            .count()
    };
    assert_eq!(
        count(&pictures[0], "rect", "fill", "#1F77B4"),
        3,
        "the bars"
    );
    // a walk matrix shows as PNG
    assert_eq!(pictures[1].formats[0], "png");
    let png = pictures[1].bytes("png").unwrap();
    assert_eq!(&png[1..4], b"PNG");
    if has_dot() {
        assert_eq!(count(&pictures[2], "g", "class", "node"), 8, "the elements");
    }
}

#[test]
fn a_board_game_picture_shades_and_letters_each_cell_by_its_state() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (grid_svg, graph_svg, png) = (path(d, "k.svg"), path(d, "g.svg"), path(d, "k.png"));
    let rules = "game knights on board {
    cells empty, knight, attacked
    move c to knight, attacks(knight, c) from empty to attacked for c in empty
}
game nk on board { move c, adjacent(c) to filled for c in empty }
let p = options(options(knights(grid(4, 5)))[3])[6]
let q = options(nk(graph { a - b - c - d, b - e }))[0]
";
    let shown = run(&format!("{rules}show(p)\nshow(q)")).unwrap();
    run(&format!(
        "{rules}export(p, \"{grid_svg}\")\nexport(p, \"{png}\")\nexport(q, \"{graph_svg}\")"
    ))
    .unwrap();
    // the cells in each state, read from the text drawing: ". k a" by rows
    let text = shown[0].as_str().unwrap();
    let count = |ch: char| {
        text.split_whitespace()
            .filter(|t| t.starts_with(ch))
            .count()
    };
    let (empty, knight, attacked) = (count('.'), count('k'), count('a'));
    assert_eq!(empty + knight + attacked, 20);
    assert!(knight == 2 && attacked > 0, "{text}");
    let svg = std::fs::read_to_string(&grid_svg).unwrap();
    let doc = parse_svg(&svg);
    // a square per cell and a swatch per state in the legend; the page is white as well
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(0)), empty + 1 + 1);
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(1)), knight + 1);
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(2)), attacked + 1);
    let texts = svg_texts(&doc);
    assert_eq!(texts.iter().filter(|t| **t == "k").count(), knight + 1);
    assert_eq!(texts.iter().filter(|t| **t == "a").count(), attacked + 1);
    assert!(texts.iter().any(|t| t.contains("knights(grid(4, 5))")));
    assert!(texts.contains(&&*format!("attacked ({attacked})")));
    let img = Image::open(&png);
    assert_eq!((img.w, img.h), (760, 560));
    let k = gamut::engine::board::picture::SHADES[1];
    assert!(
        img.count([k.0, k.1, k.2]) > 2 * 80 * 80,
        "the two knights' squares"
    );
    // a graph board: a circle per vertex, shaded by state; the first option fills a and b
    let graph = shown[1].as_str().unwrap();
    let filled = graph.lines().filter(|l| l.ends_with(": filled")).count();
    assert_eq!(filled, 2, "{graph}");
    let svg = std::fs::read_to_string(&graph_svg).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(1)), filled);
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(0)), 5 - filled);
    // only pictures
    let e = run(&format!("{rules}export(p, \"{}\")", path(d, "p.dot"))).unwrap_err();
    assert!(
        e.contains("a position exports to .svg or .png, not .dot"),
        "{e}"
    );
}

#[test]
fn a_placement_picture_shades_pieces_attacked_and_free_squares_as_show_draws_them() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (svg_path, graph_path) = (path(d, "p.svg"), path(d, "n.svg"));
    let setup = "let p = options(options(placement(grid(4, 4), [knight, queen]))[3])[10]
let q = options(node_kayles(graph { a - b - c - d - a, a - c }))[0]
";
    let shown = run(&format!("{setup}show(p)\nshow(q)")).unwrap();
    run(&format!(
        "{setup}export(p, \"{svg_path}\")\nexport(q, \"{graph_path}\")"
    ))
    .unwrap();
    // `show` draws `.` free, `x` attacked, N and Q the pieces
    let text = shown[0].as_str().unwrap();
    let count = |t: &str| text.split_whitespace().filter(|w| *w == t).count();
    let (free, knights, queens, attacked) = (count("."), count("N"), count("Q"), count("x"));
    assert_eq!(free + knights + queens + attacked, 16, "{text}");
    assert!(knights == 1 && queens == 1 && attacked > 0, "{text}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = parse_svg(&svg);
    // a square per cell and a swatch per state; the page is white as well
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(0)), free + 2);
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(1)), knights + 1);
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(2)), queens + 1);
    assert_eq!(svg_count(&doc, "rect", "fill", &hex(3)), attacked + 1);
    let texts = svg_texts(&doc);
    assert_eq!(texts.iter().filter(|t| **t == "x").count(), attacked + 1);
    assert!(
        texts.contains(&&*format!("attacked ({attacked})")),
        "{texts:?}"
    );
    // Node-Kayles: the chosen vertex and its neighbours
    let graph = shown[1].as_str().unwrap();
    let n = |s: &str| graph.lines().filter(|l| l.ends_with(s)).count();
    let svg = std::fs::read_to_string(&graph_path).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(1)), n(": chosen"));
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(2)), n(": blocked"));
    assert_eq!(svg_count(&doc, "circle", "fill", &hex(0)), n(": free"));
    // more kinds of piece than a picture tells apart
    let e = run(&format!(
        "export(placement(grid(3, 3), [knight, queen, king, rook, bishop]), \"{}\")",
        path(d, "m.svg")
    ))
    .unwrap_err();
    assert!(e.contains("at most 6 states"), "{e}");
}

#[test]
fn a_dots_and_boxes_picture_draws_the_lines_and_shades_the_complete_boxes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let svg_path = path(d, "d.svg");
    // Sam Loyd's puzzle with one more line: no box is complete; then every line around two boxes
    for drawn in [
        "AB BC CD FG KL NO OP AE EI FJ IM JN EF",
        "AB BC AE BF CG EF FG IJ",
    ] {
        let pos = format!("dots(3, 3, drawn: \"{drawn}\")");
        let shown = run(&format!("show({pos})\nexport({pos}, \"{svg_path}\")")).unwrap();
        let text = shown[0].as_str().unwrap();
        let boxes = text.matches('#').count();
        let lines = drawn.split_whitespace().count();
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        let doc = parse_svg(&svg);
        assert_eq!(svg_count(&doc, "rect", "fill", "#8EB8E5"), boxes, "{text}");
        assert_eq!(svg_count(&doc, "polyline", "stroke-width", "5"), lines);
        assert_eq!(svg_count(&doc, "polyline", "stroke-width", "1"), 24 - lines);
        assert_eq!(svg_count(&doc, "circle", "fill", "#000000"), 16, "the dots");
        if drawn.len() < 30 {
            assert_eq!(boxes, 2, "{text}");
        }
    }
}

#[test]
fn a_picture_of_a_game_on_edges_draws_each_edge_by_its_state_and_direction() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (svg_path, png) = (path(d, "e.svg"), path(d, "e.png"));
    let setup = "game cyc on edges {
    cells unmarked, marked
    move e to marked for e in unmarked if some into(head(e)) - e is not marked and some out_of(tail(e)) - e is not marked
    end for f in faces if f is marked
}
let p = options(options(cyc(double_diamond))[2])[5]
";
    let shown = run(&format!("{setup}show(p)")).unwrap();
    run(&format!(
        "{setup}export(p, \"{svg_path}\")\nexport(p, \"{png}\")"
    ))
    .unwrap();
    // the edges as `show` lists them: `a -> b` marked, `a -- b` unmarked
    let text = shown[0].as_str().unwrap();
    let marked = text.matches("->").count();
    let unmarked = text.matches("--").count();
    assert_eq!((marked, marked + unmarked), (2, 9), "{text}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = parse_svg(&svg);
    // a line in the marked shade and an arrowhead per marked edge
    assert_eq!(svg_count(&doc, "polyline", "stroke", &hex(1)), marked);
    assert_eq!(svg_count(&doc, "polygon", "fill", &hex(1)), marked);
    assert_eq!(svg_count(&doc, "polyline", "stroke", "#999999"), unmarked);
    let texts = svg_texts(&doc);
    assert_eq!(texts.iter().filter(|t| **t == "m").count(), marked + 1);
    assert!(texts.contains(&&*format!("marked ({marked})")), "{texts:?}");
    assert!(
        texts.contains(&&*format!("unmarked ({unmarked})")),
        "{texts:?}"
    );
    // every vertex named
    for v in ["a", "b", "c", "d", "e", "f"] {
        assert!(texts.contains(&v), "{v}: {texts:?}");
    }
    let img = Image::open(&png);
    assert_eq!((img.w, img.h), (760, 560));
    let m = gamut::engine::board::picture::SHADES[1];
    assert!(img.count([m.0, m.1, m.2]) > 200, "the marked edges");
}

/// A picture whose file cannot be written is an error, SVG included (the drawing library
/// flushed its SVG file on drop, where a full disk went unnoticed and "wrote" was printed).
#[test]
fn a_failed_write_is_an_error_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (name, value) in [
        ("a.svg", "cycles(diamond)"),
        ("b.svg", "dots(2, 2)"),
        ("c.png", "dots(2, 2)"),
        ("d.svg", "plot([1, 2, 3])"),
    ] {
        let file = dir.join(name);
        std::os::unix::fs::symlink("/dev/full", &file).unwrap();
        let out = common::gamut()
            .arg("-e")
            .arg(format!("export({value}, {:?})", file.display().to_string()))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains("No space left on device"), "{name}: {err}");
    }
}
