//! The search: negamax alpha-beta on the net score with a transposition table of bounds,
//! null-window (MTD(f)-style) drivers, and the safe capture reductions. The first levels of a
//! test are searched in parallel, young brothers waiting for the eldest.
//!
//! Reductions, in the strings-and-coins view (a box is a coin, a line a string; a box's border
//! sides are strings to the ground):
//! - a capturable box (three sides drawn) whose last side is on the border, or leads to a box
//!   that also has three sides drawn or to a box with at least three sides free, is captured at
//!   once: no other move can do better;
//! - a capturable box whose last side leads to a box with exactly two sides free: only two moves
//!   are searched, capturing it, or drawing the far side of that neighbour (the double-dealing
//!   move that leaves the last two boxes of a chain, or four of an opened loop, to the opponent);
//! - a position with such a choice is worth at least 0 to the mover (both options end in the
//!   same position with the other player to move, the boxes between them going to one side or
//!   the other), a bound that refutes most loony moves without search;
//! - only one sacrifice per chain of boxes with two free sides is searched (an end of a long
//!   chain, the middle of a chain of two), see [`Searcher::chain_skips`];
//! - a box's border sides are interchangeable, so only one of them is tried, and positions are
//!   keyed on the number of border sides drawn per box (with the corner boxes this is the corner
//!   equivalence of Barker and Korf), then canonicalised under the board's symmetries.
use super::{Dots, Images, Position};
use crate::engine::control::Task;
use crate::engine::{Ctl, Error, Result};
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A legal line with the net score for the mover of drawing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// the line (index on the board; name it with [`Dots::line_name`])
    pub line: usize,
    /// boxes this line completes at once (the mover then moves again)
    pub captures: i32,
    /// the net score for the mover after drawing it, with best play from both sides, counting
    /// the boxes it completes
    pub value: i32,
}

/// Counters of a solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// positions visited (all searches of this solver so far)
    pub nodes: u64,
    /// bytes of the transposition table (a cache-sized one for positions near the end adds at
    /// most an eighth)
    pub table_bytes: u64,
}

/// The search was stopped (cancelled, or a sibling at the root already decided the test).
struct Stop;

const NONE: u8 = 255;
/// Positions with fewer free lines are solved on one thread (parallel overhead would dominate).
const SERIAL_BELOW: u32 = 22;
/// Levels of a test searched in parallel.
const PARALLEL_PLIES: u32 = 4;
/// Positions with fewer free lines are searched without the table (a probe costs more).
const TABLE_MIN_FREE: u32 = 8;
/// Positions with fewer free lines use a small table that stays in the cache: their
/// transpositions are found close together in the search, and a probe of the large table waits
/// on memory.
const NEAR_FREE: u32 = 12;
/// The size of that small table (at most an eighth of the large one).
const NEAR_BYTES: u64 = 8 << 20;

/// A fixed-size transposition table of buckets of eight one-word entries, one cache line each
/// (the entry whose result cost the fewest nodes is replaced), lock-free: a word is read and
/// written at once. The key (a set of `nlines` lines) is mixed by a bijection of `nlines`-bit
/// words; the low bits of the image choose the bucket and the others (at most [`TAG_BITS`]) are
/// stored, so an entry names its position exactly.
struct Table {
    buckets: Vec<Bucket>,
    bits: u32,
    nlines: u32,
}

#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

/// The first bytes of a saved table; the number changes whenever keys or entries change meaning.
const TABLE_FILE_FORMAT: &[u8; 16] = b"gamut dots tt 2\n";

/// The checksum a saved table ends with (FNV-1a over its entries' words): a file damaged on
/// disk is refused instead of read into bounds that are not true.
fn checksum(h: u64, word: u64) -> u64 {
    (h ^ word).wrapping_mul(0x100_0000_01b3)
}
const CHECKSUM_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Bits of an entry after its data (`DATA_BITS`): what is left of the key.
const TAG_BITS: u32 = 64 - DATA_BITS;
/// Two bounds (6 bits each: values lie in -25..=25, as no board of 64 lines has more than 25
/// boxes), a move (6 bits), a cost (5 bits).
const DATA_BITS: u32 = 23;

#[derive(Clone, Copy)]
struct Entry {
    lower: i32,
    upper: i32,
    mv: u8,
    /// the bits of the node count the result cost (at most 31)
    depth: u32,
}

impl Entry {
    /// Never 0 (an empty slot): the lower bound is stored as `lower + 32 >= 7`.
    fn pack(&self) -> u64 {
        (self.lower + 32) as u64
            | ((self.upper + 32) as u64) << 6
            | ((self.mv & 63) as u64) << 12
            | (self.depth.min(31) as u64) << 18
    }
    fn unpack(d: u64) -> Entry {
        Entry {
            lower: (d & 63) as i32 - 32,
            upper: (d >> 6 & 63) as i32 - 32,
            mv: (d >> 12 & 63) as u8,
            depth: (d >> 18 & 31) as u32,
        }
    }
}

impl Table {
    /// The fewest buckets for exact entries on a board of `nlines` lines.
    fn min_bytes(nlines: u32) -> u64 {
        64 << nlines.saturating_sub(TAG_BITS)
    }

    fn new(bytes: u64, nlines: u32) -> Table {
        let n = (bytes / 64).max(1);
        let bits = (63 - n.leading_zeros()).min(nlines);
        debug_assert!(nlines - bits <= TAG_BITS);
        let mut buckets = Vec::with_capacity(1 << bits);
        advise_huge_pages(&buckets);
        buckets.extend(std::iter::repeat_with(|| Bucket(Default::default())).take(1 << bits));
        Table {
            buckets,
            bits,
            nlines,
        }
    }

    fn bytes(&self) -> u64 {
        self.buckets.len() as u64 * 64
    }

