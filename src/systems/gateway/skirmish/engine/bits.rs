//! Walks over the set bits of a mask: the entities of an entity mask, the
//! line slots of a line mask, lowest first, so that a loop visits only
//! those and not every entity or slot.

/// The entities of a mask (its set bits), lowest first: a walk over
/// those alone, not over every entity.
#[derive(Clone, Copy)]
pub(super) struct Bits(pub(super) u16);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        // Masked: the compiler then knows the entity is below 16, and a
        // table 16 wide (`W`) is read without a bounds check.
        let j = (self.0.trailing_zeros() & 15) as usize;
        self.0 &= self.0 - 1;
        Some(j)
    }
}

/// The line slots of a mask (its set bits), lowest first.
#[derive(Clone, Copy)]
pub(super) struct Bits64(pub(super) u64);

impl Iterator for Bits64 {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(p)
    }
}
