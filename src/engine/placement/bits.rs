//! Fixed-width bitsets over the squares of a board: `u64`, `u128` and arrays of four and eight
//! words. The solver is generic over them, so small boards run on one machine word.
use crate::engine::winloss;
use std::fmt::Debug;
use std::hash::Hash;

/// The largest board (squares or vertices) the engine takes.
pub const MAX_SQUARES: usize = 512;
/// The words of a set of [`MAX_SQUARES`] squares.
pub const WORDS: usize = MAX_SQUARES / 64;

/// The set of the given squares.
pub fn set_of<B: Bits>(squares: impl IntoIterator<Item = usize>) -> B {
    let mut b = B::default();
    for s in squares {
        b.set(s);
    }
    b
}

/// The bounding box of a non-empty set of squares on a board of `stride` columns, squares
/// numbered row by row: (first row, last row, first column, last column).
#[inline]
pub fn bounding_box<B: Bits>(c: B, stride: usize) -> (usize, usize, usize, usize) {
    let (minr, maxr) = (c.lowest() / stride, c.highest() / stride);
    let (minc, maxc) = if stride <= 64 {
        let row = if stride == 64 {
            u64::MAX
        } else {
            (1u64 << stride) - 1
        };
        let mut cols = 0u64;
        for r in minr..=maxr {
            cols |= c.shr(r * stride).word0() & row;
        }
        (
            cols.trailing_zeros() as usize,
            63 - cols.leading_zeros() as usize,
        )
    } else {
        c.ones().fold((usize::MAX, 0), |(a, b), i| {
            (a.min(i % stride), b.max(i % stride))
        })
    };
    (minr, maxr, minc, maxc)
}

/// One value per set width; a board's size picks the narrowest that holds it.
pub(crate) enum Wide<A, B, C, D> {
    W64(A),
    W128(B),
    W256(C),
    W512(D),
}

/// Runs `$body` on the value of a [`Wide`], whatever its width.
macro_rules! with_wide {
    ($e:expr, $i:ident => $body:expr) => {
        match $e {
            $crate::engine::placement::bits::Wide::W64($i) => $body,
            $crate::engine::placement::bits::Wide::W128($i) => $body,
            $crate::engine::placement::bits::Wide::W256($i) => $body,
            $crate::engine::placement::bits::Wide::W512($i) => $body,
        }
    };
}
pub(crate) use with_wide;

/// A set of squares `0..CAP`.
pub trait Bits: Copy + Eq + Ord + Hash + Send + Sync + Default + Debug + 'static {
    fn is_empty(self) -> bool;
    fn bit(i: usize) -> Self;
    fn test(self, i: usize) -> bool;
    fn set(&mut self, i: usize);
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn andnot(self, o: Self) -> Self;
    fn count(self) -> u32;
    /// The smallest member (the set must not be empty).
    fn lowest(self) -> usize;
    fn clear_lowest(self) -> Self;
    /// Moves every member `k` squares down (`i -> i - k`); members below `k` are dropped.
    fn shr(self, k: usize) -> Self;
    /// A well-mixed 64-bit hash.
    fn hash64(self) -> u64;
    /// Byte `i` (squares `8i..8i+8`).
    fn byte(self, i: usize) -> u8;
    /// The lowest word (squares `0..64`).
    fn word0(self) -> u64;
    /// The largest member (the set must not be empty).
    fn highest(self) -> usize;
    /// The set as [`WORDS`] words, least significant first.
    fn words(self) -> [u64; WORDS];
    /// The members in increasing order.
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// Iterator over the members of a bitset.
pub struct Ones<B>(B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.clear_lowest();
            Some(i)
        }
    }
}

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 32;
    x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    x ^= x >> 32;
    x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    x ^ (x >> 32)
}