    /// The bucket of `key` and the tag stored with it: a bijection of `nlines`-bit words
    /// (multiplications by odd numbers and xor-shifts, all modulo 2^nlines), split.
    #[inline]
    fn place(&self, key: u64) -> (&[AtomicU64; 8], u64) {
        let n = self.nlines;
        let mask = u64::MAX >> (64 - n);
        let s = n / 2;
        let mut h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        h ^= h >> s;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9) & mask;
        h ^= h >> s;
        let i = (h & ((1 << self.bits) - 1)) as usize;
        (&self.buckets[i].0, h >> self.bits)
    }

    /// Asks for the bucket of `key` to be brought into the cache while other work goes on.
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint and never faults.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.place(key).0.as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The slot holding `tag` in `w` and its entry.
    #[inline]
    fn find(w: &[AtomicU64; 8], tag: u64) -> Option<(usize, Entry)> {
        (0..8).find_map(|i| {
            let d = w[i].load(Ordering::Relaxed);
            (d != 0 && d >> DATA_BITS == tag).then(|| (i, Entry::unpack(d)))
        })
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let (w, tag) = self.place(key);
        Table::find(w, tag).map(|x| x.1)
    }

    fn store(&self, key: u64, mut e: Entry) {
        let (w, tag) = self.place(key);
        let i = match Table::find(w, tag) {
            Some((i, old)) => {
                let (lo, hi) = (e.lower.max(old.lower), e.upper.min(old.upper));
                if lo <= hi {
                    e.lower = lo;
                    e.upper = hi;
                }
                // the merged bounds keep what the costlier search found
                e.depth = e.depth.max(old.depth);
                i
            }
            // the empty or cheapest entry makes room
            None => (0..8)
                .min_by_key(|&i| {
                    let d = w[i].load(Ordering::Relaxed);
                    if d == 0 {
                        0
                    } else {
                        Entry::unpack(d).depth + 1
                    }
                })
                .unwrap_or(0),
        };
        w[i].store(tag << DATA_BITS | e.pack(), Ordering::Relaxed);
    }
}

/// Asks Linux to back the (not yet touched) allocation of `v` with huge pages: the table is
/// probed at random, and 4 KB pages make most probes miss the TLB too.
fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * size_of::<T>();
        let (a, b) = ((start + 4095) & !4095, end & !4095);
        if b > a {
            // SAFETY: [a, b) lies inside the vector's allocation; the advice only changes how
            // the kernel backs those pages, not their contents.
            unsafe {
                libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// What one pass over the boxes finds (sets of boxes named as in [`Grid`]).
struct Scan {
    free: u64,
    left: i32,
    /// boxes with one free side (capturable)
    ones: u64,
    /// boxes with two free sides
    twos: u64,
    /// boxes with three or four free sides
    big: u64,
    /// free sides of boxes with two free sides
    sacr: u64,
}

impl Scan {
    /// The number of free sides of box `b` (a box with a free side), capped at 3.
    #[inline]
    fn deg(&self, b: u8) -> u8 {
        let bit = 1u64 << b;
        if self.ones & bit != 0 {
            1
        } else if self.twos & bit != 0 {
            2
        } else {
            3
        }
    }
}

/// The board as bit fields: the horizontal lines of dot row `r` are bits `r * stride ..`, the
/// vertical lines below them follow at `r * stride + cols ..`. In the search a box is named by
/// its top side (box `(r, c)` is `r * stride + c`), so a set of boxes is a `u64` whose shifts by
/// 0, `stride`, `cols` and `cols + 1` line its boxes up with their top, bottom, left and right
/// sides.
struct Grid {
    cols: u32,
    stride: u32,
    /// the top sides of all boxes: the set of all boxes
    boxes: u64,
}

impl Grid {
    fn new(board: &Dots) -> Grid {
        let stride = 2 * board.cols() as u32 + 1;
        let mut boxes = 0u64;
        for r in 0..board.rows() as u32 {
            boxes |= ((1u64 << board.cols()) - 1) << (r * stride);
        }
        Grid {
            cols: board.cols() as u32,
            stride,
            boxes,
        }
    }

    /// The boxes by their number of free sides, bit-parallel: the free top, bottom, left and
    /// right sides of all boxes as four box sets, added bit-sliced.
    #[inline]
    fn scan(&self, free: u64) -> Scan {
        let (t, b) = (free & self.boxes, free >> self.stride & self.boxes);
        let (lf, rt) = (
            free >> self.cols & self.boxes,
            free >> (self.cols + 1) & self.boxes,
        );
        // the sum t + b + lf + rt in three bits: t + b = 2 tb2 + tb1, lf + rt = 2 lr2 + lr1
        let (tb1, tb2, lr1, lr2) = (t ^ b, t & b, lf ^ rt, lf & rt);
        let bit0 = tb1 ^ lr1;
        let bit1 = tb2 ^ lr2 ^ (tb1 & lr1);
        let bit2 = tb2 & lr2;
        let twos = bit1 & !bit0;
        Scan {
            free,
            left: (t | b | lf | rt).count_ones() as i32,
            ones: bit0 & !bit1,
            twos,
            big: (bit0 & bit1) | bit2,
            sacr: self.sides(twos) & free,
        }
    }

    /// All sides of the boxes of `set`.
    #[inline]
    fn sides(&self, set: u64) -> u64 {
        let v = set << self.cols;
        set | set << self.stride | v | v << 1
    }
}

enum Kind {
    /// a capture no other move can beat
    Forced(u8),
    /// capture (first) or double-deal (second)
    Choice([u8; 2], usize),
    /// capture in one of several components
    Multi([u8; 16], usize),
    /// no capturable box
    Free,
}

/// An exact solver for one board, holding a transposition table that later calls reuse.
/// Results do not depend on the number of threads (the table only holds proven bounds).
pub struct Solver<'a> {
    board: &'a Dots,
    table: Table,
    /// the table of positions with fewer than `NEAR_FREE` free lines (not saved)
    near: Table,
    /// for each line, its boxes (255 = none), named as in [`Grid`]
    lb: Vec<[u8; 2]>,
    /// the sides of each box, by its name in [`Grid`]
    bm: [u64; 64],
    grid: Grid,
    nodes: AtomicU64,
}

/// The per-thread search state.
struct Searcher<'s, 'a> {
    s: &'s Solver<'a>,
    ctl: &'s Ctl,
    stop: Stops<'s>,
    nodes: u64,
    /// the part of `nodes` already added to the solver's count
    counted: u64,
}

/// The stop flags of the parallel nodes above a search: a cutoff at any of them ends it.
#[derive(Clone, Copy)]
struct Stops<'s> {
    flag: &'s AtomicBool,
    up: Option<&'s Stops<'s>>,
}

