//! What a skirmish entity may do: the action effects of a many-sided
//! scene ([`Move`]), several rolled together ([`Moves`]), whom they aim at
//! ([`Aim`]) and one decided action with its raises ([`Play`]); and the
//! rule syntax of a skirmish policy.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use crate::systems::gateway::scene::rules::{MAX_RULE_RAISES, When, when_of};
use crate::systems::policy::{self, Rule, RuleSyntax};

/// One action effect. The discriminants order the initiative hierarchy
/// of the side bar (Set-up > Edge > Surprise > Manoeuvre > Disengage >
/// Restrict > Disembark > Recruit > Eliminate > Search > Press >
/// Accelerate > Block; Disembark "fits into the hierarchy between
/// Restrict and Recruit"); Climax and Anticlimax end the scene and Aid
/// Another is no roll: they have no rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    Block = 0,
    Accelerate = 1,
    Press = 2,
    /// Brings an entity not yet in play into the scene (one raise per
    /// point of its significance over 1).
    Search = 3,
    Eliminate = 4,
    /// Makes an entity the actor's passenger.
    Recruit = 5,
    Disembark = 6,
    Restrict = 7,
    Disengage = 8,
    Manoeuvre = 9,
    /// An entrant's first action: tension lines to the opponents it
    /// names, opened at once.
    Surprise = 10,
    Edge = 11,
    Setup = 12,
    Climax = 13,
    Anticlimax = 14,
    /// A passenger's free raise to its lead, without a roll.
    Aid = 15,
}

impl Move {
    pub const ALL: [Move; 16] = [
        Move::Edge,
        Move::Setup,
        Move::Press,
        Move::Accelerate,
        Move::Block,
        Move::Climax,
        Move::Anticlimax,
        Move::Manoeuvre,
        Move::Disengage,
        Move::Eliminate,
        Move::Restrict,
        Move::Aid,
        Move::Disembark,
        Move::Search,
        Move::Recruit,
        Move::Surprise,
    ];

    /// Every effect, highest first by [`Ord`] (the declaration order,
    /// reversed): what [`Moves::iter`] walks. Written out rather than
    /// sorted per call, because the skirmish asks for it in every
    /// decision (a test holds it to the sort).
    pub const DESCENDING: [Move; 16] = [
        Move::Aid,
        Move::Anticlimax,
        Move::Climax,
        Move::Setup,
        Move::Edge,
        Move::Surprise,
        Move::Manoeuvre,
        Move::Disengage,
        Move::Restrict,
        Move::Disembark,
        Move::Recruit,
        Move::Eliminate,
        Move::Search,
        Move::Press,
        Move::Accelerate,
        Move::Block,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Move::Edge => "edge",
            Move::Setup => "setup",
            Move::Press => "press",
            Move::Accelerate => "accelerate",
            Move::Block => "block",
            Move::Climax => "climax",
            Move::Anticlimax => "anticlimax",
            Move::Manoeuvre => "manoeuvre",
            Move::Disengage => "disengage",
            Move::Eliminate => "eliminate",
            Move::Restrict => "restrict",
            Move::Aid => "aid",
            Move::Disembark => "disembark",
            Move::Search => "search",
            Move::Recruit => "recruit",
            Move::Surprise => "surprise",
        }
    }

    pub fn from_name(s: &str) -> Option<Move> {
        Move::ALL.into_iter().find(|m| m.name() == s)
    }

    /// Its place in the initiative hierarchy, 1 (Block) to 13 (Set-up);
    /// 0 for Climax, Anticlimax and Aid Another.
    pub fn rank(self) -> u8 {
        match self {
            Move::Climax | Move::Anticlimax | Move::Aid => 0,
            m => m as u8 + 1,
        }
    }

    /// Allowed only with a tension line to every opposed entity.
    pub fn needs_every_line(self) -> bool {
        matches!(
            self,
            Move::Accelerate | Move::Anticlimax | Move::Climax | Move::Press
        )
    }

    /// What a passenger may do while it rides with its lead: Eliminate,
    /// Set-up, Aid Another or Disembark.
    pub fn passenger_may(self) -> bool {
        matches!(
            self,
            Move::Eliminate | Move::Setup | Move::Aid | Move::Disembark
        )
    }

    /// Made without a roll (Aid Another; Disembark, which the lead lets
    /// happen).
    pub fn no_roll(self) -> bool {
        matches!(self, Move::Aid | Move::Disembark)
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// Effects that name one entity (`entity`): Search, Recruit, and a
    /// Surprise's opponent.
    pub fn names_entity(self) -> bool {
        matches!(self, Move::Search | Move::Recruit | Move::Surprise)
    }
}

