//! `gateway.skirmish`: the keys that describe a skirmish, its outcome
//! fields and metrics, and its `Define`.
//!
//! Files: `params` (the keys and their typed struct), `table` (one
//! entity's table read), `build` (the checked scene), `schema` (fields
//! and metrics).

mod build;
mod params;
mod schema;
mod split;
mod table;

pub use build::skirmish_from_params;
pub use schema::{
    ESCAPED, FIRST_PC_EDGE, FREE_GIVEN, GM_ELIMINATED, GM_SPENT, HENCHMEN_SURVIVORS, LADDER,
    LINES_OPEN, PCS_ELIMINATED, PCS_SPENT, ROUNDS, WINNER,
};

use super::cast::{Kind, Member, Skirmish};
use super::engine::SkirmishRounds;
use super::moves::Move;
use super::state::*;
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::{Chain, Tally};
use crate::systems::{CHECKED, Define, ParamError, ParamMap, ParamSpec, Schema, Trial, Warning};
use params::{PARAMS, SkirmishParams};
use schema::schema;

/// One field of the mechanic's outcome, read off the engine's.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Field(usize),
    /// 1 when the scene ended in an escape (either side's).
    Escaped,
    /// How many of these entities (bit i) are still in the scene.
    Survivors(u16),
    /// Whether (`false`) or in which round (`true`) entity i entered.
    Entered(usize, bool),
    /// Whether (`false`) or in which round (`true`) the bomb went off.
    Bomb(bool),
    /// Whether a Climax hit sub-scene k.
    Climaxed(usize),
    /// Members left in squad i.
    Troop(usize),
}

// Inlined: every scene reads each of its fields through it.
#[inline(always)]
fn pick(o: &[i64], p: Pick) -> i64 {
    match p {
        Pick::Field(f) => o[f],
        Pick::Escaped => i64::from(o[F_WINNER] == PCS_ESCAPE || o[F_WINNER] == GM_ESCAPE),
        Pick::Survivors(mask) => {
            // The group's members only (its mask's bits), not every slot.
            let (mut m, mut sum) = (mask, 0);
            while m != 0 {
                sum += o[f_survived(m.trailing_zeros() as usize)];
                m &= m - 1;
            }
            sum
        }
        Pick::Entered(i, when) => {
            let r = entered_round(o, i);
            if when { r } else { i64::from(r > 0) }
        }
        Pick::Bomb(when) => {
            let r = o[F_BOMB];
            if when { r } else { i64::from(r > 0) }
        }
        Pick::Climaxed(k) => o[F_CLIMAXED] >> k & 1,
        Pick::Troop(i) => o[F_TROOP] >> (4 * i) & 0xf,
    }
}

/// A checked skirmish: what the solver and the sampler run on.
pub struct SkirmishModel {
    pub rounds: SkirmishRounds,
    picks: Vec<Pick>,
}

/// The fields of `sk`, named for its PCs and its (ungrouped) minor
/// entities.
fn schema_of_skirmish(sk: &Skirmish) -> Schema {
    let named = |keep: fn(&Member) -> bool| -> Vec<String> {
        let kept = sk.members.iter().filter(|m| keep(m));
        kept.map(|m| m.name().to_string()).collect()
    };
    schema(
        &named(|m| m.kind == Kind::Pc),
        &named(|m| m.kind == Kind::Minor && !m.group),
        &named(|m| m.absent),
        sk.bomb.is_some(),
        &sk.split.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
        &named(|m| m.squad > 0),
    )
}

/// The fields of a built model (for tests that read fields by name).
#[cfg(test)]
pub(crate) fn schema_of_model(m: &SkirmishModel) -> Schema {
    schema_of_skirmish(&m.rounds.sk)
}

impl SkirmishModel {
    pub fn new(sk: Skirmish) -> SkirmishModel {
        let mut picks = vec![
            Pick::Field(F_WINNER),
            Pick::Field(F_ROUNDS),
            Pick::Escaped,
            Pick::Field(F_LADDER),
            Pick::Field(F_ELIM),
            Pick::Field(F_ELIM + 1),
            Pick::Field(F_LINES),
            Pick::Field(F_SPENT),
            Pick::Field(F_SPENT + 1),
            Pick::Field(F_GIVEN),
        ];
        let group = sk
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.group)
            .fold(0u16, |a, (i, _)| a | 1 << i);
        picks.push(Pick::Survivors(group));
        // In the order of `schema_of_skirmish`'s fields.
        for (i, m) in sk.members.iter().enumerate() {
            if m.kind == Kind::Pc {
                picks.push(Pick::Field(f_edge(i)));
            }
        }
        for (i, m) in sk.members.iter().enumerate() {
            if m.kind == Kind::Minor && !m.group {
                picks.push(Pick::Field(f_survived(i)));
            }
        }
        for (i, m) in sk.members.iter().enumerate() {
            if m.absent {
                picks.extend([Pick::Entered(i, false), Pick::Entered(i, true)]);
            }
        }
        if sk.bomb.is_some() {
            picks.extend([Pick::Bomb(false), Pick::Bomb(true)]);
        }
        picks.extend((0..sk.split.len()).map(Pick::Climaxed));
        for (i, m) in sk.members.iter().enumerate() {
            if m.squad > 0 {
                picks.push(Pick::Troop(i));
            }
        }
        SkirmishModel {
            rounds: SkirmishRounds::new(sk),
            picks,
        }
    }

    /// Exact marginals within the state limit.
    pub fn exact(&self) -> Option<Marginals> {
        let m = self.rounds.exact()?;
        let joint = m.joint().expect("the chain gives whole outcomes");
        let mut out = Marginals::new(self.picks.len());
        let mut row = vec![0; self.picks.len()];
        for (o, &q) in joint {
            self.fill(o, &mut row);
            out.add_outcome(&row, q);
        }
        Some(out)
    }

    /// One scene's fields, as the plain loop draws them (what
    /// [`Trial::simulate`] runs for three or more entities).
    pub fn play(&self, rng: &mut DiceRng) -> Vec<i64> {
        let mut row = vec![0; self.picks.len()];
        self.fill(&self.rounds.play(rng), &mut row);
        row
    }

    /// The fields of outcome `o` the model reports, one a slot of `row`
    /// (as long as the picks): written in place, as every scene sampled
    /// fills one.
    #[inline(always)]
    fn fill(&self, o: &[i64], row: &mut [i64]) {
        for (r, &p) in row.iter_mut().zip(&self.picks) {
            // Most picks are a field as it is: a test, not a jump
            // through the match's table.
            *r = match p {
                Pick::Field(f) => o[f],
                _ => pick(o, p),
            };
        }
    }
}

