//! Times gamut's partizan engine on the positions of docs/benchmarks.md ("Partizan games"):
//! one position per line on stdin, `dom <rows>` (`.` empty, `#` used, rows split by `|`),
//! `clobber <rows>` (`x`, `o`, `.`), `tf <strip>` (Toads and Frogs) or `hack <n>` (a Blue-Red Hackenbush ladder of n edges; `hack <n>/<k>`: k ladders);
//! prints the position, its canonical form and the CPU milliseconds taken (this thread's, so a
//! loaded machine does not inflate them), each in a fresh store.
use gamut::engine::Ctl;
use gamut::engine::partizan::games::{
    Board, Clobber, Colour, Domineering, Hackenbush, Picture, Stones, ToadsAndFrogs,
};
use gamut::engine::partizan::{Store, value};
use std::collections::HashMap;
use std::io::BufRead;
#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_ms;

/// `n` edges as `k` ladders standing on the ground (`n/k`; `n` alone is one ladder).
fn ladders(spec: &str) -> Picture {
    let (n, k) = spec.split_once('/').map_or((spec, "1"), |p| p);
    let (n, k): (u32, u32) = (n.parse().unwrap(), k.parse().unwrap());
    let mut edges: Vec<(u32, u32, Colour)> = vec![];
    for _ in 0..k {
        let base = edges.iter().map(|e| e.1).max().unwrap_or(0);
        edges.extend(ladder(n / k).edges.into_iter().map(|(a, b, c)| {
            let shift = |v: u32| if v == 0 { 0 } else { v + base };
            (shift(a), shift(b), c)
        }));
    }
    Picture { edges }
}

/// A grounded graph of `n` edges: a ladder of squares on the ground, colours in a fixed
/// pattern (deterministic, so every run times the same picture).
fn ladder(n: u32) -> Picture {
    let mut edges = vec![];
    let mut k = 0;
    let colour = |k: u32| {
        if (k * 7 + k / 3).is_multiple_of(3) {
            Colour::Red
        } else {
            Colour::Blue
        }
    };
    let mut top = (0, 0);
    let mut next = 1;
    while (edges.len() as u32) < n {
        let (a, b) = (next, next + 1);
        next += 2;
        for (u, v) in [(top.0, a), (top.1, b), (a, b)] {
            if (edges.len() as u32) < n {
                edges.push((u, v, colour(k)));
                k += 1;
            }
        }
        top = (a, b);
    }
    Picture { edges }
}

fn main() {
    let ctl = Ctl::default();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let Some((kind, pos)) = line.split_once(' ') else {
            continue;
        };
        let mut s = Store::new(&ctl);
        let t = cpu_ms();
        let g = match kind {
            "dom" => value(
                &mut Domineering,
                &mut s,
                &mut HashMap::new(),
                &Board::parse(pos).unwrap(),
                &ctl,
            ),
            "clobber" => value(
                &mut Clobber,
                &mut s,
                &mut HashMap::new(),
                &Stones::parse(pos).unwrap(),
                &ctl,
            ),
            "tf" => value(
                &mut ToadsAndFrogs,
                &mut s,
                &mut HashMap::new(),
                &ToadsAndFrogs::parse(pos).unwrap(),
                &ctl,
            ),
            "hack" => value(
                &mut Hackenbush,
                &mut s,
                &mut HashMap::new(),
                &ladders(pos),
                &ctl,
            ),
            _ => panic!("unknown kind {kind}"),
        }
        .unwrap();
        let ms = cpu_ms() - t;
        println!("{pos}\t{}\t{ms:.3}", s.show(g).unwrap());
    }
}
