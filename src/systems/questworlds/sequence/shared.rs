//! What the three sequences' params structs share: the keys of both
//! sides, the resistance, `max_rounds`, the augment and the parting
//! shots, written once ([`sequence_params!`]) and read as [`Shared`].

use super::super::parting::PartingShots;
use super::super::{Augment, Rating, Resistance};
use crate::model::Given;
use crate::systems::ParamError;

/// The parameters of a sequence, one field per path: the keys every
/// sequence shares ([`SIDE_PARAMS`](super::SIDE_PARAMS), [`RESISTANCE_PARAMS`](super::RESISTANCE_PARAMS),
/// [`AUGMENT_PARAM`](super::AUGMENT_PARAM), [`parting::PARAMS`](super::super::parting::PARAMS)), then the sequence's own,
/// written as in any params struct. [`Shared`] is what the shared keys say.
macro_rules! sequence_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "pc.rating")]
            pub pc_rating: $crate::systems::questworlds::Rating,
            #[serde(
                rename = "pc.modifier",
                deserialize_with = "crate::systems::questworlds::modifier"
            )]
            pub pc_modifier: i64,
            #[serde(rename = "opponent.rating", default)]
            pub opponent_rating: Option<$crate::systems::questworlds::Rating>,
            #[serde(
                rename = "opponent.modifier",
                deserialize_with = "crate::systems::questworlds::given_modifier"
            )]
            pub opponent_modifier: $crate::model::Given<i64>,
            pub max_rounds: usize,
            #[serde(rename = "resistance.rating", default)]
            pub resistance_rating: Option<$crate::systems::questworlds::Rating>,
            #[serde(rename = "resistance.level", default)]
            pub resistance_level: Option<$crate::systems::questworlds::Level>,
            #[serde(rename = "resistance.base")]
            pub resistance_base: $crate::systems::questworlds::Rating,
            #[serde(
                rename = "pc.augment",
                deserialize_with = "crate::systems::questworlds::augment"
            )]
            pub pc_augment: $crate::systems::questworlds::Augment,
            #[serde(
                rename = "pc.parting_shot",
                deserialize_with = "crate::systems::questworlds::parting::policy"
            )]
            pub pc_parting_shot: $crate::systems::questworlds::parting::PartingShot,
            #[serde(
                rename = "opponent.parting_shot",
                deserialize_with = "crate::systems::questworlds::parting::policy"
            )]
            pub opponent_parting_shot: $crate::systems::questworlds::parting::PartingShot,
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// What the keys every sequence shares say.
            pub fn shared(&self) -> $crate::systems::questworlds::sequence::Shared {
                $crate::systems::questworlds::sequence::Shared {
                    pc_rating: self.pc_rating,
                    pc_modifier: self.pc_modifier,
                    opponent_rating: self.opponent_rating,
                    opponent_modifier: self.opponent_modifier,
                    resistance: $crate::systems::questworlds::Resistance {
                        rating: self.resistance_rating,
                        level: self.resistance_level,
                        base: self.resistance_base,
                    },
                    max_rounds: self.max_rounds,
                    augment: self.pc_augment,
                    parting: $crate::systems::questworlds::parting::PartingShots {
                        pc: self.pc_parting_shot.clone(),
                        opponent: self.opponent_parting_shot.clone(),
                    },
                }
            }
        }
    };
}
pub(crate) use sequence_params;

/// The keys every sequence shares, as read.
pub struct Shared {
    pub pc_rating: Rating,
    pub pc_modifier: i64,
    pub opponent_rating: Option<Rating>,
    pub opponent_modifier: Given<i64>,
    pub resistance: Resistance,
    /// Rounds before a stalemate.
    pub max_rounds: usize,
    /// The PC's augment; a rolled one faces `resistance.base`.
    pub augment: Augment,
    pub parting: PartingShots,
}

impl Shared {
    /// The two final TNs. The opposition is a resistance, exactly as in
    /// `questworlds.contest` (`resistance.rating`, or `resistance.level`
    /// applied to `resistance.base`; default the base resistance, rules
    /// §4.5 corrected 2026-11-22), or another character (`opponent.rating`
    /// and `opponent.modifier`), never both.
    pub fn sides(&self) -> Result<(Rating, Rating), ParamError> {
        let pc = self.pc_rating.plus(self.pc_modifier);
        let set = [
            ("opponent.rating", self.opponent_rating.is_some()),
            ("opponent.modifier", self.opponent_modifier.given),
        ]
        .into_iter()
        .find_map(|(key, given)| given.then_some(key));
        let opp = match super::super::opponent(
            set,
            self.opponent_rating,
            self.opponent_modifier.value,
            &self.resistance,
        )? {
            Some(rating) => rating,
            None => self.resistance.tn()?,
        };
        Ok((pc, opp))
    }

    /// What a rolled augment faces: `resistance.base`.
    pub fn base(&self) -> Rating {
        self.resistance.base
    }

    /// The keys of the opposition that have no effect given the others
    /// (a resistance's beside a character, a character's beside a
    /// resistance), as `questworlds.contest` lists them.
    pub fn idle(&self) -> Vec<&'static str> {
        let character = self.opponent_rating.is_some() || self.opponent_modifier.given;
        let rolled = matches!(self.augment, Augment::Rolled(_));
        let mut idle = super::super::idle_opposition(character, &self.resistance, rolled);
        // A sequence's opponent has no augment key.
        idle.retain(|&k| k != "opponent.augment");
        idle
    }

    /// The key that set the opposition's TN, for errors about it.
    pub fn opposition_key(&self) -> &'static str {
        [
            ("opponent.rating", self.opponent_rating.is_some()),
            ("resistance.rating", self.resistance.rating.is_some()),
            ("resistance.level", self.resistance.level.is_some()),
        ]
        .into_iter()
        .find_map(|(key, given)| given.then_some(key))
        .unwrap_or("resistance.base")
    }
}