impl<'s> Stops<'s> {
    fn root(flag: &'s AtomicBool) -> Self {
        Stops { flag, up: None }
    }
    fn any(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.up.is_some_and(|u| u.any())
    }
}

/// A node after its forced captures, with its window narrowed by the table and its moves.
struct Node {
    pos: u64,
    imgs: Images,
    gained: i32,
    r: i32,
    /// a lower bound of the value (after `gained`)
    lo: i32,
    /// the table key and the symmetry that gave it (none below `TABLE_MIN_FREE` free lines)
    key: Option<(u64, usize)>,
    a0: i32,
    b0: i32,
    /// the moves generated so far
    moves: [u8; 64],
    n: usize,
    /// candidate sacrifices not yet in `moves` (see [`Searcher::sacrifices`])
    late: u64,
    sc: Scan,
}

impl<'a> Solver<'a> {
    /// A solver whose table is sized for the board (2^(lines - 7) entries of 8 bytes, between
    /// 64 KB and 1 GB) and at most half of `ctl`'s memory budget.
    pub fn new(board: &'a Dots, ctl: &Ctl) -> Result<Solver<'a>> {
        let shift = (board.num_lines() as u32).saturating_sub(8).clamp(12, 26);
        let want = 16u64 << shift;
        Solver::with_table_bytes(board, want.min(ctl.memory() / 2).max(1 << 16), ctl)
    }

    /// A solver with a transposition table of about `bytes` (rounded down to a power of two, at
    /// least 64 << (lines - 41) bytes so that an entry names its position exactly: 512 MB for
    /// 64 lines, 32 MB for 5 x 5; refused if `ctl`'s memory budget is smaller).
    pub fn with_table_bytes(board: &'a Dots, bytes: u64, ctl: &Ctl) -> Result<Solver<'a>> {
        let nlines = board.num_lines() as u32;
        let bytes = bytes.max(Table::min_bytes(nlines));
        let near = NEAR_BYTES.min(bytes / 8);
        ctl.reserve(bytes + near, "the Dots-and-Boxes transposition table")?;
        // a box's name in the search: its top side
        let name = |b: usize| board.box_mask[b].trailing_zeros() as u8;
        let lb = board
            .line_boxes
            .iter()
            .map(|v| {
                [
                    v.first().map_or(NONE, |&b| name(b)),
                    v.get(1).map_or(NONE, |&b| name(b)),
                ]
            })
            .collect();
        let mut bm = [0u64; 64];
        for (b, &m) in board.box_mask.iter().enumerate() {
            bm[name(b) as usize] = m;
        }
        Ok(Solver {
            board,
            table: Table::new(bytes, nlines),
            near: Table::new(near, nlines),
            lb,
            bm,
            grid: Grid::new(board),
            nodes: AtomicU64::new(0),
        })
    }

    /// What a saved table starts with: the format (its number changes whenever keys or entries
    /// change meaning) and the board; the number of bits of a bucket's index follows.
    fn table_header(&self) -> Vec<u8> {
        let mut h = TABLE_FILE_FORMAT.to_vec();
        let b = self.board;
        for x in [b.rows, b.cols, b.nlines] {
            h.extend((x as u64).to_le_bytes());
        }
        h
    }

    /// Writes the transposition table to `path`, so that a long search stopped later can be
    /// resumed with [`Solver::load_table`]. It may run beside a search: every entry is a true
    /// bound on its own position, so any mix of old and new entries is a valid table. The file
    /// is written under another name and renamed, so a killed save leaves the previous one.
    /// Returns the number of entries in use.
    pub fn save_table(&self, path: &Path) -> std::io::Result<u64> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        w.write_all(&self.table_header())?;
        w.write_all(&(self.table.bits as u64).to_le_bytes())?;
        let (mut used, mut sum) = (0, CHECKSUM_START);
        for b in &self.table.buckets {
            for e in &b.0 {
                let d = e.load(Ordering::Relaxed);
                used += (d != 0) as u64;
                sum = checksum(sum, d);
                w.write_all(&d.to_le_bytes())?;
            }
        }
        w.write_all(&sum.to_le_bytes())?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(used)
    }

    /// Fills the (empty) table from a file [`Solver::save_table`] wrote for the same board, with
    /// a table of this size or smaller: an entry's bucket and tag are the low and high bits of
    /// its key's image, so each entry of a smaller table finds its place in a larger one (the
    /// eight of a bucket spread over buckets of their own). Refuses any other file, and a file
    /// whose checksum or entries are wrong (the table is then left empty).
    pub fn load_table(&self, path: &Path) -> std::io::Result<()> {
        let r = self.read_table(path);
        if r.is_err() {
            for b in &self.table.buckets {
                for e in &b.0 {
                    e.store(0, Ordering::Relaxed);
                }
            }
        }
        r
    }

    fn read_table(&self, path: &Path) -> std::io::Result<()> {
        let invalid = |what: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} was saved {what}", path.display()),
            )
        };
        let mut r = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
        let want = self.table_header();
        let mut got = vec![0; want.len() + 8];
        r.read_exact(&mut got)?;
        if got[..want.len()] != want[..] {
            return Err(invalid("for another board or table format"));
        }
        let old = u64::from_le_bytes(got[want.len()..].try_into().unwrap());
        let bits = self.table.bits;
        if old > bits as u64 {
            return Err(invalid("from a larger table"));
        }
        let data = (1u64 << DATA_BITS) - 1;
        let mut buf = [0u8; 64];
        let mut sum = CHECKSUM_START;
        for i in 0..1u64 << old {
            r.read_exact(&mut buf)?;
            for w in buf.chunks_exact(8) {
                let d = u64::from_le_bytes(w.try_into().unwrap());
                sum = checksum(sum, d);
                if d == 0 {
                    continue;
                }
                let e = Entry::unpack(d);
                if e.mv as usize >= self.board.nlines || e.lower > e.upper {
                    return Err(invalid("damaged: an entry holds no true bounds"));
                }
                let h = (d >> DATA_BITS) << old | i;
                let bucket = &self.table.buckets[(h & ((1 << bits) - 1)) as usize].0;
                // at most eight entries come to a bucket, all from bucket i
                if let Some(e) = bucket.iter().find(|e| e.load(Ordering::Relaxed) == 0) {
                    e.store((h >> bits) << DATA_BITS | d & data, Ordering::Relaxed);
                }
            }
        }
        let mut end = [0u8; 8];
        r.read_exact(&mut end)
            .map_err(|_| invalid("damaged: it ends before its checksum"))?;
        if u64::from_le_bytes(end) != sum {
            return Err(invalid("damaged: its checksum does not match its entries"));
        }
        if r.read(&mut buf)? != 0 {
            return Err(invalid("with more entries than its header says"));
        }
        Ok(())
    }

    /// The table of positions with `nfree` free lines.
    #[inline]
    fn table_for(&self, nfree: u32) -> &Table {
        if nfree < NEAR_FREE {
            &self.near
        } else {
            &self.table
        }
    }

    /// Nodes searched so far and the table size.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes.load(Ordering::Relaxed),
            table_bytes: self.table.bytes(),
        }
    }

    /// The best net score the player to move can force among the boxes not yet taken.
    /// Null-window tests ("is the value at least t?") step from 0 towards the value; the first
    /// levels of each test are searched in parallel (young brothers wait).
    pub fn value(&self, pos: &Position, ctl: &Ctl) -> Result<i32> {
        let flag = AtomicBool::new(false);
        let mut se = Searcher::new(self, ctl, Stops::root(&flag));
        let v = se.mtd(pos.lines, 0, true);
        se.count();
        ctl.check()?;
        v.map_err(|_| Error::cancelled())
    }

    /// Every legal line with its value for the mover, in board order (children with the same
    /// canonical position are solved once; distinct ones in parallel).
    pub fn moves(&self, pos: &Position, ctl: &Ctl) -> Result<Vec<MoveValue>> {
        let b = self.board;
        let legal = b.legal_moves(pos);
        let task = ctl.task("dots: solving the moves", Some(legal.len() as u64));
        let mut keys: Vec<u64> = legal
            .iter()
            .map(|&l| b.canonical(pos.lines | 1 << l))
            .collect();
        let mut reps: Vec<usize> = Vec::new(); // index into legal of one child per key
        {
            let mut seen = std::collections::HashMap::new();
            for (i, k) in keys.iter().enumerate() {
                seen.entry(*k).or_insert_with(|| {
                    reps.push(i);
                    i
                });
            }
        }
        let flag = AtomicBool::new(false);
        let solved: Vec<std::result::Result<(u64, i32), Stop>> = reps
            .par_iter()
            .map(|&i| {
                let child = pos.lines | 1 << legal[i];
                let mut se = Searcher::new(self, ctl, Stops::root(&flag));
                let v = se.mtd(child, 0, false);
                se.count();
                let _ = task.tick(1);
                v.map(|v| (keys[i], v))
            })
            .collect();
        ctl.check()?;
        let mut val = std::collections::HashMap::new();
        for s in solved {
            let (k, v) = s.map_err(|_| Error::cancelled())?;
            val.insert(k, v);
        }
        let out = legal
            .iter()
            .zip(keys.drain(..))
            .map(|(&l, k)| {
                let c = b.completes(pos, l);
                let v = val[&k];
                MoveValue {
                    line: l,
                    captures: c,
                    value: if c > 0 { c + v } else { -v },
                }
            })
            .collect();
        Ok(out)
    }
}

