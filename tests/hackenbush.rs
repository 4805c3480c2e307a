//! Blue-Red Hackenbush on graphs with cycles: the number search (blocks with the values of what
//! hangs from single vertices) against the generic canonical-form search over pictures, on
//! thousands of random small graphs.
use gamut::engine::Ctl;
use gamut::engine::partizan::games::{Colour, Hackenbush, Picture};
use gamut::engine::partizan::{Game, Rules, Store, value};
use std::collections::HashMap;

/// Hackenbush without the Blue-Red shortcut: the generic search over pictures (split at the
/// ground, where edges that hang off nothing have fallen).
struct Plain;

impl Rules for Plain {
    type Pos = Picture;
    type Error = gamut::engine::Error;
    fn left(&mut self, p: &Picture) -> gamut::engine::Result<Vec<Picture>> {
        Hackenbush.left(p)
    }
    fn right(&mut self, p: &Picture) -> gamut::engine::Result<Vec<Picture>> {
        Hackenbush.right(p)
    }
    fn components(&mut self, p: &Picture) -> Vec<Picture> {
        Hackenbush.components(p)
    }
    fn describe(&self, p: &Picture) -> String {
        Hackenbush.describe(p)
    }
}

/// A small xorshift generator, so every run checks the same pictures.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as u32
    }
    fn colour(&mut self) -> Colour {
        if self.below(2) == 0 {
            Colour::Blue
        } else {
            Colour::Red
        }
    }
}

/// A random picture of at most `max` edges with cycles: a random tree from the ground, then
/// edges between random vertices; now and then a loop, a doubled edge or an edge off the
/// ground's component (which falls at once).
fn random_picture(rng: &mut Rng, max: u32) -> Picture {
    let verts = 2 + rng.below(6.min(max - 1));
    let n = verts + rng.below(max + 1 - verts);
    let mut edges = vec![];
    for k in 1..verts {
        edges.push((rng.below(k), k, rng.colour()));
    }
    while (edges.len() as u32) < n {
        let (a, b) = match rng.below(10) {
            0 => {
                let v = rng.below(verts);
                (v, v)
            }
            1 => {
                let e = edges[rng.below(edges.len() as u32) as usize];
                (e.0, e.1)
            }
            2 => (verts, verts + 1),
            _ => (rng.below(verts), rng.below(verts)),
        };
        if a != b || rng.below(3) == 0 {
            edges.push((a, b, rng.colour()));
        }
    }
    Picture { edges }
}

struct Both {
    store: Store,
    memo: HashMap<Picture, Game>,
    ctl: Ctl,
}

impl Both {
    fn new() -> Both {
        Both {
            store: Store::default(),
            memo: HashMap::new(),
            ctl: Ctl::default(),
        }
    }
    fn fast(&mut self, p: &Picture) -> Game {
        value(
            &mut Hackenbush,
            &mut self.store,
            &mut HashMap::new(),
            p,
            &self.ctl,
        )
        .unwrap()
    }
    fn plain(&mut self, p: &Picture) -> Game {
        value(&mut Plain, &mut self.store, &mut self.memo, p, &self.ctl).unwrap()
    }
}

/// 3000 random pictures of at most 12 edges: the same value both ways.
#[test]
fn random_graphs_with_cycles_match_the_generic_search() {
    let (mut rng, mut both) = (Rng(0x2545_F491_4F6C_DD1D), Both::new());
    let mut cyclic = 0;
    for _ in 0..3000 {
        let p = random_picture(&mut rng, 12);
        let vs: std::collections::BTreeSet<u32> = p.edges.iter().flat_map(|e| [e.0, e.1]).collect();
        cyclic += usize::from(p.edges.len() >= vs.len());
        let (fast, plain) = (both.fast(&p), both.plain(&p));
        assert_eq!(
            both.store.show(fast).unwrap(),
            both.store.show(plain).unwrap(),
            "{p:?}"
        );
    }
    // most pictures have a cycle, so the block search is what is checked
    assert!(cyclic > 2000, "{cyclic}");
}

