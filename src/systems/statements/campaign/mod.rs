//! `statements.campaign`: one scene played several times in a row
//! (rules §5.3, "across scenes"), by Monte Carlo. Luck carries over from
//! scene to scene (spent on true statements, earned by drives, at most 10);
//! bids follow a policy; after every scene each player takes the
//! experience test (§5.4) with that scene's failures against its traits.
//!
//! Every roll is drawn with one word from an alias table of its exact law,
//! built once: a statement's successes at each bid it can carry, the
//! experience test's at each number of failures a scene can give. Each
//! scene's bids and rolls are resolved by the scene's own rules once per
//! run of trials and looked up after that ([`resolved`]).

mod resolved;
#[cfg(test)]
mod tests;

use super::experience::test_roll;
use super::roll::{MAX_ROLLS, Roll, Rolls};
use super::scene::{self, LUCK_CAP, MAX_PLAYERS, MAX_STATEMENTS, Played, Table};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Schema, Trial,
    Warning,
};
use resolved::Resolved;

/// Most scenes in one campaign.
pub const MAX_SCENES: i64 = 20;
/// The most luck one statement can be bid.
const MAX_BID: i64 = 5;
/// Bids a statement can carry, 0..=`MAX_BID`.
const BIDS: usize = MAX_BID as usize + 1;

crate::choice! {
    /// How players bid luck in each scene.
    pub enum Bids {
        /// No luck is ever bid.
        None = "none",
        /// The bids the statements give, each lowered to the luck the
        /// player still has unbid when the scene starts (in statement order).
        Fixed = "fixed",
        /// All the player's luck (at most 5) on its first statement.
        AllIn = "all-in",
    }
}

static PARAMS: [ParamSpec; 8] = [
    scene::SCENE_PARAMS[0],
    scene::SCENE_PARAMS[1],
    scene::SCENE_PARAMS[2],
    scene::SCENE_PARAMS[3],
    scene::SCENE_PARAMS[4],
    ParamSpec {
        path: "scenes",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_SCENES,
        },
        default: Lit::Int(5),
        doc: "Scenes in a row, each the scene `players` describes, luck carried over.",
    },
    ParamSpec {
        path: "bids",
        kind: ParamKind::Choice(Bids::NAMES),
        default: Lit::Str("fixed"),
        doc: "\"none\": no luck bid; \"fixed\": each statement's `luck`, lowered to the luck the player has left when the scene starts; \"all-in\": the player's whole luck (at most 5) on its first statement.",
    },
    ParamSpec {
        path: "experience.traits",
        kind: ParamKind::Int { min: 0, max: 1000 },
        default: Lit::Int(10),
        doc: "Each player's traits and resources, against which the scene's failures roll the experience test after every scene (rules §5.4).",
    },
];

scene::scene_params! {
    /// The parameters of `statements.campaign`, one field per path of
    /// [`PARAMS`]: the scene's, then the campaign's own.
    pub struct CampaignParams {
        pub scenes: usize,
        pub bids: Bids,
        /// Each player's traits and resources, for the experience test.
        #[serde(rename = "experience.traits")]
        pub traits: u64,
    }
}

/// A checked campaign: the scene, its length, the bid policy, the
/// experience test.
pub struct Series {
    table: Table,
    scenes: usize,
    bids: Bids,
    /// Per statement: favouring without the bid, opposing, and whether the
    /// bid counts in the weight (as `variant.weight_luck` says).
    base: Vec<(u64, u64)>,
    weight_luck: bool,
    /// `laws[i * BIDS + bid]`: the successes of statement `i` under `bid`.
    laws: Vec<Alias>,
    /// `tests[f]`: the experience test's successes after `f` failures.
    tests: Vec<Alias>,
    /// No statement is ever bid on (the scene bids nothing, and the
    /// policy is not `all-in`): the scene's bids stay at 0.
    no_bids: bool,
}

impl Series {
    /// Set the bids of `table` for players holding `luck` (a statement's
    /// roll is then drawn from its law under that bid, not from the
    /// table's own).
    fn bid(&self, table: &mut Table, luck: &[i64]) {
        if self.no_bids {
            return;
        }
        let mut left = [0; MAX_PLAYERS];
        left[..luck.len()].copy_from_slice(luck);
        let given = self.table.entries.iter().map(|e| e.bid);
        for ((e, &(favour, _)), given) in table.entries.iter_mut().zip(&self.base).zip(given) {
            let wanted = match self.bids {
                Bids::None => 0,
                Bids::Fixed => given,
                Bids::AllIn if e.tier == 0 => MAX_BID,
                Bids::AllIn => 0,
            };
            let bid = wanted.min(left[e.player]).max(0);
            left[e.player] -= bid;
            e.bid = bid;
            e.weight_per_success = favour + if self.weight_luck { bid as u64 } else { 0 };
        }
    }

