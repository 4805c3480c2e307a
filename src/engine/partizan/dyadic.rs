//! Dyadic rationals `num / 2^exp` with checked arithmetic: the numbers of short games.
use crate::engine::{Error, Result};
use std::cmp::Ordering;
use std::fmt;

/// `num / 2^exp` in lowest terms (`num` odd unless `exp` is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

/// Denominators up to 2^62 keep every product of two numerators below 2^126 in i128.
const MAX_EXP: u32 = 62;

pub fn overflow() -> Error {
    Error::limit(
        "a number in the game is too large (numbers are kept to 64-bit numerators over 2^62)",
    )
    .hint("the game's values grow past what exact arithmetic here can hold")
}

impl Dyadic {
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    pub fn int(n: i64) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// `num / 2^exp`, reduced; refuses exponents past 62.
    pub fn new(num: i64, exp: u32) -> Result<Dyadic> {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        if exp > MAX_EXP {
            return Err(overflow());
        }
        Ok(Dyadic { num, exp })
    }

    fn from_i128(num: i128, exp: u32) -> Result<Dyadic> {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        match i64::try_from(num) {
            Ok(n) if exp <= MAX_EXP => Ok(Dyadic { num: n, exp }),
            _ => Err(overflow()),
        }
    }

    pub fn numerator(self) -> i64 {
        self.num
    }
    /// The power of two in the denominator.
    pub fn exponent(self) -> u32 {
        self.exp
    }
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    fn aligned(self, o: Dyadic) -> (i128, i128, u32) {
        let e = self.exp.max(o.exp);
        (
            (self.num as i128) << (e - self.exp),
            (o.num as i128) << (e - o.exp),
            e,
        )
    }

    // checked, so not the std operator traits
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, o: Dyadic) -> Result<Dyadic> {
        let (a, b, e) = self.aligned(o);
        Dyadic::from_i128(a + b, e)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, o: Dyadic) -> Result<Dyadic> {
        let (a, b, e) = self.aligned(o);
        Dyadic::from_i128(a - b, e)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Result<Dyadic> {
        Dyadic::from_i128(-(self.num as i128), self.exp)
    }
    /// Half of the number.
    pub fn half(self) -> Result<Dyadic> {
        Dyadic::from_i128(self.num as i128, self.exp + 1)
    }

    /// The largest integer ≤ self and the smallest ≥ self.
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }
    pub fn ceil(self) -> i64 {
        -((-(self.num as i128)) >> self.exp) as i64
    }

    /// The simplest number strictly between `lo` and `hi` (either may be missing), by the
    /// simplicity theorem: an integer nearest 0 if one fits, else the dyadic with the smallest
    /// denominator.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Result<Dyadic> {
        match (lo, hi) {
            (None, None) => Ok(Dyadic::ZERO),
            (Some(l), None) => Ok(Dyadic::int(if l.num < 0 { 0 } else { l.floor() + 1 })),
            (None, Some(h)) => Ok(Dyadic::int(if h.num > 0 { 0 } else { h.ceil() - 1 })),
            (Some(l), Some(h)) => {
                if l >= h {
                    return Err(Error::invalid(
                        "no number lies between a left bound and a smaller right bound",
                    ));
                }
                if l.num < 0 && h.num > 0 {
                    return Ok(Dyadic::ZERO);
                }
                // the integer nearest 0 strictly inside, if any
                let (lo_int, hi_int) = (l.floor() + 1, h.ceil() - 1);
                if lo_int <= hi_int {
                    return Ok(Dyadic::int(if lo_int > 0 { lo_int } else { hi_int }));
                }
                // else the dyadic of smallest denominator strictly inside
                for e in 1..=MAX_EXP {
                    let n = l.num as i128;
                    let scaled = if e >= l.exp {
                        n << (e - l.exp)
                    } else {
                        n >> (l.exp - e)
                    };
                    let cand = Dyadic::from_i128(scaled + 1, e)?;
                    if cand < h {
                        return Ok(cand);
                    }
                }
                Err(overflow())
            }
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, o: &Dyadic) -> Ordering {
        let (a, b, _) = self.aligned(*o);
        a.cmp(&b)
    }
}
impl PartialOrd for Dyadic {
    fn partial_cmp(&self, o: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Dyadic {
    /// CGSuite's form: `3`, `-2`, `1/2`, `-3/4`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}
