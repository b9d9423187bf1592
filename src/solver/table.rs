//! The solver's transposition table: fixed size, hash-keyed, two slots per bucket.
//!
//! An entry records a proven win (with the winning move at attacker nodes) or a failure found at a
//! given remaining depth. A failure with depth [`EXACT`] did not depend on any depth limit and holds
//! for every depth.

/// Depth value of a failure that holds at any depth (and of every VCF failure).
pub(crate) const EXACT: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stored {
    /// The attacker wins; `best` is the winning attacker move (board index) where there is one,
    /// `depth` the depth the proof used (a win holds at any depth, but rebuilding its line needs
    /// that much).
    Win { best: Option<u16>, depth: u8 },
    /// The attacker does not win within `depth` more threat moves.
    Fail { depth: u8 },
}

#[derive(Clone, Copy, Default)]
struct ProofSlot {
    key: u64,
    /// 0 empty, 1 win, 2 fail.
    kind: u8,
    depth: u8,
    /// Board index + 1 of the best move, 0 for none.
    best: u16,
}

pub(crate) struct Table {
    slots: Vec<ProofSlot>,
    /// Bucket mask: buckets are pairs of slots.
    mask: usize,
}

impl Table {
    /// A table of `2^bits` slots (at least 2); each slot takes 16 bytes.
    pub(crate) fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(1, 30);
        Table {
            slots: vec![ProofSlot::default(); len],
            mask: (len / 2) - 1,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.slots.fill(ProofSlot::default());
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    fn bucket(&self, key: u64) -> usize {
        // The low bits pick the bucket; keys are Zobrist hashes, uniform enough.
        ((key as usize) & self.mask) * 2
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Stored> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.kind != 0 && s.key == key)
            .map(|s| match s.kind {
                1 => Stored::Win {
                    best: s.best.checked_sub(1),
                    depth: s.depth,
                },
                _ => Stored::Fail { depth: s.depth },
            })
    }

    /// Stores a result. Same key: overwritten. Otherwise the less valuable slot of the bucket goes:
    /// wins are kept over failures, deeper failures over shallower ones.
    pub(crate) fn store(&mut self, key: u64, value: Stored) {
        let slot = match value {
            Stored::Win { best, depth } => ProofSlot {
                key,
                kind: 1,
                depth,
                best: best.map_or(0, |b| b + 1),
            },
            Stored::Fail { depth } => ProofSlot {
                key,
                kind: 2,
                depth,
                best: 0,
            },
        };
        let b = self.bucket(key);
        let worth = |s: &ProofSlot| match s.kind {
            0 => 0u32,
            1 => 1000,
            _ => 1 + s.depth as u32,
        };
        let pair = &mut self.slots[b..b + 2];
        let target = if let Some(i) = pair.iter().position(|s| s.kind != 0 && s.key == key) {
            i
        } else if worth(&pair[0]) <= worth(&pair[1]) {
            0
        } else {
            1
        };
        pair[target] = slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(4);
        assert_eq!(t.len(), 16);
        assert_eq!(t.probe(42), None);
        t.store(
            42,
            Stored::Win {
                best: Some(7),
                depth: 3,
            },
        );
        t.store(43, Stored::Fail { depth: 3 });
        assert_eq!(
            t.probe(42),
            Some(Stored::Win {
                best: Some(7),
                depth: 3
            })
        );
        assert_eq!(t.probe(43), Some(Stored::Fail { depth: 3 }));
        t.store(43, Stored::Fail { depth: EXACT });
        assert_eq!(t.probe(43), Some(Stored::Fail { depth: EXACT }));
        t.store(
            44,
            Stored::Win {
                best: None,
                depth: EXACT,
            },
        );
        assert_eq!(
            t.probe(44),
            Some(Stored::Win {
                best: None,
                depth: EXACT
            })
        );
        t.clear();
        assert_eq!(t.probe(42), None);
    }

    #[test]
    fn wins_survive_collisions() {
        let mut t = Table::new(2); // one bucket... of two slots: mask 1, two buckets.
        let same_bucket = |k: u64| k * 2; // all even keys share bucket 0
        t.store(
            same_bucket(1),
            Stored::Win {
                best: Some(1),
                depth: 1,
            },
        );
        t.store(same_bucket(2), Stored::Fail { depth: 1 });
        t.store(same_bucket(3), Stored::Fail { depth: 2 });
        assert_eq!(
            t.probe(same_bucket(1)),
            Some(Stored::Win {
                best: Some(1),
                depth: 1
            })
        );
        assert_eq!(t.probe(same_bucket(2)), None);
        assert_eq!(t.probe(same_bucket(3)), Some(Stored::Fail { depth: 2 }));
    }
}