    /// One campaign into `out`: per player, luck after each scene, then
    /// failures, improvements (1+ experience success) and attribute gains
    /// (3 successes).
    fn play(
        &self,
        rng: &mut DiceRng,
        table: &mut Table,
        resolved: &mut Resolved,
        t: &mut Played,
        out: &mut Vec<i64>,
    ) {
        let players = self.table.names.len();
        let mut rolled = [0u32; MAX_PLAYERS * MAX_STATEMENTS];
        let rolled = &mut rolled[..table.entries.len()];
        // The luck each player carries into the next scene.
        let mut luck = [0; MAX_PLAYERS];
        luck[..players].copy_from_slice(&self.table.start_luck);
        let luck = &mut luck[..players];
        let mut per_player = [(0i64, 0i64, 0i64); MAX_PLAYERS];
        out.clear();
        out.resize(players * (self.scenes + 3), 0);
        for k in 0..self.scenes {
            self.bid(table, luck);
            // Each statement's successes, from its law under its bid.
            for (i, (r, e)) in rolled.iter_mut().zip(&table.entries).enumerate() {
                *r = self.laws[i * BIDS + e.bid as usize].draw(rng);
            }
            let changes = resolved.changes(table, rolled, rng, t);
            for p in 0..players {
                let (failures, change) = changes[p];
                luck[p] = (luck[p] + change).min(LUCK_CAP);
                out[p * (self.scenes + 3) + k] = luck[p];
                let test = self.tests[failures as usize].draw(rng);
                let acc = &mut per_player[p];
                acc.0 += failures;
                acc.1 += i64::from(test >= 1);
                acc.2 += i64::from(test == MAX_ROLLS);
            }
        }
        for (p, &(failures, improve, attribute)) in per_player[..players].iter().enumerate() {
            let at = p * (self.scenes + 3) + self.scenes;
            out[at] = failures;
            out[at + 1] = improve;
            out[at + 2] = attribute;
        }
    }

    /// Fields and metrics named for the players and scenes.
    #[cfg(test)]
    fn named_schema(&self) -> Schema {
        named_schema(&self.table.names, self.scenes)
    }
}

/// Fields and metrics named for the players (`names`) and `scenes`.
fn named_schema(names: &[String], scenes: usize) -> Schema {
    let mut fields = Vec::new();
    let mut metrics = Vec::new();
    for name in names {
        for k in 1..=scenes {
            metrics.push(MetricSpec::mean(
                format!("mean_luck.{name}.{k}"),
                fields.len(),
                "Mean luck of the player after this scene.",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.luck.{k}"),
                "The player's luck after this scene (at most 10).",
            ));
        }
        metrics.push(MetricSpec::mean(
            format!("mean_failures.{name}"),
            fields.len(),
            "Mean failures of the player over the campaign.",
        ));
        fields.push(FieldSpec::int(
            format!("{name}.failures"),
            "The player's failures over all scenes.",
        ));
        metrics.push(MetricSpec::mean(
                format!("mean_experience.{name}"),
                fields.len(),
                "Expected experience: mean number of scenes whose experience test gave +1 to a trait or resource.",
            ));
        fields.push(FieldSpec::int(
            format!("{name}.experience"),
            "Experience tests with at least one success (+1 trait or resource each).",
        ));
        fields.push(FieldSpec::int(
            format!("{name}.attribute"),
            "Experience tests with three successes (+1 attribute each).",
        ));
    }
    Schema { fields, metrics }
}

impl Trial for Series {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut table = self.table.clone();
        let mut resolved = Resolved::new(&table, true);
        let mut played = Played::default();
        let mut out = Vec::new();
        for _ in 0..trials {
            self.play(rng, &mut table, &mut resolved, &mut played, &mut out);
            tally.record_outcome(&out);
        }
    }
}

/// The mechanic `statements.campaign`.
pub struct Campaign;

impl Define for Campaign {
    type Params = CampaignParams;
    type Trial = Series;
    const NAME: &'static str = "statements.campaign";
    const SUMMARY: &'static str = "A campaign: one scene played n times in a row, luck carried over, bids by policy, an experience test after each scene.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let field = |name: &str, doc| FieldSpec::int(name, doc);
        Schema {
            fields: vec![
                field(
                    "<player>.luck.<k>",
                    "The player's luck after scene k (1..=scenes).",
                ),
                field(
                    "<player>.failures",
                    "The player's failures over all scenes.",
                ),
                field(
                    "<player>.experience",
                    "Experience tests with at least one success.",
                ),
                field(
                    "<player>.attribute",
                    "Experience tests with three successes.",
                ),
            ],
            metrics: vec![
                MetricSpec::mean(
                    "mean_luck.<player>.<k>",
                    0,
                    "Mean luck of each player after each scene.",
                ),
                MetricSpec::mean(
                    "mean_failures.<player>",
                    1,
                    "Mean failures of each player over the campaign.",
                ),
                MetricSpec::mean(
                    "mean_experience.<player>",
                    2,
                    "Expected experience of each player (improvements).",
                ),
            ],
        }
    }

    fn schema_of(&self, p: &CampaignParams) -> Schema {
        named_schema(&scene::Scene.build(p.scene()).names, p.scenes)
    }

    /// The scene, as `statements.scene` checks it.
    fn check(&self, p: &CampaignParams) -> Result<Vec<Warning>, ParamError> {
        scene::Scene.check(&p.scene())
    }

    fn build(&self, p: CampaignParams) -> Series {
        let weight_luck = p.weight_luck;
        let table = scene::Scene.build(p.scene());
        let base: Vec<(u64, u64)> = table
            .entries
            .iter()
            .map(|e| {
                let favour = e.roll.favour - e.bid as u64;
                (favour, e.roll.sides - e.roll.favour)
            })
            .collect();
        let laws = base
            .iter()
            .flat_map(|&(favour, opposing)| {
                (0..BIDS as u64).map(move |bid| Roll::new(favour + bid, opposing).law(table.rolls))
            })
            .collect();
        let traits = p.traits;
        // A player's failures in a scene: at most 3 a statement.
        let most = MAX_ROLLS as u64 * MAX_STATEMENTS as u64;
        let tests = (0..=most)
            .map(|failures| test_roll(failures, traits).law(Rolls::Three))
            .collect();
        let bids = p.bids;
        let no_bids = bids != Bids::AllIn && table.entries.iter().all(|e| e.bid == 0);
        Series {
            table,
            scenes: p.scenes,
            bids,
            base,
            weight_luck,
            laws,
            tests,
            no_bids,
        }
    }
}
