//! The transposition table the alpha-beta threads share (Lazy SMP): buckets of two entries,
//! each written as two relaxed 64-bit words with the key stored XOR the data, so a torn write
//! (two threads racing on one slot) reads as a miss instead of a wrong hit. No locks.
use std::sync::atomic::{AtomicU64, Ordering};

use super::score::{is_mate, MATE};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One probed entry, with its mate scores made relative to the probing node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best move (a board index), if the search had one.
    pub mv: Option<usize>,
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Bytes of one entry.
pub const ENTRY_BYTES: u64 = 16;
/// The smallest table: 2^12 entries (64 KiB).
const MIN_ENTRIES: u64 = 1 << 12;
/// A "no move" in the packed data (board indices stay far below it).
const NO_MOVE: u64 = 0xFFFF;

pub struct Table {
    slots: Vec<Slot>,
    /// `slots.len() / 2 - 1`: buckets are pairs of slots.
    mask: u64,
    /// Bumped at each search so that old entries are replaced first.
    generation: u8,
}

impl Table {
    /// The largest table (a power of two entries) within `bytes`.
    pub fn with_bytes(bytes: u64) -> Table {
        let entries = (bytes / ENTRY_BYTES).max(MIN_ENTRIES);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let slots = (0..entries)
            .map(|_| Slot {
                key: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            mask: entries / 2 - 1,
            generation: 0,
        }
    }

    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * ENTRY_BYTES
    }

    pub fn clear(&mut self) {
        for s in &self.slots {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// A new search: entries of earlier ones become the first to go.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    fn bucket(&self, key: u64) -> usize {
        ((key & self.mask) * 2) as usize
    }

    /// The entry for `key`, its mate scores seen from a node `ply` plies below the root.
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.key.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data, ply));
            }
        }
        None
    }

    /// Stores a search result for `key` found `ply` plies below the root.
    pub fn store(&self, key: u64, ply: i32, entry: Entry) {
        let b = self.bucket(key);
        let data = pack(entry, ply, self.generation);
        // The slot that holds this key, else an empty one, else the less valuable one (older
        // generation, then shallower).
        let worth = |d: u64| {
            let age = (self.generation.wrapping_sub(gen_of(d)) & 0x3F) as i32;
            depth_of(d) - 8 * age
        };
        let mut pick = b;
        let mut pick_worth = i32::MAX;
        for i in b..b + 2 {
            let s = &self.slots[i];
            let d = s.data.load(Ordering::Relaxed);
            if d == 0 || s.key.load(Ordering::Relaxed) ^ d == key {
                // Keep a deeper result of the same position unless this one is exact.
                if d != 0 && depth_of(d) > entry.depth + 2 && entry.bound != Bound::Exact {
                    return;
                }
                pick = i;
                break;
            }
            let w = worth(d);
            if w < pick_worth {
                pick_worth = w;
                pick = i;
            }
        }
        let s = &self.slots[pick];
        s.key.store(key ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }
}

/// Mate scores are stored relative to the stored node (distance from it), not the root.
fn to_table(score: i32, ply: i32) -> i32 {
    if is_mate(score) {
        score + score.signum() * ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if is_mate(score) {
        score - score.signum() * ply
    } else {
        score
    }
}

// Layout: move 16 bits | score 16 | eval 16 | depth 8 | bound 2 | generation 6.
fn pack(e: Entry, ply: i32, generation: u8) -> u64 {
    let mv = e.mv.map_or(NO_MOVE, |m| m as u64 & 0xFFFF);
    let score = to_table(e.score, ply).clamp(-MATE, MATE) as i16 as u16 as u64;
    let eval = e.eval.clamp(-MATE, MATE) as i16 as u16 as u64;
    let depth = e.depth.clamp(-100, 127) as i8 as u8 as u64;
    mv | score << 16 | eval << 32 | depth << 48 | (e.bound as u64) << 56 | (generation as u64) << 58
}

fn depth_of(d: u64) -> i32 {
    (d >> 48) as u8 as i8 as i32
}

fn gen_of(d: u64) -> u8 {
    (d >> 58) as u8 & 0x3F
}

fn unpack(d: u64, ply: i32) -> Entry {
    let mv = d & 0xFFFF;
    Entry {
        mv: (mv != NO_MOVE).then_some(mv as usize),
        score: from_table((d >> 16) as u16 as i16 as i32, ply),
        eval: (d >> 32) as u16 as i16 as i32,
        depth: depth_of(d),
        bound: match (d >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_mates_follow_the_ply() {
        let mut t = Table::with_bytes(1 << 16);
        t.new_search();
        let e = Entry {
            mv: Some(123),
            score: -456,
            eval: 77,
            depth: 9,
            bound: Bound::Lower,
        };
        t.store(0xDEAD_BEEF, 3, e);
        assert_eq!(t.probe(0xDEAD_BEEF, 3), Some(e));
        assert_eq!(t.probe(0xDEAD_BEEE, 3), None);
        // A mate in 5 from a node at ply 2 is a mate in 5 from the same node reached at ply 6,
        // i.e. 4 plies further from the root.
        let mate = Entry {
            mv: None,
            score: MATE - 7,
            eval: 0,
            depth: -1,
            bound: Bound::Exact,
        };
        t.store(42, 2, mate);
        let got = t.probe(42, 6).unwrap();
        assert_eq!(got.score, MATE - 11);
        assert_eq!(got.mv, None);
        assert_eq!(got.depth, -1);
        t.clear();
        assert_eq!(t.probe(42, 6), None);
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_entry() {
        let t = Table::with_bytes(0);
        let buckets = t.mask + 1;
        let entry = |depth| Entry {
            mv: None,
            score: 0,
            eval: 0,
            depth,
            bound: Bound::Exact,
        };
        // Three keys of one bucket: the shallowest is replaced.
        t.store(5, 0, entry(10));
        t.store(5 + buckets, 0, entry(2));
        t.store(5 + 2 * buckets, 0, entry(6));
        assert!(t.probe(5, 0).is_some());
        assert!(t.probe(5 + buckets, 0).is_none());
        assert!(t.probe(5 + 2 * buckets, 0).is_some());
        assert!(t.bytes() >= MIN_ENTRIES * ENTRY_BYTES);
    }
}
