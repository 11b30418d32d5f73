//! What a tension scene reads of one action: its hours paid and gained,
//! its success and whether a venture was left unspent, packed into the
//! one word its tables hold. The plain chains ([`plain`](super::plain))
//! and the general loop's tables ([`prepared`](super::prepared)) both
//! draw actions packed this way.

use crate::systems::cgg::action::{Outcome, field};

/// What a scene needs of one action, unpacked from its drawn value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drawn {
    pub paid: u32,
    pub gained: u32,
    pub success: bool,
    /// A venture left unspent.
    pub venture_left: bool,
}

/// Bits of the hours fields in a drawn value.
const HOURS_BITS: u32 = 12;
const HOURS_MASK: u32 = (1 << HOURS_BITS) - 1;
const SUCCESS_BIT: u32 = 1 << (2 * HOURS_BITS);
const LEFT_BIT: u32 = SUCCESS_BIT << 1;

/// The value of outcome `o` that a scene's table holds.
pub(super) fn pack(o: &Outcome) -> u32 {
    let d = Drawn::of(o);
    d.paid.min(HOURS_MASK)
        | d.gained.min(HOURS_MASK) << HOURS_BITS
        | if d.success { SUCCESS_BIT } else { 0 }
        | if d.venture_left { LEFT_BIT } else { 0 }
}

impl Drawn {
    /// What a scene reads of outcome `o`.
    pub fn of(o: &Outcome) -> Drawn {
        Drawn {
            paid: o[field::HOURS_PAID] as u32,
            gained: o[field::HOURS_GAINED] as u32,
            success: o[field::SUCCESS] == 1,
            venture_left: o[field::VENTURE_LEFT] >= 1,
        }
    }

    pub(super) fn unpack(v: u32) -> Drawn {
        Drawn {
            paid: v & HOURS_MASK,
            gained: (v >> HOURS_BITS) & HOURS_MASK,
            success: v & SUCCESS_BIT != 0,
            venture_left: v & LEFT_BIT != 0,
        }
    }
}