/// Build the skirmish a set of scenario values describes.
pub fn skirmish_from(values: &ParamMap) -> Result<SkirmishModel, ParamError> {
    SkirmishMechanic.trial(values)
}

impl Trial for SkirmishModel {
    /// Two entities (a duel: one line, states that recur from scene to
    /// scene) through the chain's linked cache, which `benches/chain.rs`
    /// (2026-11-28, 16,384 scenes, one thread) puts at 2.6 ms against
    /// this loop's 16.8 ms on the registry's two-entity example. More
    /// entities through the plain loop with the skirmish's own roll of
    /// its dice, its state changed in place: on a shipped
    /// `gateway-henchmen` scene, whose states rarely recur, it ran 73 ms
    /// against the chain's 343 ms (4.7×).
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // The row's slots overwritten in place: a light scene's fixed
        // costs weigh against its few rolls.
        let mut row = vec![0; self.picks.len()];
        if self.rounds.entities() == 2 {
            Chain::new(&self.rounds, FIELDS).play_each(rng, trials, |o| {
                self.fill(&o, &mut row);
                tally.record_outcome(&row);
            });
            return;
        }
        // One frame for the whole chunk (the same draws as one a scene).
        self.rounds.play_each(rng, trials, |o| {
            self.fill(o, &mut row);
            tally.record_outcome(&row);
        });
    }

    fn exact(&self) -> Option<Marginals> {
        SkirmishModel::exact(self)
    }
}

/// The mechanic `gateway.skirmish`.
pub struct SkirmishMechanic;

impl Define for SkirmishMechanic {
    type Params = SkirmishParams;
    type Trial = SkirmishModel;
    const NAME: &'static str = "gateway.skirmish";
    const SUMMARY: &'static str = "A many-sided drama scene: PCs, a key entity and minor entities (significance 0..=6) on tension lines opened by Manoeuvre and broken by Disengage, minor entities removed by Eliminate, Set-ups handed to allies.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    /// As documented: one `<pc>` and one `<minor>`; a config names its own.
    fn schema(&self) -> Schema {
        schema(
            &["<pc>".to_string()],
            &["<minor>".to_string()],
            &["<entrant>".to_string()],
            true,
            &["<subscene>".to_string()],
            &["<squad>".to_string()],
        )
    }

    /// The tables read and every name resolved (policies' `to`, orders,
    /// lines): [`skirmish_from_params`] is the reading and its check.
    fn check(&self, p: &SkirmishParams) -> Result<Vec<Warning>, ParamError> {
        skirmish_from_params(p)?;
        Ok(Vec::new())
    }

    fn build(&self, p: SkirmishParams) -> SkirmishModel {
        // The tables are read again: the check kept nothing, the reading
        // is cheap beside the chain it feeds.
        SkirmishModel::new(skirmish_from_params(&p).expect(CHECKED))
    }

    /// The entrants' variants where no rule plays them: `search_cost`
    /// without a Search, `surprise_lines` without a Surprise combined
    /// with another effect (a Surprise alone has no roll either way).
    fn idle(&self, p: &SkirmishParams) -> Vec<&'static str> {
        let Ok(sk) = skirmish_from_params(p) else {
            return Vec::new();
        };
        let plays = |f: &dyn Fn(&super::moves::Play) -> bool| {
            sk.members
                .iter()
                .any(|m| m.policy.iter().any(|(r, _, _)| f(&r.choice)))
        };
        let mut idle = Vec::new();
        if !plays(&|c| c.moves.has(Move::Search)) {
            idle.push("search_cost");
        }
        if !plays(&|c| c.moves.has(Move::Surprise) && c.moves.len() > 1) {
            idle.push("surprise_lines");
        }
        if sk.members.iter().all(|m| m.squad == 0) {
            idle.push("squad_aid");
        }
        idle
    }

    /// Named for the config's PCs and minor entities.
    fn schema_of(&self, p: &SkirmishParams) -> Schema {
        // The names are the tables': read again, without the chain.
        schema_of_skirmish(&skirmish_from_params(p).expect(CHECKED))
    }
}
