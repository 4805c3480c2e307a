//! Pictures and interop: `walks`, `export` (DOT/SVG/PNG pictures, GAP `.g`, twsearch `.tws`),
//! `plot`, `import_gap`, `import_tws`. The drawing and the file formats live in the engine floor
//! (engine::group::{export, gap, tws}, engine::plot); this file turns values into their inputs.
use crate::engine::ErrorKind::{Limit, Memory};
use crate::engine::control::num;
use crate::engine::group::cayley::{SchreierGraph, State};
use crate::engine::group::export::{self as pic, NodeLabel};
use crate::engine::group::perm::Perm;
use crate::engine::group::{GroupVal, gap, search, tws};
use crate::engine::partizan::Dyadic;
use crate::engine::plot;
use crate::lang::error::{Error, Result};
use crate::lang::run::cgt::{Form, store};
use crate::lang::run::eval::{Args, Interp};
use crate::lang::run::groups::{
    PICTURE_LIMIT, STATE_LIMIT, get_group, identity_state, moves_of, pattern,
};
use crate::lang::run::value::{DRAWN_FORMATS, GRAPH_FORMATS, Picture, Value, extension};
use crate::lang::syntax::ast::Span;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::rc::Rc;

pub fn register(it: &mut Interp) {
    it.add_builtin(
        "walks",
        "walks(G, n, order_by: H, size: px)",
        "the walk matrix I + A + ... + A^n of the Cayley graph: {n, size, nonzero}; .matrix, .hops and .order on request; order_by: a subgroup <R, U> orders rows and columns by its cosets; size: the picture's side in pixels",
        walks,
    );
    it.add_builtin(
        "export",
        "export(x) or export(x, file, size: px)",
        "a picture of x, shown inline in notebooks; with a file, write it there (.svg, .png, .dot as the picture allows) and return \"wrote FILE\". x: a group (its Cayley graph; to a file also GAP .g or twsearch .tws), orbit(G, X) (its sub-game graph), walks(G, n) (the walk matrix coloured by distance), a Game of Cycles position (cells, arrows, the sink/source rule, a legend), a position of a board game by rules, impartial or partizan (cells shaded and lettered by state), a Domineering, Clobber or Toads-and-Frogs position (its squares, Left's blue, Right's red), a Hackenbush position (the ground, vertices, edges blue, red and green), a placement or Node-Kayles position (pieces, attacked and free squares), a Dots-and-Boxes position (drawn lines, complete boxes), or a picture",
        export,
    );
    it.add_builtin(
        "plot",
        "plot(data, kind:, title:, x:, x_label:, y_label:, size:), or plot(data, file, ...)",
        "a chart as a picture, or written to a .png or .svg file: a thermograph(G); a list of numbers as a scatter plot (bars when short, or kind: \"bar\"), a list of lists as lines (names: labels them); x: a..b gives the first x",
        plot_builtin,
    );
    it.add_builtin(
        "import_gap",
        "import_gap(file) or import_gap(file, name)",
        "the group(s) assigned as name := Group([...]) in a GAP file: one group, or a map name: group",
        import_gap,
    );
    it.add_builtin(
        "import_tws",
        "import_tws(file)",
        "the group of a twsearch/ksolve puzzle with one piece set and no orientation",
        import_tws,
    );
}

/// "C C R U U" → "C^2 R U^2"; the identity is "I". A half turn is written with a positive
/// exponent ("C^-1 C^-1" → "C^2" when C has order 4), as the thesis does.
fn compress(tokens: &[&str], orders: &[(String, u128)]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < tokens.len() {
        let mut k = 1;
        while i + k < tokens.len() && tokens[i + k] == tokens[i] {
            k += 1;
        }
        let t = tokens[i];
        if k == 1 {
            out.push(t.to_string());
        } else if let Some(base) = t.strip_suffix("^-1") {
            let half = orders.iter().any(|(n, o)| n == base && *o == 2 * k as u128);
            out.push(if half {
                format!("{base}^{k}")
            } else {
                format!("{base}^-{k}")
            });
        } else {
            out.push(format!("{t}^{k}"));
        }
        i += k;
    }
    if out.is_empty() {
        "I".into()
    } else {
        out.join(" ")
    }
}

