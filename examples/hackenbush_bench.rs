//! Times Blue-Red Hackenbush on graphs with cycles (docs/benchmarks.md, "Blue-Red Hackenbush
//! on graphs"): one picture per line on stdin, `ladder <n>` (a ladder of squares on the ground,
//! n edges) or `random <n> <seed>` (n edges among n/2 vertices, connected to the ground);
//! prints the picture, its value and the CPU milliseconds of this thread, each in a fresh store.
use gamut::engine::Ctl;
use gamut::engine::partizan::games::{Colour, Hackenbush, Picture};
use gamut::engine::partizan::{Store, value};
use std::collections::HashMap;
use std::io::BufRead;
#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_ms;

/// A ladder of squares standing on the ground, colours in a fixed pattern.
fn ladder(n: u32) -> Picture {
    let colour = |k: u32| {
        if (k * 7 + k / 3).is_multiple_of(3) {
            Colour::Red
        } else {
            Colour::Blue
        }
    };
    let (mut edges, mut top, mut next) = (vec![], (0, 0), 1);
    while (edges.len() as u32) < n {
        let (a, b) = (next, next + 1);
        next += 2;
        for (u, v) in [(top.0, a), (top.1, b), (a, b)] {
            if (edges.len() as u32) < n {
                edges.push((u, v, colour(edges.len() as u32)));
            }
        }
        top = (a, b);
    }
    Picture { edges }
}

/// `n` random edges on `n / 2 + 1` vertices: a random tree from the ground first, then edges
/// between random vertices (so cycles), random colours; xorshift from `seed`.
fn random(n: u32, seed: u64) -> Picture {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as u32
    };
    let verts = n / 2 + 1;
    let mut edges = vec![];
    for k in 0..n {
        let (a, b) = if k + 1 < verts {
            (next(k + 1), k + 1)
        } else {
            let a = next(verts);
            (a, (a + 1 + next(verts - 1)) % verts)
        };
        let c = if next(2) == 0 {
            Colour::Blue
        } else {
            Colour::Red
        };
        edges.push((a, b, c));
    }
    Picture { edges }
}

fn main() {
    let ctl = Ctl::default();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let words: Vec<&str> = line.split_whitespace().collect();
        let p = match words.as_slice() {
            ["ladder", n] => ladder(n.parse().expect("edges")),
            ["random", n, seed] => random(n.parse().expect("edges"), seed.parse().expect("seed")),
            _ => continue,
        };
        let mut s = Store::new(&ctl);
        let t = cpu_ms();
        let g = value(&mut Hackenbush, &mut s, &mut HashMap::new(), &p, &ctl).unwrap();
        let ms = cpu_ms() - t;
        println!("{line}\t{}\t{ms:.3}", s.show(g).unwrap());
    }
}