/// Effects rolled together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Moves(u16);

impl Moves {
    /// No effect at all.
    pub const NONE: Moves = Moves(0);

    /// The set of `moves`; a `const fn`, so that the sets the hot paths
    /// test against are made at compile time.
    pub const fn of(moves: &[Move]) -> Self {
        let mut bits = 0u16;
        let mut k = 0;
        while k < moves.len() {
            bits |= 1 << moves[k] as u16;
            k += 1;
        }
        Moves(bits)
    }

    /// Some effect of `self` is one of `other`.
    #[inline(always)]
    pub fn any(self, other: Moves) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    pub fn has(self, m: Move) -> bool {
        self.0 & m.bit() != 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Highest in the hierarchy first (the order of [`Move::DESCENDING`]).
    pub fn iter(self) -> impl Iterator<Item = Move> {
        Move::DESCENDING.into_iter().filter(move |m| self.has(*m))
    }

    /// Some effect needs a line to every opposed entity
    /// ([`Move::needs_every_line`]): one mask test, as every decision
    /// asks.
    #[inline]
    pub fn needs_every_line(self) -> bool {
        const EVERY: u16 = 1 << Move::Accelerate as u16
            | 1 << Move::Anticlimax as u16
            | 1 << Move::Climax as u16
            | 1 << Move::Press as u16;
        self.0 & EVERY != 0
    }

    /// Some effect comes off per line (Edge, Set-up, Restrict, Block).
    #[inline]
    pub fn per_line(self) -> bool {
        const PER_LINE: u16 = 1 << Move::Edge as u16
            | 1 << Move::Setup as u16
            | 1 << Move::Restrict as u16
            | 1 << Move::Block as u16;
        self.0 & PER_LINE != 0
    }

    /// Every effect is one a passenger may make.
    pub fn passenger_may(self) -> bool {
        self.iter().all(Move::passenger_may)
    }

    /// Made without a roll: Aid Another, Disembark, a Surprise alone
    /// (its lines open at once), or nothing (no opponent in play).
    #[inline]
    pub fn no_roll(self) -> bool {
        self.0 & (Move::Aid.bit() | Move::Disembark.bit()) != 0
            || self.0 == Move::Surprise.bit()
            || self.0 == 0
    }

    /// The best rank among them (0 when only Climax or Anticlimax).
    pub fn best_rank(self) -> u8 {
        self.iter().map(Move::rank).max().unwrap_or(0)
    }
}

/// Which of its opponents a per-line effect (Edge, Set-up, Restrict,
/// Block) is declared against, and which opponent a one-target effect
/// (Manoeuvre, Disengage, Eliminate) picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aim {
    /// Every opponent it has a line with; for a one-target effect, the
    /// first in the scene's order that fits.
    All,
    /// Only opposed PCs and the key entity.
    Key,
    /// Only opposed minor entities (one: the one nearest elimination).
    Minor,
}

impl Aim {
    const NAMES: [&'static str; 3] = ["all", "key", "minor"];

    fn name(self) -> &'static str {
        match self {
            Aim::All => "all",
            Aim::Key => "key",
            Aim::Minor => "minor",
        }
    }
}

/// One decided action: effects, chosen raises, whom it aims at, and the
/// ally a Set-up's free raises are handed to (one more raise).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub moves: Moves,
    pub raises: u32,
    pub aim: Aim,
    /// The ally's name (a Set-up's free raises handed over; the ally a
    /// Block shields, `block = "one-effect"`), resolved to an index when
    /// the scene is checked.
    pub to: Option<String>,
    /// The trait category the roll draws essence from
    /// (`essence_rule = "four"`), when the rule names one.
    pub category: Option<Category>,
    /// The entity a Search finds or a Recruit boards (one entity for
    /// both when combined), or the opponent a Surprise opens a line to
    /// (default: every opponent not yet on a line), resolved to an index
    /// when the scene is checked.
    pub entity: Option<String>,
}

/// The four trait categories, each with its own essence pool in the
/// text ("Each category of trait – Fate, Mental, Physical and Social –
/// has its own Essence pool").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Category {
    Fate = 0,
    Mental = 1,
    #[default]
    Physical = 2,
    Social = 3,
}