/// Shortest words of every vertex of a graph searched from the identity.
fn words(sg: &SchreierGraph, names: &[String], g: &GroupVal) -> Vec<String> {
    let orders: Vec<(String, u128)> = g
        .gens
        .iter()
        .map(|(n, p)| (n.to_string(), p.order()))
        .collect();
    (0..sg.len() as u32)
        .map(|v| {
            let p = sg.path_to(v);
            let t: Vec<&str> = p.iter().map(|&j| names[j].as_str()).collect();
            compress(&t, &orders)
        })
        .collect()
}

fn group_name(g: &GroupVal) -> String {
    g.to_string()
}

/// The sides a walk matrix may have, in pixels.
const SIDES: std::ops::RangeInclusive<i64> = 16..=8192;

fn walks(it: &mut Interp, a: &mut Args) -> Result<Value> {
    let order_by = a.kw("order_by");
    let size = a.kw_int_in("size", SIDES, "the matrix side in pixels")?;
    a.no_more_kw()?;
    a.count(2, 2)?;
    let g = get_group(a, 0)?;
    let n = a.nonneg(1)? as usize;
    if n > 64 {
        return Err(Error::runtime(
            "walks up to length 64 are supported",
            a.span_of(1),
        ));
    }
    let (names, moves) = moves_of(&g);
    if g.order() > BigUint::from(PICTURE_LIMIT) {
        return Err(Error::runtime(
            format!(
                "walks needs a group of at most {PICTURE_LIMIT} elements, this one has {}",
                g.order()
            ),
            a.span_of(0),
        )
        .hint("for a larger group, diameter(G).distribution gives the layer sizes; plot them with plot(...)"));
    }
    let sg = SchreierGraph::explore(&moves, &identity_state(g.degree)?, PICTURE_LIMIT, &it.ctl)?;
    let size_n = sg.len();
    let bytes = (size_n * size_n * 24) as u64;
    it.ctl.reserve(bytes, "the walk matrix")?;
    // the order of rows and columns
    let (order, blocks, note) = match &order_by {
        None => (
            (0..size_n).collect::<Vec<_>>(),
            vec![],
            "rows and columns: the elements in breadth-first order from I (shortest words)"
                .to_string(),
        ),
        Some((v, span)) => {
            let (hname, hperms) = subgroup_of(&g, v, *span)?;
            let (ord, starts) = pic::coset_order(&sg, &hperms, g.degree, &it.ctl)
                .map_err(|e| Error::from(e).at(*span))?;
            let w = words(&sg, &names, &g);
            let blocks: Vec<(usize, String)> = starts
                .iter()
                .map(|&s| {
                    let rep = &w[ord[s]];
                    (
                        s,
                        if rep == "I" {
                            "H".to_string()
                        } else {
                            format!("{rep} H")
                        },
                    )
                })
                .collect();
            let note = format!(
                "rows and columns: the {} cosets gH of H = {hname} ({} elements each)",
                blocks.len(),
                size_n / blocks.len().max(1)
            );
            (ord, blocks, note)
        }
    };
    let mut pos = vec![0usize; size_n];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    // counts of walks of length ≤ n, row by row: W_k = W_{k-1} A, accumulated
    let mut total = vec![vec![0u128; size_n]; size_n];
    let mut hops = vec![vec![None; size_n]; size_n];
    let overflow = || Error::plain("walk counts overflow 128 bits; ask for shorter walks");
    for (i, &s) in order.iter().enumerate() {
        it.ctl.check()?;
        let mut cur = vec![0u128; size_n];
        cur[s] = 1;
        total[i][i] = 1;
        hops[i][i] = Some(0u32);
        for k in 1..=n {
            let mut next = vec![0u128; size_n];
            for (u, &c) in cur.iter().enumerate() {
                if c != 0 {
                    for &w in &sg.adj[u * sg.m..(u + 1) * sg.m] {
                        next[w as usize] = next[w as usize].checked_add(c).ok_or_else(overflow)?;
                    }
                }
            }
            for (w, &c) in next.iter().enumerate() {
                if c != 0 {
                    let j = pos[w];
                    total[i][j] = total[i][j].checked_add(c).ok_or_else(overflow)?;
                    hops[i][j].get_or_insert(k as u32);
                }
            }
            cur = next;
        }
    }
    let nonzero = hops.iter().flatten().filter(|h| h.is_some()).count();
    let matrix = Value::list(
        total
            .iter()
            .map(|r| Value::list(r.iter().map(|&c| Value::from_u128(c)).collect()))
            .collect(),
    );
    let hop_rows = Value::list(
        hops.iter()
            .map(|r| {
                Value::list(
                    r.iter()
                        .map(|h| h.map_or(Value::None, |d| Value::Int(d as i64)))
                        .collect(),
                )
            })
            .collect(),
    );
    let w = words(&sg, &names, &g);
    let order_words = Value::list(order.iter().map(|&v| Value::str(&w[v])).collect());
    let block_vals = Value::list(
        blocks
            .iter()
            .map(|(s, name)| Value::list(vec![Value::Int(*s as i64), Value::str(name)]))
            .collect(),
    );
    Ok(Value::record_with_hidden(
        vec![
            ("n", Value::Int(n as i64)),
            ("size", Value::Int(size_n as i64)),
            ("nonzero", Value::Int(nonzero as i64)),
        ],
        vec![
            ("matrix", matrix),
            ("hops", hop_rows),
            ("order", order_words),
            ("cosets", block_vals),
            ("order_note", Value::str(&note)),
            ("group", Value::Group(g.clone())),
            ("picture_size", size.map_or(Value::None, Value::Int)),
        ],
    ))
}