impl<'s, 'a> Searcher<'s, 'a> {
    fn new(s: &'s Solver<'a>, ctl: &'s Ctl, stop: Stops<'s>) -> Self {
        Searcher {
            s,
            ctl,
            stop,
            nodes: 0,
            counted: 0,
        }
    }

    /// Adds the nodes searched since the last call to the solver's count.
    fn count(&mut self) {
        let n = self.nodes - self.counted;
        self.s.nodes.fetch_add(n, Ordering::Relaxed);
        self.counted = self.nodes;
    }

    #[inline]
    fn completes(&self, pos: u64, l: usize) -> i32 {
        let p = pos | 1 << l;
        let bm = &self.s.bm;
        let [a, b] = self.s.lb[l];
        let mut k = 0;
        if a != NONE && p & bm[a as usize] == bm[a as usize] {
            k += 1;
        }
        if b != NONE && p & bm[b as usize] == bm[b as usize] {
            k += 1;
        }
        k
    }

    /// The capture situation of a position.
    #[inline]
    fn classify(&self, sc: &Scan) -> Kind {
        if sc.ones == 0 {
            return Kind::Free;
        }
        let bm = &self.s.bm;
        let free = sc.free;
        let deg = |b: u8| sc.deg(b);
        let across = |l: u64, from: u8| {
            let [x, y] = self.s.lb[l as usize];
            if x == from { y } else { x }
        };
        // candidates for the last choice: (capture, double-deal) per capturable component
        let mut caps = [0u8; 16];
        let mut deals = [0u8; 16];
        let mut n = 0;
        let mut ones = sc.ones;
        while ones != 0 {
            let b = ones.trailing_zeros() as u8;
            ones &= ones - 1;
            let s = (bm[b as usize] & free).trailing_zeros() as u64;
            let other = across(s, b);
            // a box alone on the border, a domino, or a box hanging off a junction
            if other == NONE || deg(other) != 2 {
                return Kind::Forced(s as u8);
            }
            let t = (bm[other as usize] & free & !(1 << s)).trailing_zeros() as u64;
            let x = across(t, other);
            if x != NONE {
                match deg(x) {
                    // a closed chain of three: take it all
                    1 => return Kind::Forced(s as u8),
                    2 => {
                        let u = (bm[x as usize] & free & !(1 << t)).trailing_zeros() as u64;
                        let y = across(u, x);
                        if y == NONE || deg(y) != 1 {
                            // a chain of three or more: take the first box in any case
                            return Kind::Forced(s as u8);
                        }
                        // a closed chain of four (an opened loop): take, or leave two dominoes
                    }
                    _ => {}
                }
            }
            if deals[..n].contains(&(t as u8)) {
                continue;
            }
            if n == 16 {
                return Kind::Free;
            }
            caps[n] = s as u8;
            deals[n] = t as u8;
            n += 1;
        }
        match n {
            0 => Kind::Free,
            1 => Kind::Choice([caps[0], deals[0]], 2),
            _ => {
                // several components: take one of them (the last one handled keeps the choice)
                let mut v = [0u8; 16];
                v[..n].copy_from_slice(&caps[..n]);
                Kind::Multi(v, n)
            }
        }
    }