impl Category {
    pub const NAMES: [&'static str; 4] = ["fate", "mental", "physical", "social"];
    pub const ALL: [Category; 4] = [
        Category::Fate,
        Category::Mental,
        Category::Physical,
        Category::Social,
    ];

    pub fn from_name(s: &str) -> Option<Category> {
        Category::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|k| Category::ALL[k])
    }

    pub fn name(self) -> &'static str {
        Category::NAMES[self as usize]
    }
}

impl Play {
    pub fn new(moves: &[Move], raises: u32) -> Play {
        Play {
            moves: Moves::of(moves),
            raises,
            aim: Aim::All,
            to: None,
            category: None,
            entity: None,
        }
    }

    #[inline]
    pub fn has(&self, m: Move) -> bool {
        self.moves.has(m)
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.moves.iter().map(Move::name).collect();
        write!(f, "{}", names.join("+"))?;
        if self.raises > 0 {
            write!(f, " r{}", self.raises)?;
        }
        if self.aim != Aim::All {
            write!(f, " at {}", self.aim.name())?;
        }
        if let Some(to) = &self.to {
            write!(f, " to {to}")?;
        }
        if let Some(c) = self.category {
            write!(f, " ({})", c.name())?;
        }
        if let Some(e) = &self.entity {
            write!(f, " of {e}")?;
        }
        Ok(())
    }
}

/// A skirmish policy.
pub type Policy = policy::Policy<When, Play>;

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkirmishRule {
    effect: Value,
    #[serde(default)]
    raises: u32,
    #[serde(default)]
    when: Option<Value>,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    entity: Option<String>,
}

impl RuleSyntax for SkirmishRule {
    const KEYS: &'static [&'static str] = &[
        "effect", "raises", "when", "target", "to", "category", "entity",
    ];
    type When = When;
    type Choice = Play;

    fn into_rule(self) -> Result<Rule<When, Play>, String> {
        let names: Vec<&Value> = match &self.effect {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        if names.is_empty() {
            return Err("`effect` is an empty list; name at least one effect".into());
        }
        let mut moves = Vec::new();
        for v in names {
            let m = v.as_str().and_then(Move::from_name).ok_or_else(|| {
                format!(
                    "`effect` = {v} is not an effect; allowed: {}",
                    Move::ALL.map(|m| format!("\"{}\"", m.name())).join(", ")
                )
            })?;
            if moves.contains(&m) {
                return Err(format!("`effect` names {} twice", m.name()));
            }
            moves.push(m);
        }
        let has = |m| moves.contains(&m);
        if has(Move::Press) && has(Move::Accelerate) {
            return Err("`effect` combines press and accelerate, which cancel each other".into());
        }
        if has(Move::Climax) && has(Move::Anticlimax) {
            return Err("`effect` combines climax and anticlimax; a scene ends one way".into());
        }
        if self.raises > MAX_RULE_RAISES {
            return Err(format!(
                "`raises` = {} is out of range; allowed: 0..={MAX_RULE_RAISES}",
                self.raises
            ));
        }
        let aim = match self.target.as_deref() {
            None | Some("all") => Aim::All,
            Some("key") => Aim::Key,
            Some("minor") => Aim::Minor,
            Some(other) => {
                return Err(format!(
                    "`target` = \"{other}\" is not a target; allowed: {}",
                    Aim::NAMES.map(|n| format!("\"{n}\"")).join(", ")
                ));
            }
        };
        if self.to.is_some() && !has(Move::Setup) && !has(Move::Block) {
            return Err(
                "`to` hands a Set-up's free raises over (or names the ally a Block shields); the rule has no setup or block"
                    .into(),
            );
        }
        if self.to.is_some() && has(Move::Setup) && has(Move::Block) {
            return Err("`to` is ambiguous on a rule with both setup and block".into());
        }
        if (has(Move::Aid) || has(Move::Disembark)) && moves.len() > 1 {
            return Err("`effect` aid and disembark are made alone, without a roll".into());
        }
        let naming = moves.iter().any(|m| m.names_entity());
        if has(Move::Surprise) && (has(Move::Search) || has(Move::Recruit)) {
            return Err("`effect` combines surprise with search or recruit; an entrant's Surprise names an opponent, a Search or Recruit the entity it brings".into());
        }
        if (has(Move::Search) || has(Move::Recruit)) && self.entity.is_none() {
            return Err("`effect` search and recruit need `entity` = \"<name>\", the entity found or recruited".into());
        }
        if self.entity.is_some() && !naming {
            return Err("`entity` names whom a search, recruit or surprise is for; the rule has none of them".into());
        }
        let category = match self.category.as_deref() {
            None => None,
            Some(c) => Some(Category::from_name(c).ok_or_else(|| {
                format!(
                    "`category` = \"{c}\" is not a trait category; allowed: {}",
                    Category::NAMES.map(|n| format!("\"{n}\"")).join(", ")
                )
            })?),
        };
        let when = self.when.as_ref().map(when_of).transpose()?.flatten();
        if let Some(When::All(b)) = when
            && b.opponent_succeeded.is_some()
        {
            return Err("`when`: opponent_succeeded is a gateway.scene condition; a skirmish does not track it".into());
        }
        Ok(Rule {
            when,
            choice: Play {
                moves: Moves::of(&moves),
                raises: self.raises,
                aim,
                to: self.to,
                category,
                entity: self.entity,
            },
        })
    }
}

