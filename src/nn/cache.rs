//! A bounded evaluation cache: a fixed-size, direct-mapped table split into lock stripes, keyed
//! by a 64-bit position key. A slot keeps the policy (over board points) and the WDL; a newer
//! entry simply replaces whatever shared its slot. CacheSlot buffers are reused, so once warm the
//! cache allocates nothing.
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

const STRIPES: usize = 64;

#[derive(Default)]
struct CacheSlot {
    key: u64,
    used: bool,
    wdl: [f32; 3],
    policy: Vec<f32>,
}

pub struct EvalCache {
    stripes: Vec<Mutex<Vec<CacheSlot>>>,
    slots_per_stripe: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub capacity: usize,
    pub hits: u64,
    pub misses: u64,
}

impl CacheStats {
    pub fn hit_rate(&self) -> f64 {
        let total = self.hits + self.misses;
        if total == 0 {
            0.0
        } else {
            self.hits as f64 / total as f64
        }
    }
}

impl EvalCache {
    /// A cache of about `capacity` entries (rounded up to a multiple of the stripe count);
    /// 0 disables it (every lookup misses, inserts are ignored).
    pub fn new(capacity: usize) -> EvalCache {
        let stripes = if capacity == 0 {
            0
        } else {
            STRIPES.min(capacity)
        };
        let slots_per_stripe = if stripes == 0 {
            0
        } else {
            capacity.div_ceil(stripes)
        };
        EvalCache {
            stripes: (0..stripes)
                .map(|_| {
                    Mutex::new(
                        (0..slots_per_stripe)
                            .map(|_| CacheSlot::default())
                            .collect(),
                    )
                })
                .collect(),
            slots_per_stripe,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn capacity(&self) -> usize {
        self.stripes.len() * self.slots_per_stripe
    }

    fn locate(&self, key: u64) -> (usize, usize) {
        // Low bits choose the stripe, high bits the slot, so both spread evenly.
        let stripe = (key % self.stripes.len() as u64) as usize;
        let slot = ((key >> 32) ^ (key >> 7)) as usize % self.slots_per_stripe;
        (stripe, slot)
    }

    /// On a hit, copies the policy into `policy` (whose length must equal the stored one) and
    /// returns the WDL.
    pub fn lookup(&self, key: u64, policy: &mut [f32]) -> Option<[f32; 3]> {
        if self.stripes.is_empty() {
            self.misses.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        let (stripe, slot) = self.locate(key);
        let stripe = self.stripes[stripe].lock();
        let s = &stripe[slot];
        if s.used && s.key == key && s.policy.len() == policy.len() {
            policy.copy_from_slice(&s.policy);
            self.hits.fetch_add(1, Ordering::Relaxed);
            Some(s.wdl)
        } else {
            self.misses.fetch_add(1, Ordering::Relaxed);
            None
        }
    }

    pub fn insert(&self, key: u64, policy: &[f32], wdl: [f32; 3]) {
        if self.stripes.is_empty() {
            return;
        }
        let (stripe, slot) = self.locate(key);
        let mut stripe = self.stripes[stripe].lock();
        let s = &mut stripe[slot];
        s.key = key;
        s.used = true;
        s.wdl = wdl;
        s.policy.clear();
        s.policy.extend_from_slice(policy);
    }

    /// Forgets every entry (e.g. when a new network is loaded). Keeps the counters.
    pub fn clear(&self) {
        for stripe in &self.stripes {
            for s in stripe.lock().iter_mut() {
                s.used = false;
            }
        }
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            capacity: self.capacity(),
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let cache = EvalCache::new(1000);
        assert!(cache.capacity() >= 1000);
        let mut out = vec![0.0; 4];
        assert_eq!(cache.lookup(42, &mut out), None);
        cache.insert(42, &[0.1, 0.2, 0.3, 0.4], [0.5, 0.25, 0.25]);
        assert_eq!(cache.lookup(42, &mut out), Some([0.5, 0.25, 0.25]));
        assert_eq!(out, vec![0.1, 0.2, 0.3, 0.4]);
        // A different board size under the same key is not a hit.
        assert_eq!(cache.lookup(42, &mut [0.0; 9]), None);
        assert_eq!(
            cache.stats(),
            CacheStats {
                capacity: cache.capacity(),
                hits: 1,
                misses: 2
            }
        );
        cache.clear();
        assert_eq!(cache.lookup(42, &mut out), None);
    }

    #[test]
    fn stays_bounded_and_keeps_recent_entries() {
        let cache = EvalCache::new(128);
        for k in 0..10_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            cache.insert(key, &[k as f32], [0.0; 3]);
            // The entry just written is always there, with its own data.
            let mut out = [0.0];
            assert!(cache.lookup(key, &mut out).is_some());
            assert_eq!(out[0], k as f32);
        }
        let total: usize = cache
            .stripes
            .iter()
            .map(|s| s.lock().iter().filter(|s| s.used).count())
            .sum();
        assert!(total <= cache.capacity());
    }

    #[test]
    fn zero_capacity_disables_the_cache() {
        let cache = EvalCache::new(0);
        cache.insert(1, &[1.0], [1.0, 0.0, 0.0]);
        assert_eq!(cache.lookup(1, &mut [0.0]), None);
        assert_eq!(cache.stats().misses, 1);
    }
}
