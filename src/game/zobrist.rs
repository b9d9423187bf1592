//! Fixed Zobrist keys, generated at compile time from a fixed seed so hashes are the same on every run
//! and every machine. Keys are per colour and per protocol point (`y * MAX_SIZE + x`), so a position's
//! hash does not depend on the board's internal layout.
use super::types::MAX_SIZE;

const POINTS: usize = MAX_SIZE * MAX_SIZE;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; POINTS]; 2], u64) {
    let mut keys = [[0u64; POINTS]; 2];
    let mut state = 0x486F_7368_6947_6F6Du64; // "HoshiGom"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < POINTS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][i] = k;
            i += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const KEYS: ([[u64; POINTS]; 2], u64) = build();

/// Key of a stone of colour index `color` (0 black, 1 white) at protocol point (x, y).
pub(crate) fn stone_key(color: usize, x: usize, y: usize) -> u64 {
    KEYS.0[color][y * MAX_SIZE + x]
}

/// XORed in whenever the side to move changes (i.e. on every move): white to move has it set.
pub(crate) const SIDE_KEY: u64 = KEYS.1;
