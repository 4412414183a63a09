//! The one seeded random number generator of a game, and dice drawn from it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// ChaCha8 is portable and serializable, so a saved state replays the same rolls anywhere.
pub type GameRng = ChaCha8Rng;

pub fn seeded(seed: u64) -> GameRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A whole number in `0..n`; `n` must be positive.
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    rng.random_range(0..n)
}

/// Rolls a die with `sides` faces numbered from 1.
pub fn roll(rng: &mut GameRng, sides: i64) -> i64 {
    rng.random_range(1..=sides)
}

/// Fisher-Yates shuffle driven by the game RNG.
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// Mixes a base seed with an index (SplitMix64), so game `i` of a simulation depends on both
/// alone and not on which thread plays it.
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