/// The subgroup for `order_by:`: a group, or generator names of G as "<R, U>", "R, U" or
/// ["R", "U"]. Returns its name and generators.
fn subgroup_of(
    g: &GroupVal,
    v: &Value,
    span: crate::lang::syntax::ast::Span,
) -> Result<(String, Vec<Perm>)> {
    let names: Vec<String> = match v {
        Value::Group(h) => return Ok((h.to_string(), h.perms())),
        Value::Str(s) => s
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect(),
        Value::List(xs) if xs.iter().all(|x| matches!(x, Value::Str(_))) => xs
            .iter()
            .map(|x| x.to_text().trim_matches('"').to_string())
            .collect(),
        _ => {
            return Err(Error::runtime(
                format!(
                    "`order_by:` takes a subgroup: generator names such as \"<R, U>\" or [\"R\", \"U\"], or a group; not {}",
                    v.a_type()
                ),
                span,
            ));
        }
    };
    let mut perms = vec![];
    for n in &names {
        let Some((_, p)) = g.gens.iter().find(|(m, _)| **m == **n) else {
            let have: Vec<&str> = g.gens.iter().map(|(m, _)| &**m).collect();
            return Err(Error::runtime(
                format!(
                    "{g} has no generator `{n}`; its generators are {}",
                    have.join(", ")
                ),
                span,
            ));
        };
        perms.push(p.clone());
    }
    if perms.is_empty() {
        return Err(Error::runtime("`order_by:` names no generator", span));
    }
    Ok((format!("<{}>", names.join(", ")), perms))
}

/// An extension as messages name it.
fn as_ext(ext: &str) -> String {
    if ext.is_empty() {
        "a name without an extension".into()
    } else {
        format!(".{ext}")
    }
}

/// A walk matrix is shown as PNG in notebooks: its SVG holds an element per entry.
const MATRIX_FORMATS: &[&str] = &["png", "svg"];

/// A picture of a Graphviz graph.
fn graph_picture(title: String, dot_text: String) -> Picture {
    Picture {
        title,
        formats: GRAPH_FORMATS,
        draw: Box::new(move |path| match extension(path).as_str() {
            "dot" => {
                std::fs::write(path, &dot_text).map_err(|e| format!("cannot write {path}: {e}"))
            }
            ext => pic::render_dot(&dot_text, path, ext),
        }),
    }
}

