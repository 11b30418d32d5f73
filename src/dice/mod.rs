//! Dice and pools: unbiased, fast rolls drawn from one seeded stream.
//!
//! Every roll in oddsmith goes through [`DiceRng`]. It never reduces raw bits
//! with `% n` (that favours low faces): power-of-two dice take bit fields of
//! the stream, every other die uses Lemire's multiply-shift with rejection
//! (D. Lemire, "Fast random integer generation in an interval", ACM TOMACS
//! 2019). Pools that keep their highest die use precomputed tables over
//! packed d8 faces, which is where the Monte Carlo engine spends its time.

pub mod alias;
mod rng;

pub use alias::Alias;
pub use rng::{DiceRng, PACKED_D8_MAX, d8_highest_packed};

/// Faces on a Gateway die.
pub const D8: u32 = 8;