/// The machine-integer sets: everything but the hash is the integer's own operation.
macro_rules! int_bits {
    ($t:ty, $hash:expr) => {
        impl Bits for $t {
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn test(self, i: usize) -> bool {
                self >> i & 1 == 1
            }
            #[inline]
            fn set(&mut self, i: usize) {
                *self |= 1 << i
            }
            #[inline]
            fn and(self, o: Self) -> Self {
                self & o
            }
            #[inline]
            fn or(self, o: Self) -> Self {
                self | o
            }
            #[inline]
            fn andnot(self, o: Self) -> Self {
                self & !o
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn shr(self, k: usize) -> Self {
                if k >= <$t>::BITS as usize {
                    0
                } else {
                    self >> k
                }
            }
            #[inline]
            fn hash64(self) -> u64 {
                $hash(self)
            }
            #[inline]
            fn byte(self, i: usize) -> u8 {
                (self >> (8 * i)) as u8
            }
            #[inline]
            fn word0(self) -> u64 {
                self as u64
            }
            #[inline]
            fn highest(self) -> usize {
                <$t>::BITS as usize - 1 - self.leading_zeros() as usize
            }
            #[inline]
            fn words(self) -> [u64; WORDS] {
                let x = self as u128;
                std::array::from_fn(|k| [x as u64, (x >> 64) as u64].get(k).copied().unwrap_or(0))
            }
        }
    };
}

impl<B: Bits> winloss::Key for B {
    #[inline]
    fn hash64(self) -> u64 {
        Bits::hash64(self)
    }
}

int_bits!(u64, mix);
int_bits!(u128, |x: u128| mix(
    (x as u64) ^ mix((x >> 64) as u64 ^ 0x9e37_79b9_7f4a_7c15)
));

/// A set of `64 N` squares (`N` words, least significant first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Words<const N: usize>(pub [u64; N]);

/// Four words: boards of up to 256 squares.
pub type B256 = Words<4>;
/// Eight words: boards of up to [`MAX_SQUARES`] squares (queens on 17 x 17 and beyond).
pub type B512 = Words<8>;

impl<const N: usize> Default for Words<N> {
    fn default() -> Self {
        Words([0; N])
    }
}

impl<const N: usize> Bits for Words<N> {
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; N]
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = [0; N];
        w[i >> 6] = 1 << (i & 63);
        Words(w)
    }
    #[inline]
    fn test(self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63)
    }
    #[inline]
    fn and(self, o: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
    #[inline]
    fn or(self, o: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
    #[inline]
    fn andnot(self, o: Self) -> Self {
        Words(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for k in 0..N {
            if self.0[k] != 0 {
                return k * 64 + self.0[k].trailing_zeros() as usize;
            }
        }
        64 * N
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        let mut w = self.0;
        for x in w.iter_mut() {
            if *x != 0 {
                *x &= *x - 1;
                break;
            }
        }
        Words(w)
    }
    fn shr(self, k: usize) -> Self {
        if k >= 64 * N {
            return Words::default();
        }
        let (q, r) = (k / 64, k % 64);
        let mut out = [0u64; N];
        for (i, o) in out.iter_mut().enumerate() {
            let j = i + q;
            if j < N {
                *o = self.0[j] >> r;
                if r > 0 && j + 1 < N {
                    *o |= self.0[j + 1] << (64 - r);
                }
            }
        }
        Words(out)
    }
    #[inline]
    fn hash64(self) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        for w in self.0 {
            h = mix(h ^ w);
        }
        h
    }
    #[inline]
    fn byte(self, i: usize) -> u8 {
        (self.0[i >> 3] >> (8 * (i & 7))) as u8
    }
    #[inline]
    fn word0(self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn highest(self) -> usize {
        for k in (0..N).rev() {
            if self.0[k] != 0 {
                return k * 64 + 63 - self.0[k].leading_zeros() as usize;
            }
        }
        0
    }
    #[inline]
    fn words(self) -> [u64; WORDS] {
        std::array::from_fn(|k| if k < N { self.0[k] } else { 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree() {
        let mut a = B256::default();
        let mut b = 0u128;
        for i in [3usize, 64, 65, 100, 127] {
            a.set(i);
            b.set(i);
        }
        for k in [0, 1, 3, 63, 64, 70] {
            let x: Vec<usize> = a.shr(k).ones().collect();
            let y: Vec<usize> = b.shr(k).ones().collect();
            assert_eq!(x, y);
        }
        // eight words, against the members shifted one by one
        let mut w = B512::default();
        let members = [0usize, 63, 64, 200, 255, 256, 300, 447, 511];
        for i in members {
            w.set(i);
        }
        for k in [0, 1, 63, 64, 65, 256, 300, 511, 512] {
            let x: Vec<usize> = w.shr(k).ones().collect();
            let y: Vec<usize> = members.iter().filter(|&&i| i >= k).map(|i| i - k).collect();
            assert_eq!(x, y, "shift {k}");
        }
        assert_eq!((w.lowest(), w.highest(), w.count()), (0, 511, 9));
        assert_eq!(w.words(), w.0);
    }
}