/// `export(x)`: x's picture; `export(x, file)`: writes it (or a group as GAP or twsearch text)
/// and returns "wrote FILE".
fn export(it: &mut Interp, a: &mut Args) -> Result<Value> {
    let size_kw = a.kw_int("size")?;
    a.no_more_kw()?;
    a.count(1, 2)?;
    let file = if a.len() == 2 { Some(a.str(1)?) } else { None };
    let ext = file.as_deref().map(extension);
    if let (Value::Group(g), Some(e @ ("g" | "gap" | "tws" | "def"))) = (a.get(0), ext.as_deref()) {
        let path = file.as_deref().unwrap_or_default();
        let gens: Vec<(String, Perm)> = g
            .gens
            .iter()
            .map(|(n, p)| (n.to_string(), p.clone()))
            .collect();
        let text = if e.starts_with('g') {
            gap::write(&group_name(g), &gens)
        } else {
            tws::write(&group_name(g), g.degree, &gens)
        };
        std::fs::write(path, text)
            .map_err(|e| Error::runtime(format!("cannot write {path}: {e}"), a.span_of(1)))?;
        return Ok(Value::str(&format!("wrote {path}")));
    }
    let picture = match a.get(0) {
        Value::Picture(p) if size_kw.is_none() => p.clone(),
        Value::Picture(_) => {
            return Err(Error::runtime(
                "`size:` is given where the picture is made, not when it is saved",
                a.span,
            ));
        }
        _ => Rc::new(picture_of(it, a, size_kw, ext.as_deref())?),
    };
    match file {
        None => Ok(Value::Picture(picture)),
        Some(path) => save(&picture, &path, a.span_of(1)),
    }
}

/// Writes a picture to `path`, in the format its extension names.
fn save(p: &Picture, path: &str, span: Span) -> Result<Value> {
    let ext = extension(path);
    if !p.formats.contains(&ext.as_str()) {
        return Err(Error::runtime(
            format!(
                "this picture saves as {}, not {}",
                p.format_list(),
                as_ext(&ext)
            ),
            span,
        ));
    }
    (p.draw)(path).map_err(|m| Error::runtime(m, span))?;
    Ok(Value::str(&format!("wrote {path}")))
}

/// The picture `export` draws of a value. `ext`, the file extension asked for, is checked
/// before the drawing is prepared.
fn picture_of(
    it: &mut Interp,
    a: &Args,
    size_kw: Option<i64>,
    ext: Option<&str>,
) -> Result<Picture> {
    let accept = |what: &str, formats: &[&str], want: &str| match ext {
        Some(e) if !formats.contains(&e) => Err(Error::runtime(
            format!("{what} exports to {want}, not {}", as_ext(e)),
            a.span_of(1),
        )),
        _ => Ok(()),
    };
    let v = a.get(0);
    if let Value::Position(p) = v
        && let [c] = p.comps.as_slice()
        && let Some(pic) = c.rs.family.picture(v)
    {
        let what = format!("a {}", c.rs.family.type_name());
        accept(&what, pic.formats, &pic.format_list())?;
        return Ok(pic);
    }
    match a.get(0).clone() {
        Value::Group(g) => {
            accept(
                "a group",
                GRAPH_FORMATS,
                ".dot, .svg or .png (its Cayley graph), .g (GAP) or .tws (twsearch)",
            )?;
            let (title, text) = cayley_dot(it, &g)?;
            Ok(graph_picture(title, text))
        }
        Value::Record(r) if r.fields.contains_key("pattern") => {
            accept("a sub-game graph", GRAPH_FORMATS, ".dot, .svg or .png")?;
            let (Some(Value::Group(g)), Some(p)) = (r.fields.get("group"), r.fields.get("pattern"))
            else {
                unreachable!("orbit records carry both")
            };
            let probe = Args {
                name: "export",
                vals: vec![(p.clone(), a.span_of(0))],
                kw: vec![],
                span: a.span,
            };
            let (st, _) = pattern(&probe, 0, g.degree)?;
            let (title, text) = orbit_dot(it, g, &st, p)?;
            Ok(graph_picture(title, text))
        }
        Value::Record(r) if r.fields.contains_key("hops") => {
            accept("a walk matrix", MATRIX_FORMATS, ".png or .svg")?;
            walk_picture(&r.fields, size_kw, a.span)
        }
        _ => Err(a.type_error(
            0,
            "a group, an orbit(G, X) record, a walks(G, n) record, a Game of Cycles, placement, Dots-and-Boxes, board game, Domineering, Clobber, Toads-and-Frogs or Hackenbush position, or a picture",
        )),
    }
}

