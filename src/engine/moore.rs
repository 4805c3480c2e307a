//! Moore's Nim_k: a move removes tokens from at least one and at most k heaps.
use crate::engine::Error;
use crate::engine::impartial::Game;

/// Moore's Nim_k for the generic searches: a component is the sorted list of heaps.
pub struct Moore(pub u32);

impl Game for Moore {
    type Pos = Vec<i64>;
    type Error = Error;
    fn options(&mut self, heaps: &Vec<i64>) -> Result<Vec<Vec<Vec<i64>>>, Error> {
        Ok(options(self.0, heaps)
            .into_iter()
            .map(|o| vec![o])
            .collect())
    }
    fn describe(&self, heaps: &Vec<i64>) -> String {
        format!("moore({}, {heaps:?})", self.0)
    }
}

/// Moore's theorem: a position is a P-position exactly when, for every binary digit, the number
/// of heaps having that digit set is a multiple of k + 1.
pub fn is_p_position(k: u32, heaps: &[i64]) -> bool {
    (0..63)
        .all(|bit| heaps.iter().filter(|&&h| (h >> bit) & 1 == 1).count() % (k as usize + 1) == 0)
}

/// Every option, as the sorted list of non-empty heaps left.
pub fn options(k: u32, heaps: &[i64]) -> Vec<Vec<i64>> {
    fn rec(
        k: u32,
        heaps: &[i64],
        i: usize,
        changed: u32,
        cur: &mut Vec<i64>,
        out: &mut Vec<Vec<i64>>,
    ) {
        if i == heaps.len() {
            if changed > 0 {
                let mut v: Vec<i64> = cur.iter().copied().filter(|&h| h > 0).collect();
                v.sort();
                out.push(v);
            }
            return;
        }
        cur.push(heaps[i]);
        rec(k, heaps, i + 1, changed, cur, out);
        cur.pop();
        if changed < k {
            for h in 0..heaps[i] {
                cur.push(h);
                rec(k, heaps, i + 1, changed + 1, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = vec![];
    rec(k, heaps, 0, 0, &mut vec![], &mut out);
    out.sort();
    out.dedup();
    out
}