/// What `expects` says of a skirmish policy.
pub const POLICY_EXPECTS: &str = "a policy: a list of rules { effect = \"edge\" | [\"manoeuvre\", \"edge\"] … (edge, setup, press, accelerate, block, climax, anticlimax, manoeuvre, disengage, eliminate, restrict, search, recruit; an entrant's surprise; a passenger's aid, disembark), raises = 0.., when = (as gateway.scene), target = \"all\" | \"key\" | \"minor\", to = \"<ally>\" (a Set-up's free raises handed over, one raise; the ally a one-effect Block shields), category = \"fate\" | \"mental\" | \"physical\" | \"social\" (the essence pool, essence_rule = \"four\"), entity = \"<name>\" (the entity a search finds or a recruit boards; the opponent a surprise opens a line to) }, tried in order (the first that holds and is allowed is taken; else the default)";

pub fn parse_policy(v: &crate::systems::ParamValue) -> Result<Policy, String> {
    policy::parse::<SkirmishRule>(v)
}

/// The default policy: Climax when allowed, Anticlimax when allowed,
/// Eliminate when allowed, Manoeuvre while an opponent is not yet on a
/// line (a Climax needs a line to every one), else Edge on every line.
/// With one opponent already on a line this is `gateway.scene`'s default.
pub fn default_policy() -> Policy {
    Policy::new(
        [
            Move::Climax,
            Move::Anticlimax,
            Move::Eliminate,
            Move::Manoeuvre,
            Move::Edge,
        ]
        .into_iter()
        .map(|m| Rule {
            when: None,
            choice: Play::new(&[m], 0),
        })
        .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descending_is_every_move_sorted_highest_first() {
        let mut all = Move::ALL;
        all.sort_by(|a, b| b.cmp(a));
        assert_eq!(all, Move::DESCENDING);
    }

    #[test]
    fn needs_every_line_is_any_effect_needing_it() {
        for m in Move::ALL {
            for k in Move::ALL {
                let ms = Moves::of(&[m, k]);
                assert_eq!(ms.needs_every_line(), ms.iter().any(Move::needs_every_line));
            }
        }
    }

    #[test]
    fn per_line_is_any_per_line_effect() {
        use Move::*;
        for m in Move::ALL {
            for k in Move::ALL {
                let ms = Moves::of(&[m, k]);
                let any = ms
                    .iter()
                    .any(|x| [Edge, Setup, Restrict, Block].contains(&x));
                assert_eq!(ms.per_line(), any);
            }
        }
    }

    #[test]
    fn hierarchy_follows_the_side_bar() {
        use Move::*;
        let order = [
            Setup, Edge, Surprise, Manoeuvre, Disengage, Restrict, Disembark, Recruit, Eliminate,
            Search, Press, Accelerate, Block,
        ];
        for w in order.windows(2) {
            assert!(w[0].rank() > w[1].rank(), "{w:?}");
        }
        assert_eq!(Climax.rank(), 0);
        assert_eq!(Aid.rank(), 0);
        for m in Move::ALL {
            assert_eq!(Move::from_name(m.name()), Some(m));
        }
        assert_eq!(Moves::of(&[Setup, Accelerate]).best_rank(), Setup.rank());
    }
}