/// The picture of a `walks(G, n)` record: its matrix coloured by distance.
fn walk_picture(
    fields: &indexmap::IndexMap<&'static str, Value>,
    size_kw: Option<i64>,
    span: Span,
) -> Result<Picture> {
    let Some(Value::List(rows)) = fields.get("hops") else {
        unreachable!("walk records carry their hops")
    };
    let hops: Vec<Vec<Option<u32>>> = rows
        .iter()
        .map(|row| match row {
            Value::List(xs) => xs
                .iter()
                .map(|x| {
                    if let Value::Int(d) = x {
                        Some(*d as u32)
                    } else {
                        None
                    }
                })
                .collect(),
            _ => vec![],
        })
        .collect();
    let n = match fields.get("n") {
        Some(Value::Int(k)) => *k as u32,
        _ => 0,
    };
    let blocks: Vec<(usize, String)> = match fields.get("cosets") {
        Some(Value::List(bs)) => bs
            .iter()
            .filter_map(|b| match b {
                Value::List(xs) => match (xs.first(), xs.get(1)) {
                    (Some(Value::Int(s)), Some(Value::Str(name))) => {
                        Some((*s as usize, name.to_string()))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => vec![],
    };
    let note = match fields.get("order_note") {
        Some(Value::Str(s)) => s.to_string(),
        _ => String::new(),
    };
    let gname = match fields.get("group") {
        Some(Value::Group(g)) => group_name(g),
        _ => "G".into(),
    };
    let size = size_kw.or(match fields.get("picture_size") {
        Some(Value::Int(s)) => Some(*s),
        _ => None,
    });
    let side = match size {
        Some(s) if !SIDES.contains(&s) => {
            return Err(Error::runtime(
                format!("`size:` is the matrix side in pixels, 16..8192, not {s}"),
                span,
            ));
        }
        Some(s) => s as u32,
        None => pic::default_side(hops.len()),
    };
    let title = format!(
        "{n}-walks of {gname}: I + A + ... + A^{n}, {} elements",
        num(hops.len())
    );
    Ok(Picture {
        title: title.clone(),
        formats: MATRIX_FORMATS,
        draw: Box::new(move |path| {
            // an SVG has an element per entry: at most 16 pixels an entry, 1024 in all
            let side = if extension(path) == "svg" {
                side.min(hops.len().max(1) as u32 * 16).min(1024)
            } else {
                side
            };
            let picture = pic::WalkPicture {
                hops: &hops,
                n,
                title: &title,
                order_note: &note,
                blocks: &blocks,
                side,
            };
            pic::walk_picture(&picture, path)
        }),
    })
}

/// Generators as (name, move index) for the picture's colours.
fn gen_moves(g: &GroupVal) -> Vec<(String, usize)> {
    let (_, moves) = moves_of(g);
    let mut out: Vec<(String, usize)> = vec![];
    for (n, p) in &g.gens {
        if let Some(j) = moves.iter().position(|m| m == p)
            && !out.iter().any(|(_, k)| *k == j)
        {
            out.push((n.to_string(), j));
        }
    }
    out
}

/// The Cayley graph of G as (title, DOT text).
fn cayley_dot(it: &mut Interp, g: &GroupVal) -> Result<(String, String)> {
    let (names, moves) = moves_of(g);
    let order = g.order();
    let id = identity_state(g.degree)?;
    if order > BigUint::from(PICTURE_LIMIT) {
        return layers(
            it,
            g,
            &moves,
            &id,
            &format!("Cayley graph of {g}"),
            "elements",
            &order.to_string(),
        );
    }
    let sg = SchreierGraph::explore(&moves, &id, PICTURE_LIMIT, &it.ctl)?;
    let labels: Vec<NodeLabel> = words(&sg, &names, g)
        .into_iter()
        .map(NodeLabel::Text)
        .collect();
    let gens = gen_moves(g);
    let edges = pic::undirected_edges(&sg, &gens.iter().map(|x| x.1).collect::<Vec<_>>()).len();
    let title = format!(
        "Cayley graph of {g}: {} elements, {} edges, layered by distance from I",
        num(sg.len()),
        num(edges)
    );
    let text = pic::dot(&sg, &labels, &gens, &title);
    Ok((title, text))
}

/// The sub-game graph of a pattern as (title, DOT text).
fn orbit_dot(
    it: &mut Interp,
    g: &GroupVal,
    st: &State,
    pattern: &Value,
) -> Result<(String, String)> {
    let (_, moves) = moves_of(g);
    let sg = match SchreierGraph::explore(&moves, st, PICTURE_LIMIT, &it.ctl) {
        Ok(sg) => sg,
        Err(e) if matches!(e.kind, Limit | Memory) => {
            return layers(
                it,
                g,
                &moves,
                st,
                &format!("Sub-game of {} under {g}", pattern.to_text()),
                "patterns",
                &format!("more than {PICTURE_LIMIT}"),
            );
        }
        Err(e) => return Err(e.into()),
    };
    let cols = pic::board_cols(g.degree, &g.perms());
    let labels: Vec<NodeLabel> = sg
        .states
        .iter()
        .map(|s| NodeLabel::Board {
            cells: s.to_vec(),
            cols,
        })
        .collect();
    let gens = gen_moves(g);
    let edges = pic::undirected_edges(&sg, &gens.iter().map(|x| x.1).collect::<Vec<_>>()).len();
    let title = format!(
        "Sub-game of {} under {g}: {} patterns, {} edges, layered by distance from the start",
        pattern.to_text(),
        num(sg.len()),
        num(edges)
    );
    let text = pic::dot(&sg, &labels, &gens, &title);
    Ok((title, text))
}

/// Too many elements to draw one by one: draw the distance layers only.
fn layers(
    it: &mut Interp,
    g: &GroupVal,
    moves: &[Perm],
    start: &State,
    what: &str,
    unit: &str,
    size: &str,
) -> Result<(String, String)> {
    if g.order() > BigUint::from(STATE_LIMIT) && start.iter().all(|&c| c != 0) {
        return Err(Error::plain(format!(
            "{what} has {} {unit}, too many to draw or to layer in memory",
            num(size)
        ))
        .hint("ask diameter(G) for its distance distribution and plot(diameter(G).distribution, \"d.png\")"));
    }
    let dist = search::layer_counts(moves, start, STATE_LIMIT, &it.ctl)?;
    let total: u64 = dist.iter().sum();
    let title = format!(
        "{what}: {} {unit} (more than {}, so only the distance layers are drawn)",
        num(total),
        num(PICTURE_LIMIT)
    );
    let text = pic::layers_dot(&dist, &title);
    Ok((title, text))
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(x) => Some(*x as f64),
        Value::Big(b) => b.to_f64(),
        Value::Bool(b) => Some(*b as u8 as f64),
        _ => None,
    }
}

fn plot_builtin(it: &mut Interp, a: &mut Args) -> Result<Value> {
    let kind = a.kw("kind");
    let title = a.kw("title");
    let x_start = a.kw("x");
    let x_label = a.kw("x_label");
    let y_label = a.kw("y_label");
    let size = a.kw("size");
    let names_kw = a.kw("names");
    a.no_more_kw()?;
    a.count(1, 2)?;
    let file = if a.len() == 2 { Some(a.str(1)?) } else { None };
    if let Some(path) = &file {
        let ext = extension(path);
        if !DRAWN_FORMATS.contains(&ext.as_str()) {
            return Err(Error::runtime(
                format!("plot writes .png or .svg, not {}", as_ext(&ext)),
                a.span_of(1),
            ));
        }
    }
    let text_kw = |k: Option<(Value, crate::lang::syntax::ast::Span)>,
                   what: &str|
     -> Result<Option<String>> {
        match k {
            None => Ok(None),
            Some((Value::Str(s), _)) => Ok(Some(s.to_string())),
            Some((v, s)) => Err(Error::runtime(
                format!("`{what}:` is a string, not {}", v.a_type()),
                s,
            )),
        }
    };
    let x0 = match x_start {
        None => 0,
        Some((Value::Range(lo, _), _)) | Some((Value::Int(lo), _)) => lo,
        Some((v, s)) => {
            return Err(Error::runtime(
                format!(
                    "`x:` is the range of x values (a..b) or the first x, not {}",
                    v.a_type()
                ),
                s,
            ));
        }
    };
    let seq = |v: &Value, span| -> Result<Vec<(i64, f64)>> {
        let items = it.items(v, span)?;
        items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                number(x).map(|y| (x0 + i as i64, y)).ok_or_else(|| {
                    Error::runtime(
                        format!("plot needs numbers, found a {}", x.type_name()),
                        span,
                    )
                })
            })
            .collect()
    };
    let span0 = a.span_of(0);
    let data = match a.get(0) {
        Value::Record(r) if r.fields.contains_key("distribution") => {
            r.fields["distribution"].clone()
        }
        v => v.clone(),
    };
    let mut series: Vec<plot::Series> = vec![];
    let mut thermograph = None;
    let several = match &data {
        Value::Record(r) if r.fields.contains_key("mast") => {
            thermograph = r.fields.get("game").cloned();
            false
        }
        Value::Map(kv) => {
            for (k, v) in kv.iter() {
                let name = match k {
                    Value::Str(s) => s.to_string(),
                    k => k.to_text(),
                };
                series.push(plot::Series {
                    name,
                    points: seq(v, span0)?,
                });
            }
            true
        }
        Value::List(xs)
            if !xs.is_empty()
                && xs
                    .iter()
                    .all(|x| matches!(x, Value::List(_) | Value::Range(..))) =>
        {
            for (k, v) in xs.iter().enumerate() {
                series.push(plot::Series {
                    name: format!("{}", k + 1),
                    points: seq(v, span0)?,
                });
            }
            true
        }
        Value::List(_) | Value::Range(..) => {
            series.push(plot::Series {
                name: String::new(),
                points: seq(&data, span0)?,
            });
            false
        }
        _ => {
            return Err(a.type_error(
                0,
                "a list of numbers, a list of lists, a map of name: list, or a record with a distribution",
            ));
        }
    };
    if let Some((v, s)) = names_kw {
        let names = it.items(&v, s)?;
        for (ser, n) in series.iter_mut().zip(names) {
            ser.name = match n {
                Value::Str(t) => t.to_string(),
                n => n.to_text(),
            };
        }
    }
    let longest = series.iter().map(|s| s.points.len()).max().unwrap_or(0);
    let kind = match kind {
        None if several => plot::Kind::Line,
        None if longest <= 40 => plot::Kind::Bar,
        None => plot::Kind::Scatter,
        Some((Value::Str(k), s)) => plot::Kind::parse(&k)
            .ok_or_else(|| Error::runtime("`kind:` is \"scatter\", \"bar\" or \"line\"", s))?,
        Some((_, s)) => {
            return Err(Error::runtime(
                "`kind:` is \"scatter\", \"bar\" or \"line\"",
                s,
            ));
        }
    };
    let (w, h) = match size {
        None => (900, 540),
        Some((Value::Int(w), _)) if (100..=8000).contains(&w) => (w as u32, (w as u32) * 3 / 5),
        Some((Value::List(xs), _))
            if xs.len() == 2
                && xs
                    .iter()
                    .all(|x| matches!(x, Value::Int(k) if (100..=8000).contains(k))) =>
        {
            let (Value::Int(w), Value::Int(h)) = (&xs[0], &xs[1]) else {
                unreachable!()
            };
            (*w as u32, *h as u32)
        }
        Some((_, s)) => {
            return Err(Error::runtime(
                "`size:` is a width in pixels (100..8000) or [width, height]",
                s,
            ));
        }
    };
    let picture = if let Some(g) = thermograph {
        let title =
            text_kw(title, "title")?.unwrap_or_else(|| format!("thermograph of {}", g.to_text()));
        let t = thermograph_drawing(it, &g, title, (w, h)).map_err(|e| e.at(span0))?;
        Picture {
            title: t.title.clone(),
            formats: DRAWN_FORMATS,
            draw: Box::new(move |path| plot::draw_thermograph(&t, path)),
        }
    } else {
        let (dx, dy) = match kind {
            plot::Kind::Bar => ("distance", "count"),
            _ => ("n", "value"),
        };
        let chart = plot::Chart {
            kind,
            title: text_kw(title, "title")?.unwrap_or_default(),
            x_label: text_kw(x_label, "x_label")?.unwrap_or_else(|| dx.into()),
            y_label: text_kw(y_label, "y_label")?.unwrap_or_else(|| dy.into()),
            series,
            size: (w, h),
        };
        if chart.series.iter().all(|s| s.points.is_empty()) {
            return Err(Error::runtime(
                "nothing to plot: the sequence is empty",
                span0,
            ));
        }
        let what = match kind {
            plot::Kind::Bar => "bar chart",
            plot::Kind::Line => "line chart",
            plot::Kind::Scatter => "scatter plot",
        };
        let points: usize = chart.series.iter().map(|s| s.points.len()).sum();
        let title = if chart.title.is_empty() {
            format!("a {what} of {points} values")
        } else {
            format!("{} (a {what} of {points} values)", chart.title)
        };
        Picture {
            title,
            formats: DRAWN_FORMATS,
            draw: Box::new(move |path| plot::draw(&chart, path)),
        }
    };
    match file {
        None => Ok(Value::Picture(Rc::new(picture))),
        Some(path) => save(&picture, &path, a.span_of(1)),
    }
}

fn read_text(a: &Args, i: usize) -> Result<String> {
    let path = a.str(i)?;
    crate::engine::control::read_text_file(&*path)
        .map_err(|e| Error::runtime(format!("cannot read {path}: {e}"), a.span_of(i)))
}

fn make_group(
    name: &str,
    gens: Vec<(String, Perm)>,
    span: crate::lang::syntax::ast::Span,
) -> Result<Value> {
    let g = GroupVal::new(
        gens.into_iter()
            .map(|(n, p)| (Rc::from(n.as_str()), p))
            .collect(),
    )
    .map_err(|m| Error::runtime(format!("{name}: {m}"), span))?;
    let _ = g.name.set(Rc::from(name));
    Ok(Value::Group(Rc::new(g)))
}

fn import_gap(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.no_more_kw()?;
    a.count(1, 2)?;
    let text = read_text(a, 0)?;
    let groups = gap::read(&text).map_err(|m| Error::runtime(m, a.span_of(0)))?;
    if groups.is_empty() {
        return Err(Error::runtime(
            "the file assigns no group (expected name := Group([...]);)",
            a.span_of(0),
        ));
    }
    if a.len() == 2 {
        let want = a.str(1)?;
        let Some(g) = groups.iter().find(|g| *g.name == *want) else {
            let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
            return Err(Error::runtime(
                format!(
                    "the file has no group `{want}`; it has {}",
                    names.join(", ")
                ),
                a.span_of(1),
            ));
        };
        return make_group(&g.name, g.gens.clone(), a.span_of(0));
    }
    if groups.len() == 1 {
        let g = &groups[0];
        return make_group(&g.name, g.gens.clone(), a.span_of(0));
    }
    let mut out = vec![];
    for g in groups {
        out.push((
            Value::str(&g.name),
            make_group(&g.name, g.gens, a.span_of(0))?,
        ));
    }
    Ok(Value::Map(Rc::new(out)))
}

fn import_tws(_: &mut Interp, a: &mut Args) -> Result<Value> {
    a.no_more_kw()?;
    a.count(1, 1)?;
    let text = read_text(a, 0)?;
    let p = tws::read(&text).map_err(|m| Error::runtime(m, a.span_of(0)))?;
    make_group(&p.name, p.moves, a.span_of(0))
}

/// What `plot(thermograph(G))` draws: the walls of G's thermograph up to above its mast.
fn thermograph_drawing(
    it: &mut Interp,
    g: &Value,
    title: String,
    size: (u32, u32),
) -> Result<crate::engine::plot::Thermograph> {
    let Value::Game(g) = g else {
        return Err(Error::plain("this record is not a thermograph"));
    };
    let Form::Short(g) = g.form else {
        return Err(Error::plain("a loopy game has no thermograph"));
    };
    let s = store(it)?;
    let t = s.thermograph(g)?;
    let f = |d: Dyadic| d.numerator() as f64 / (1u64 << d.exponent()) as f64;
    let temp = t.temperature.max(Dyadic::ZERO);
    let top = temp.add(Dyadic::int(1).max(temp.half()?))?;
    let walls = t.polylines(top)?;
    Ok(crate::engine::plot::Thermograph {
        title,
        walls,
        temperature: f(t.temperature),
        size,
    })
}