    /// The exact value of a simple loony endgame: every box left has exactly two free sides, so
    /// the position is a sum of chains and loops and every move opens one of them. The player
    /// who opens a chain of 1 or 2 (the latter in the middle) hands it over; for a chain of
    /// three or more the opponent takes all, or all but two and leaves those with a double-deal
    /// (all but four for a loop) and lets the opener move again. `None` when there are too
    /// many components.
    fn loony_value(&self, sc: &Scan) -> Option<i32> {
        if sc.ones != 0 || sc.big != 0 {
            return None;
        }
        let bm = &self.s.bm;
        let free = sc.free;
        // components: (length, is a loop)
        let mut comps = [(0i32, false); 16];
        let mut k = 0;
        let mut seen = 0u64;
        let todo = sc.twos;
        while todo & !seen != 0 {
            let start = (todo & !seen).trailing_zeros() as u8;
            seen |= 1 << start;
            let mut len = 1;
            let mut is_loop = false;
            let f0 = bm[start as usize] & free;
            for l0 in [f0.trailing_zeros() as u64, 63 - f0.leading_zeros() as u64] {
                let (mut cur, mut l) = (start, l0);
                loop {
                    let [x, y] = self.s.lb[l as usize];
                    let nxt = if x == cur { y } else { x };
                    if nxt == NONE {
                        break;
                    }
                    if nxt == start {
                        is_loop = true;
                        break;
                    }
                    seen |= 1 << nxt;
                    len += 1;
                    l = (bm[nxt as usize] & free & !(1 << l)).trailing_zeros() as u64;
                    cur = nxt;
                }
                if is_loop {
                    break;
                }
            }
            if k == 16 {
                return None;
            }
            comps[k] = (len, is_loop);
            k += 1;
        }
        if k > 12 {
            return None;
        }
        // f[S]: the value for the player who must open a component of S
        let mut f = vec![0i32; 1 << k];
        for set in 1usize..1 << k {
            let mut best = i32::MIN;
            let mut rest = set;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (len, is_loop) = comps[i];
                let g = f[set & !(1 << i)];
                let opp = if is_loop {
                    (len + g).max(len - 8 - g)
                } else if len <= 2 {
                    len + g
                } else {
                    (len + g).max(len - 4 - g)
                };
                best = best.max(-opp);
            }
            f[set] = best;
        }
        Some(f[(1 << k) - 1])
    }

    /// The safe moves of a position without capturable boxes (one border side per box, centre
    /// first) into `buf`; returns their number and the candidate sacrifices (moves that give a
    /// box away, one border side per box), searched only if no safe move cuts off.
    #[inline]
    fn safe_moves(&self, sc: &Scan, buf: &mut [u8; 64]) -> (usize, u64) {
        let board = self.s.board;
        let free = sc.free;
        let mut skip = 0u64;
        for &g in &board.ground_mask {
            let u = g & free;
            skip |= u & (u.wrapping_sub(1) & u); // all but the lowest
        }
        let cand = free & !skip;
        (self.ranked(cand & !sc.sacr, buf, 0), cand & sc.sacr)
    }

    /// Appends the pending sacrifices of `node`, one per chain, those of short chains before
    /// those of long chains and loops.
    fn sacrifices(&self, node: &mut Node) {
        let (skip, long) = self.chain_skips(&node.sc);
        let late = node.late & !skip;
        node.late = 0;
        let n = self.ranked(late & !long, &mut node.moves, node.n);
        node.n = self.ranked(late & long, &mut node.moves, n);
    }

    /// Writes the lines of `set` into `buf` from `n` on, centre first; returns the new length.
    #[inline]
    fn ranked(&self, set: u64, buf: &mut [u8; 64], mut n: usize) -> usize {
        let board = self.s.board;
        let mut c = board.ranks(set);
        while c != 0 {
            buf[n] = board.order[c.trailing_zeros() as usize];
            n += 1;
            c &= c - 1;
        }
        n
    }

    /// Sacrifices not worth trying, in each chain of boxes with two free sides whose ends are the
    /// border or boxes with three or more free sides (junctions). Opened anywhere, a chain of
    /// three or more lets the receiver reach, by captures alone, the position after opening it
    /// at an end and taking all but the last two (the value of which he is held to there), so an
    /// end is best for the opener; both ends are alike (the positions after the receiver's two
    /// options agree up to where the last two boxes lie). A chain of two opened in the middle
    /// leaves only the captures (each box hangs off the border or a junction), which the receiver
    /// could also make after an end is opened (its ends are two different junctions: the grid has
    /// no triangles). The two lines of a single box lead to the same position after the forced
    /// capture. In an isolated loop all lines are alike, one is kept.
    fn chain_skips(&self, sc: &Scan) -> (u64, u64) {
        let bm = &self.s.bm;
        let free = sc.free;
        let mut skip = 0u64;
        let mut long = 0u64;
        let mut seen = 0u64;
        let twos = sc.twos;
        while twos & !seen != 0 {
            let start = (twos & !seen).trailing_zeros() as u8;
            seen |= 1 << start;
            let mut lines = bm[start as usize] & free;
            let mut boxes = 1;
            // per side: the line to the end and the box there (NONE: the border)
            let mut ends = [(0u64, NONE); 2];
            let mut is_loop = false;
            let f0 = lines;
            for (side, l0) in [f0.trailing_zeros() as u64, 63 - f0.leading_zeros() as u64]
                .into_iter()
                .enumerate()
            {
                let (mut cur, mut l) = (start, l0);
                loop {
                    let [x, y] = self.s.lb[l as usize];
                    let nxt = if x == cur { y } else { x };
                    if nxt == start {
                        is_loop = true;
                        break;
                    }
                    if nxt == NONE || sc.twos >> nxt & 1 == 0 {
                        ends[side] = (l, nxt);
                        break;
                    }
                    seen |= 1 << nxt;
                    boxes += 1;
                    lines |= bm[nxt as usize] & free;
                    l = (bm[nxt as usize] & free & !(1 << l)).trailing_zeros() as u64;
                    cur = nxt;
                }
                if is_loop {
                    break;
                }
            }
            let [(e0, x0), (e1, x1)] = ends;
            let keep = if is_loop {
                1u64 << lines.trailing_zeros()
            } else if [x0, x1].iter().any(|&x| x != NONE && sc.deg(x) < 3) {
                // an end at a capturable box
                continue;
            } else if boxes == 2 {
                lines & !(1u64 << e0) & !(1u64 << e1)
            } else {
                1u64 << e0
            };
            skip |= lines & !keep;
            if is_loop || boxes >= 3 {
                long |= lines;
            }
        }
        (skip, long)
    }

    /// The value for the mover at `pos` of drawing `l`, searched with window (alpha, beta),
    /// in parallel at `ply` if given.
    #[inline]
    fn child_value(
        &mut self,
        pos: u64,
        imgs: &Images,
        l: usize,
        alpha: i32,
        beta: i32,
        ply: Option<u32>,
    ) -> std::result::Result<i32, Stop> {
        let k = self.completes(pos, l);
        let child = pos | 1 << l;
        let imgs = self.s.board.images_add(pos, imgs, l);
        let (a, b) = if k > 0 {
            (alpha - k, beta - k)
        } else {
            (-beta, -alpha)
        };
        let v = match ply {
            Some(p) => self.par_search(child, &imgs, a, b, p, None)?,
            None => self.search(child, &imgs, a, b)?,
        };
        Ok(if k > 0 { k + v } else { -v })
    }

    /// The exact value by null-window tests from `guess`; `report` names each test as a task.
    fn mtd(&mut self, pos: u64, guess: i32, report: bool) -> std::result::Result<i32, Stop> {
        let r = self.s.board.boxes_left(&Position { lines: pos });
        // the value has the parity of r (own + opponent's boxes = r)
        let up = |x: i32| x + (x - r).rem_euclid(2);
        let down = |x: i32| x - (x - r).rem_euclid(2);
        let imgs = self.s.board.images(pos);
        let (mut lo, mut hi) = (-r, r);
        let mut g = up(guess.clamp(-r, r)).min(r);
        while lo < hi {
            let t = if g > lo { g.min(hi) } else { lo + 2 };
            let ctl = self.ctl;
            let task = report.then(|| ctl.task(&format!("dots: is the value at least {t}?"), None));
            let v = self.par_search(pos, &imgs, t - 1, t, 0, task.as_ref())?;
            if v >= t {
                lo = up(v).min(hi);
                g = lo;
            } else {
                hi = down(v).max(lo);
                g = hi;
            }
        }
        Ok(lo)
    }

    /// The forced captures, the cutoffs without search (bounds, the table, the loony endgame
    /// formula), then the moves to search: `Err` holds a value found without search.
    #[inline]
    fn prepare(
        &mut self,
        pos: u64,
        imgs: &Images,
        alpha: i32,
        beta: i32,
    ) -> std::result::Result<Node, i32> {
        let board = self.s.board;
        let mut pos = pos;
        let mut imgs = *imgs;
        let mut gained = 0;
        let (kind, sc) = loop {
            let sc = self.s.grid.scan(!pos & board.full);
            match self.classify(&sc) {
                Kind::Forced(s) => {
                    gained += self.completes(pos, s as usize);
                    imgs = board.images_add(pos, &imgs, s as usize);
                    pos |= 1 << s;
                }
                k => break (k, sc),
            }
        };
        if pos == board.full {
            return Err(gained);
        }
        let (alpha, beta) = (alpha - gained, beta - gained);
        let r = sc.left;
        if r <= alpha {
            return Err(gained + r);
        }
        // Facing a capture with a choice (the last two boxes of a chain or four of a loop, taken
        // or left with a double-deal), the mover's two options lead to the same position with
        // the other player to move after the same boxes, won by one or the other, so the best of
        // them is at least 0: the receiver of a loony move never loses on what is left. The
        // value has the parity of r.
        let mut lo = match kind {
            Kind::Choice(..) | Kind::Multi(..) => r & 1,
            _ => -r,
        };
        if lo >= beta {
            return Err(gained + lo);
        }
        if let Some(v) = self.loony_value(&sc) {
            return Err(gained + v);
        }
        let nfree = sc.free.count_ones();
        // positions near the end are searched without the table (a probe costs more); most
        // probes answer at once (the parent asked for safe children's buckets ahead), so the
        // probe comes before the moves
        let key = (nfree >= TABLE_MIN_FREE).then(|| board.canonical_of(&imgs));
        let entry = key.and_then(|(k, _)| self.s.table_for(nfree).probe(k));
        let mut hi = r;
        if let Some(e) = entry {
            lo = lo.max(e.lower);
            hi = hi.min(e.upper);
            if lo >= beta || lo == hi {
                return Err(gained + lo);
            }
            if hi <= alpha {
                return Err(gained + hi);
            }
        }
        let mut moves = [0u8; 64];
        let (mut n, mut late) = match kind {
            Kind::Choice(v, n) => {
                moves[..n].copy_from_slice(&v[..n]);
                (n, 0)
            }
            Kind::Multi(v, n) => {
                moves[..n].copy_from_slice(&v[..n]);
                (n, 0)
            }
            _ => self.safe_moves(&sc, &mut moves),
        };
        if let (Some(e), Some((_, g))) = (entry, key) {
            // the table's best move first
            let t = board.syms_inv[g][e.mv as usize];
            if let Some(i) = moves[..n].iter().position(|&l| l == t) {
                moves[..=i].rotate_right(1);
            } else if late >> t & 1 == 1 {
                moves[..=n].rotate_right(1);
                moves[0] = t;
                n += 1;
                late &= !(1 << t);
            }
        }
        // the safe children's buckets come in together while this one is set up and the first
        // are searched (most children are answered by the table at once, so loads asked for one
        // child ahead would still wait on memory)
        for &l in &moves[..n] {
            self.prefetch_child(pos, &imgs, &sc, l);
        }
        Ok(Node {
            pos,
            imgs,
            gained,
            r,
            key,
            lo,
            a0: alpha.max(lo),
            b0: beta.min(hi),
            moves,
            n,
            late,
            sc,
        })
    }

    /// Asks for the table bucket of the child after the safe move `l` (no capturable box before
    /// or after it, so the child is probed as it is) to be brought into the cache.
    #[inline(always)]
    fn prefetch_child(&self, pos: u64, imgs: &Images, sc: &Scan, l: u8) {
        let nfree = sc.free.count_ones() - 1;
        if sc.ones == 0 && sc.sacr >> l & 1 == 0 && nfree >= TABLE_MIN_FREE {
            let board = self.s.board;
            let child = board.images_add(pos, imgs, l as usize);
            self.s
                .table_for(nfree)
                .prefetch(board.canonical_of(&child).0);
        }
    }

    /// Stores the result of a searched node in the table; returns its value.
    #[inline]
    fn finish(&self, node: &Node, best: i32, best_move: u8, work: u64) -> i32 {
        if let Some((key, g)) = node.key {
            let (lower, upper) = if best <= node.a0 {
                (node.lo, best)
            } else if best >= node.b0 {
                (best, node.r)
            } else {
                (best, best)
            };
            let mv = self.s.board.syms[g][best_move as usize];
            // the bits of the number of nodes the result cost: the costliest results are kept
            let depth = 64 - work.leading_zeros();
            self.s.table_for(node.sc.free.count_ones()).store(
                key,
                Entry {
                    lower,
                    upper,
                    mv,
                    depth,
                },
            );
        }
        node.gained + best
    }

    /// Negamax alpha-beta, fail-soft: the value for the mover of the boxes not yet taken.
    fn search(
        &mut self,
        pos: u64,
        imgs: &Images,
        alpha: i32,
        beta: i32,
    ) -> std::result::Result<i32, Stop> {
        let start = self.nodes;
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if self.stop.any() || self.ctl.cancelled() {
                return Err(Stop);
            }
            // the solver's count stays current during a long search
            if self.nodes & 0xf_ffff == 0 {
                self.count();
            }
        }
        let mut node = match self.prepare(pos, imgs, alpha, beta) {
            Ok(node) => node,
            Err(v) => return Ok(v),
        };
        let mut a = node.a0;
        let mut best = i32::MIN;
        let mut best_move = NONE;
        let mut i = 0;
        loop {
            if i == node.n {
                if node.late == 0 {
                    break;
                }
                self.sacrifices(&mut node);
                if i == node.n {
                    break;
                }
            }
            let l = node.moves[i];
            i += 1;
            let v = self.child_value(node.pos, &node.imgs, l as usize, a, node.b0, None)?;
            if v > best {
                best = v;
                best_move = l;
                if v > a {
                    a = v;
                    if a >= node.b0 {
                        break;
                    }
                }
            }
        }
        Ok(self.finish(&node, best, best_move, self.nodes - start))
    }

    /// [`Searcher::search`] with the first levels in parallel: the first move alone (searched the
    /// same way one level down), then the other distinct moves in parallel, the first to reach
    /// beta stopping its siblings. `task` ticks once per move done.
    fn par_search(
        &mut self,
        pos: u64,
        imgs: &Images,
        alpha: i32,
        beta: i32,
        ply: u32,
        task: Option<&Task>,
    ) -> std::result::Result<i32, Stop> {
        if ply >= PARALLEL_PLIES || (!pos & self.s.board.full).count_ones() < SERIAL_BELOW {
            return self.search(pos, imgs, alpha, beta);
        }
        self.nodes += 1;
        if self.stop.any() || self.ctl.cancelled() {
            return Err(Stop);
        }
        let mut node = match self.prepare(pos, imgs, alpha, beta) {
            Ok(node) => node,
            Err(v) => return Ok(v),
        };
        if node.late != 0 {
            self.sacrifices(&mut node);
        }
        let first = node.moves[0];
        let mut best = self.child_value(
            node.pos,
            &node.imgs,
            first as usize,
            node.a0,
            node.b0,
            Some(ply + 1),
        )?;
        let mut best_move = first;
        if let Some(t) = task {
            let _ = t.tick(1);
        }
        if best < node.b0 {
            // children equal under the symmetries are searched once
            let board = self.s.board;
            let mut seen = std::collections::HashSet::new();
            let rest: Vec<u8> = node.moves[..node.n]
                .iter()
                .copied()
                .filter(|&l| seen.insert(board.canonical(node.pos | 1 << l)))
                .skip(1)
                .collect();
            let a = node.a0.max(best);
            let flag = AtomicBool::new(false);
            let stops = Stops {
                flag: &flag,
                up: Some(&self.stop),
            };
            let (s, ctl) = (self.s, self.ctl);
            let done: Vec<std::result::Result<(i32, u8), Stop>> = rest
                .par_iter()
                .map(|&l| {
                    if stops.any() {
                        return Err(Stop);
                    }
                    let mut se = Searcher::new(s, ctl, stops);
                    let v =
                        se.child_value(node.pos, &node.imgs, l as usize, a, node.b0, Some(ply + 1));
                    se.count();
                    if let Some(t) = task {
                        let _ = t.tick(1);
                    }
                    let v = v?;
                    if v >= node.b0 {
                        flag.store(true, Ordering::Relaxed);
                    }
                    Ok((v, l))
                })
                .collect();
            let mut stopped = false;
            for d in done {
                match d {
                    Ok((v, l)) if v > best => {
                        best = v;
                        best_move = l;
                    }
                    Ok(_) => {}
                    Err(Stop) => stopped = true,
                }
            }
            // a sibling's cutoff stops the others; any other stop comes from above
            if stopped && best < node.b0 {
                return Err(Stop);
            }
        }
        // the other threads' nodes are not counted here: these few results are kept first
        Ok(self.finish(&node, best, best_move, u64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards of every shape up to 64 lines, as (rows, cols).
    const BOARDS: [(usize, usize); 8] = [
        (1, 1),
        (2, 3),
        (3, 2),
        (3, 4),
        (4, 4),
        (5, 5),
        (1, 21),
        (21, 1),
    ];

    /// The bit-sliced scan against a count of each box's free sides.
    #[test]
    fn scan_counts_free_sides() {
        let mut rng = crate::engine::xorshift(0x2545_F491_4F6C_DD1D);
        for (m, n) in BOARDS {
            let b = Dots::new(m, n).unwrap();
            let g = Grid::new(&b);
            for _ in 0..2000 {
                let free = rng() & rng() & b.full;
                let sc = g.scan(free);
                let (mut ones, mut twos, mut big, mut left, mut sacr) = (0u64, 0u64, 0u64, 0, 0u64);
                for &mask in &b.box_mask {
                    // a box is named by its top side
                    let i = mask.trailing_zeros();
                    match (mask & free).count_ones() {
                        0 => {}
                        1 => ones |= 1 << i,
                        2 => {
                            twos |= 1 << i;
                            sacr |= mask & free;
                        }
                        _ => big |= 1 << i,
                    }
                    left += (mask & free != 0) as i32;
                }
                assert_eq!(
                    (sc.ones, sc.twos, sc.big, sc.left, sc.sacr),
                    (ones, twos, big, left, sacr),
                    "{m} x {n}, free {free:#x}"
                );
            }
        }
    }

    /// The images kept line by line against those computed from scratch, so that every
    /// position has one key whatever the order its lines were drawn in.
    #[test]
    fn images_follow_the_lines() {
        let mut rng = crate::engine::xorshift(0x9E37_79B9_7F4A_7C15);
        for (m, n) in BOARDS {
            let b = Dots::new(m, n).unwrap();
            for _ in 0..200 {
                let (mut lines, mut imgs) = (0u64, b.images(0));
                while lines != b.full {
                    let free = b.full & !lines;
                    let mut l = (rng() % b.num_lines() as u64) as usize;
                    if free >> l & 1 == 0 {
                        l = free.trailing_zeros() as usize;
                    }
                    imgs = b.images_add(lines, &imgs, l);
                    lines |= 1 << l;
                    assert_eq!(imgs, b.images(lines), "{m} x {n}, lines {lines:#x}");
                }
            }
        }
    }

    /// A table saved and loaded again, into a table of its size or a larger one, answers the
    /// same search at once; a file saved for another board or from a larger table is refused.
    #[test]
    fn a_saved_table_resumes_the_search() {
        let ctl = Ctl::default();
        let path = std::env::temp_dir().join(format!("gamut-tt-{}.bin", std::process::id()));
        let b = Dots::new(3, 3).unwrap();
        let first = Solver::with_table_bytes(&b, 1 << 20, &ctl).unwrap();
        let v = first.value(&b.empty(), &ctl).unwrap();
        first.save_table(&path).unwrap();
        let again = Solver::with_table_bytes(&b, 1 << 20, &ctl).unwrap();
        again.load_table(&path).unwrap();
        assert_eq!(again.value(&b.empty(), &ctl).unwrap(), v);
        assert!(again.stats().nodes * 100 < first.stats().nodes);
        // a larger table takes the entries of a smaller one, not the other way round
        let bigger = Solver::with_table_bytes(&b, 1 << 22, &ctl).unwrap();
        bigger.load_table(&path).unwrap();
        assert_eq!(bigger.value(&b.empty(), &ctl).unwrap(), v);
        assert!(bigger.stats().nodes * 100 < first.stats().nodes);
        bigger.save_table(&path).unwrap();
        assert!(first.load_table(&path).is_err());
        let other = Dots::new(2, 4).unwrap();
        let other = Solver::with_table_bytes(&other, 1 << 20, &ctl).unwrap();
        assert!(other.load_table(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