/// A ladder of squares (one block with every rung), the same ladder with a cycle hung from a
/// top corner (a block hanging from a single vertex), and three trees branching above the
/// ground (the branch-by-branch tree formula), every colouring.
#[test]
fn ladders_hanging_cycles_and_trees() {
    let shapes: [&[(u32, u32)]; 5] = [
        &[
            (0, 1),
            (0, 2),
            (1, 2),
            (1, 3),
            (2, 4),
            (3, 4),
            (3, 5),
            (4, 6),
            (5, 6),
        ],
        &[
            (0, 1),
            (0, 2),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 2),
            (4, 5),
            (5, 6),
            (6, 4),
        ],
        &[(0, 1), (1, 2), (1, 3), (3, 4), (3, 5), (2, 6)],
        &[(0, 1), (1, 2), (2, 3), (2, 4), (1, 5), (5, 6), (6, 7)],
        &[(0, 1), (1, 2), (1, 3), (1, 4), (4, 5), (0, 6), (6, 7)],
    ];
    let mut both = Both::new();
    for shape in shapes {
        for bits in 0..1u32 << shape.len() {
            let edges = shape
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| {
                    let c = if bits >> i & 1 == 1 {
                        Colour::Blue
                    } else {
                        Colour::Red
                    };
                    (a, b, c)
                })
                .collect();
            let p = Picture { edges };
            let (fast, plain) = (both.fast(&p), both.plain(&p));
            assert_eq!(fast, plain, "{p:?}");
        }
    }
}

/// The colon principle for Blue-Red pictures, by the generic search alone: a random picture
/// with a random picture hung from one of its vertices has the value it has with a Blue-Red
/// string of the hung picture's value there instead (Berlekamp's rule builds the string).
#[test]
fn what_hangs_from_a_vertex_counts_by_its_value() {
    let (mut rng, mut both) = (Rng(0x9E37_79B9_7F4A_7C15), Both::new());
    for _ in 0..300 {
        let g = random_picture(&mut rng, 6);
        let h = random_picture(&mut rng, 5);
        let top = g.edges.iter().map(|e| e.0.max(e.1)).max().unwrap_or(0);
        let at = rng.below(top + 1);
        // h's vertices moved past g's, its ground put at `at`
        let shift = |v: u32| if v == 0 { at } else { v + top };
        let hung = |edges: &[(u32, u32, Colour)]| {
            let mut all = g.edges.clone();
            all.extend(edges.iter().map(|&(a, b, c)| (shift(a), shift(b), c)));
            Picture { edges: all }
        };
        let x = both.plain(&h);
        let string = Picture::string(&stalk(&both.store.show(x).unwrap())).unwrap();
        let (with_h, with_string) = (hung(&h.edges), hung(&string.edges));
        assert_eq!(
            both.plain(&with_h),
            both.plain(&with_string),
            "{with_h:?} {with_string:?}"
        );
    }
}

/// Berlekamp's rule backwards: the Blue-Red string of a number written `n` or `m/d`: its sign
/// expansion, `B` for + and `R` for −.
fn stalk(x: &str) -> String {
    let (num, den): (i64, i64) = match x.split_once('/') {
        Some((m, d)) => (m.parse().unwrap(), d.parse().unwrap()),
        None => (x.parse().unwrap(), 1),
    };
    let (plus, minus) = if num >= 0 { ('B', 'R') } else { ('R', 'B') };
    let num = num.abs();
    let whole = (num / den) as usize;
    if num % den == 0 {
        return std::iter::repeat_n(plus, whole).collect();
    }
    // up past the number, then halving steps towards it
    let mut out: String = std::iter::repeat_n(plus, whole + 1).collect();
    let (mut at, mut step) = ((whole as i64 + 1) * den, den / 2);
    while at != num {
        let up = num > at;
        out.push(if up { plus } else { minus });
        at += if up { step } else { -step };
        step /= 2;
    }
    out
}

#[test]
fn stalks_by_berlekamps_rule() {
    for (x, s) in [
        ("0", ""),
        ("2", "BB"),
        ("1/2", "BR"),
        ("3/4", "BRB"),
        ("-5/4", "RRBB"),
    ] {
        assert_eq!(stalk(x), s);
    }
}

/// A search past the memory budget stops with the budget in the message.
#[test]
fn the_search_keeps_to_the_memory_budget() {
    // a ladder of 8 squares on the ground: 24 edges, one block
    let mut edges = vec![];
    for k in 0..8 {
        let (below, a) = (if k == 0 { (0, 0) } else { (2 * k - 1, 2 * k) }, 2 * k + 1);
        edges.push((below.0, a, Colour::Blue));
        edges.push((below.1, a + 1, Colour::Red));
        edges.push((
            a,
            a + 1,
            if k % 2 == 0 {
                Colour::Red
            } else {
                Colour::Blue
            },
        ));
    }
    let ctl = Ctl::default().with_memory(1 << 20);
    let mut store = Store::new(&Ctl::default());
    let p = Picture { edges };
    let err = value(&mut Hackenbush, &mut store, &mut HashMap::new(), &p, &ctl).unwrap_err();
    assert!(err.message.contains("needs about"), "{}", err.message);
}
