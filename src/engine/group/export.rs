//! Renderers for graphs and walk matrices: Graphviz DOT text and PNG pictures.
use super::cayley::SchreierGraph;
use std::fmt::Write;

/// The graph in DOT: one node per vertex (labelled), one edge per vertex and generator.
/// `gens` are the indices of the moves that are generators (inverses are left out).
pub fn dot(g: &SchreierGraph, labels: &[String], names: &[String], gens: &[usize]) -> String {
    let mut out = String::from("digraph cayley {\n  node [shape=box, fontsize=10];\n");
    for (v, l) in labels.iter().enumerate() {
        writeln!(out, "  n{v} [label=\"{}\"];", l.replace('"', "\\\"")).unwrap();
    }
    for v in 0..g.len() {
        for &j in gens {
            writeln!(
                out,
                "  n{v} -> n{} [label=\"{}\"];",
                g.adj[v * g.m + j],
                names[j]
            )
            .unwrap();
        }
    }
    out.push_str("}\n");
    out
}

/// Colours by number of hops, as in the thesis' walk figures: black 0, blue 1, teal 2,
/// green 3, yellow 4, pink 5, red 6, then further colours; white where no walk reaches.
const COLOURS: [[u8; 3]; 12] = [
    [0, 0, 0],
    [31, 90, 220],
    [0, 150, 150],
    [40, 170, 60],
    [240, 210, 40],
    [240, 120, 190],
    [220, 30, 30],
    [240, 140, 20],
    [130, 60, 180],
    [140, 90, 50],
    [120, 120, 120],
    [80, 200, 230],
];

/// A square picture of the hop matrix (`None` = white), each entry `scale` pixels wide.
pub fn walk_png(hops: &[Vec<Option<u32>>], path: &str) -> Result<(), String> {
    let n = hops.len();
    let scale = (768 / n.max(1)).clamp(1, 16);
    let side = (n * scale) as u32;
    let mut pixels = Vec::with_capacity((side * side * 3) as usize);
    for row in hops {
        let mut line = Vec::with_capacity(side as usize * 3);
        for h in row {
            let c = h.map_or([255, 255, 255], |d| COLOURS[d as usize % COLOURS.len()]);
            for _ in 0..scale {
                line.extend_from_slice(&c);
            }
        }
        for _ in 0..scale {
            pixels.extend_from_slice(&line);
        }
    }
    let file = std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), side, side);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&pixels).map_err(|e| e.to_string())
}
