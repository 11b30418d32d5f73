//! Action effects (rules §1.2) and an action: one or more effects
//! rolled together, with chosen raises.

use std::fmt;

/// One action effect. The discriminants order the initiative hierarchy
/// (Set-up > Edge > Press > Accelerate > Block); Climax and Anticlimax end
/// the scene when they succeed, so they have no rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    Block = 0,
    Accelerate = 1,
    Press = 2,
    Edge = 3,
    Setup = 4,
    Climax = 5,
    Anticlimax = 6,
}

impl Effect {
    pub const ALL: [Effect; 7] = [
        Effect::Edge,
        Effect::Setup,
        Effect::Press,
        Effect::Accelerate,
        Effect::Block,
        Effect::Climax,
        Effect::Anticlimax,
    ];

    /// The name a policy writes.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Edge => "edge",
            Effect::Setup => "setup",
            Effect::Press => "press",
            Effect::Accelerate => "accelerate",
            Effect::Block => "block",
            Effect::Climax => "climax",
            Effect::Anticlimax => "anticlimax",
        }
    }

    pub fn from_name(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.name() == s)
    }

    /// Its place in the initiative hierarchy, 1 (Block) to 5 (Set-up); 0
    /// for Climax and Anticlimax, which end the scene instead.
    pub fn rank(self) -> u8 {
        match self {
            Effect::Climax | Effect::Anticlimax => 0,
            e => e as u8 + 1,
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of effects, rolled once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Effects(u8);

impl Effects {
    pub fn of(effects: &[Effect]) -> Self {
        Effects(effects.iter().fold(0, |m, e| m | e.bit()))
    }

    #[inline]
    pub fn has(self, e: Effect) -> bool {
        self.0 & e.bit() != 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// In hierarchy order, highest first (Climax and Anticlimax first).
    pub fn iter(self) -> impl Iterator<Item = Effect> {
        let mut all = Effect::ALL;
        all.sort_by(|a, b| b.cmp(a));
        all.into_iter().filter(move |e| self.has(*e))
    }
}

/// What an entity does on its turn: effects rolled together, and raises
/// chosen beyond those the rules require. Each chosen raise adds one step
/// to every scaling effect of the action (the edge moves 1 + raises,
/// Accelerate drops the ladder 1 + raises more); combining effects and
/// pressing after an Accelerate cost raises of their own (see the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub effects: Effects,
    pub raises: u32,
}

impl Action {
    /// An Edge action with no raises: what an entity does when no rule of
    /// its policy applies.
    pub const EDGE: Action = Action {
        effects: Effects(1 << Effect::Edge as u8),
        raises: 0,
    };

    pub fn new(effects: &[Effect], raises: u32) -> Self {
        Action {
            effects: Effects::of(effects),
            raises,
        }
    }

    pub fn has(&self, e: Effect) -> bool {
        self.effects.has(e)
    }
}

/// `edge+accelerate r1`: effects in hierarchy order, then the raises.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.effects.iter().map(Effect::name).collect();
        write!(f, "{}", names.join("+"))?;
        if self.raises > 0 {
            write!(f, " r{}", self.raises)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierarchy_and_names() {
        use Effect::*;
        assert!(Setup.rank() > Edge.rank());
        assert!(Edge.rank() > Press.rank());
        assert!(Press.rank() > Accelerate.rank());
        assert!(Accelerate.rank() > Block.rank());
        assert_eq!(Block.rank(), 1);
        assert_eq!(Climax.rank(), 0);
        for e in Effect::ALL {
            assert_eq!(Effect::from_name(e.name()), Some(e));
        }
        let a = Action::new(&[Accelerate, Edge], 1);
        assert_eq!(a.to_string(), "edge+accelerate r1");
        assert_eq!(a.effects.len(), 2);
        assert_eq!(Action::EDGE.to_string(), "edge");
    }
}
