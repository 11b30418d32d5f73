//! `statements.scene`: every player's statements resolved together
//! (rules §5.3), by Monte Carlo.
//!
//! Each player states up to three statements. All are rolled; then for the
//! first statements, the second, then the third, those with weight are made
//! true heaviest first (equal weight: higher favouring sum first, then a
//! fair coin), skipping any that conflicts with a statement already true.
//! Luck bid on a statement is spent only if it comes true; failures on
//! statements that reflect a drive earn luck; luck never exceeds 10.

mod spec;
mod table;
#[cfg(test)]
mod tests;

pub use spec::{
    LUCK_CAP, MAX_PLAYERS, MAX_STATEMENTS, PlayerSpec, Spec, StatementRef, conflicts_of, players_of,
};
pub use table::{Entry, Played, Table};

use serde::Deserializer;

use super::roll::{Roll, Rolls};
use crate::model::{parse_some, parse_value};
use crate::systems::{
    CHECKED, Choice, Define, FieldKind, FieldSpec, Lit, MetricSpec, ParamError, ParamKind,
    ParamSpec, Pred, Schema, Warning,
};

const PLAYERS_EXPECT: &str = "a list of 1..=8 players, each { name = \"ann\", luck = 0..=10 (optional), statements = [1..=3 statements] }, each statement { favouring = factors (a number, a list, or named: { will = 4, charismatic = 3 }, each name in at most 2 of a player's statements), opposing = factors, difficulty = 0 or 2..=12, luck = bid 0..=5, drive = bool, support = -1..=1, supported_by = \"ann.1\", hindered_by = \"bob.1\" } (only favouring is required)";
const CONFLICTS_EXPECT: &str = "a list of pairs of statements that cannot both be true, e.g. [[\"ann.1\", \"bob.1\"]] (player name, then statement number from 1)";

/// The scene's keys (a campaign plays a scene of the same keys).
pub const SCENE_PARAMS: [ParamSpec; 5] = [
    ParamSpec {
        path: "players",
        kind: ParamKind::Custom {
            expects: PLAYERS_EXPECT,
        },
        default: Lit::Absent,
        doc: "The players and their statements, in the order they are resolved within a tier (required).",
    },
    ParamSpec {
        path: "conflicts",
        kind: ParamKind::Custom {
            expects: CONFLICTS_EXPECT,
        },
        default: Lit::Absent,
        doc: "Pairs of statements that cannot both come true (none by default).",
    },
    ParamSpec {
        path: "luck",
        kind: ParamKind::Int {
            min: 0,
            max: LUCK_CAP,
        },
        default: Lit::Int(0),
        doc: "Starting luck of every player that does not set its own.",
    },
    ParamSpec {
        path: "variant.rolls",
        kind: ParamKind::Choice(Rolls::NAMES),
        default: Lit::Str("three"),
        doc: "As in statements.statement: \"three\" rolls, or \"until-failure\".",
    },
    ParamSpec {
        path: "variant.weight_luck",
        kind: ParamKind::Bool,
        default: Lit::Bool(true),
        doc: "Whether the luck bid counts in the weight (successes × favouring, luck included): true by default (rules §5.2, corrected 2026-11-22: luck is a favouring factor and can be used by itself); false is the old reading, where luck only helps the roll.",
    },
];

static PARAMS: [ParamSpec; 5] = SCENE_PARAMS;

/// A params struct with the five keys of a scene ([`SCENE_PARAMS`]),
/// written here once, and the mechanic's own fields: `statements.scene`'s
/// is the five alone, `statements.campaign`'s adds its own. serde cannot
/// flatten a group of keys and still list them (`fields_of`), hence a
/// macro.
macro_rules! scene_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(deserialize_with = "crate::systems::statements::scene::players")]
            pub players: Vec<crate::systems::statements::scene::PlayerSpec>,
            /// None by default.
            #[serde(default, deserialize_with = "crate::systems::statements::scene::conflicts")]
            pub conflicts: Option<Vec<[crate::systems::statements::scene::StatementRef; 2]>>,
            /// The starting luck of a player that does not set its own.
            pub luck: i64,
            #[serde(rename = "variant.rolls")]
            pub rolls: crate::systems::statements::roll::Rolls,
            #[serde(rename = "variant.weight_luck")]
            pub weight_luck: bool,
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// The scene these keys describe.
            pub fn scene(&self) -> crate::systems::statements::scene::SceneParams {
                crate::systems::statements::scene::SceneParams {
                    players: self.players.clone(),
                    conflicts: self.conflicts.clone(),
                    luck: self.luck,
                    rolls: self.rolls,
                    weight_luck: self.weight_luck,
                }
            }
        }
    };
}
pub(crate) use scene_params;

scene_params! {
    /// The parameters of `statements.scene`, one field per path of
    /// [`SCENE_PARAMS`] (a campaign fills one from its own).
    pub struct SceneParams {}
}

/// `players`, read by [`players_of`].
pub(super) fn players<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PlayerSpec>, D::Error> {
    parse_value(d, players_of)
}

/// `conflicts`, read by [`conflicts_of`].
pub(super) fn conflicts<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<[StatementRef; 2]>>, D::Error> {
    parse_some(d, conflicts_of)
}

/// The mechanic `statements.scene`.
pub struct Scene;

impl Define for Scene {
    type Params = SceneParams;
    type Trial = Table;
    const NAME: &'static str = "statements.scene";
    const SUMMARY: &'static str = "A scene: every player's statements rolled, then made true tier by tier, heaviest first, skipping conflicts; luck spent and earned.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        // The real names depend on the players; document the pattern.
        let field = |name: &str, kind, doc| FieldSpec::new(name, kind, doc);
        Schema {
            fields: vec![
                field(
                    "<player>.<n>.true",
                    FieldKind::Bool,
                    "Statement n of the player came true.",
                ),
                field(
                    "<player>.<n>.successes",
                    FieldKind::Int,
                    "Its successes, after support.",
                ),
                field(
                    "<player>.failures",
                    FieldKind::Int,
                    "The player's failures over all its statements.",
                ),
                field(
                    "<player>.luck",
                    FieldKind::Int,
                    "The player's luck after the scene (at most 10).",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_true.<player>.<n>",
                    0,
                    Pred::Eq(1),
                    "Probability each statement comes true (one metric per statement).",
                ),
                MetricSpec::mean("mean_failures.<player>", 2, "Mean failures of each player."),
                MetricSpec::mean(
                    "mean_luck.<player>",
                    3,
                    "Mean luck of each player after the scene.",
                ),
            ],
        }
    }

    /// Fields and metrics named for this scene's players.
    fn schema_of(&self, p: &SceneParams) -> Schema {
        // The names are the table's, read as the check read it.
        table_of(p.clone()).expect(CHECKED).schema()
    }

    /// Bids within the luck a player has, a factor in at most
    /// `MAX_USES` statements, a die to roll in every statement, and
    /// supports and conflicts naming statements of the scene.
    fn check(&self, p: &SceneParams) -> Result<Vec<Warning>, ParamError> {
        table_of(p.clone())?;
        Ok(Vec::new())
    }

    /// The scene's table: the same reading the check made (a table is
    /// plain data, read again rather than kept).
    fn build(&self, p: SceneParams) -> Table {
        table_of(p).expect(CHECKED)
    }
}

/// The scene a set of scenario values describes, as a table of entries.
fn table_of(p: SceneParams) -> Result<Table, ParamError> {
    let SceneParams {
        players,
        conflicts,
        luck: default_luck,
        rolls,
        weight_luck,
    } = p;
    let mut entries = Vec::new();
    let mut start_luck = Vec::new();
    for (p, player) in players.iter().enumerate() {
        let luck = player.luck.map_or(default_luck, |l| l.0);
        let bids: i64 = player.statements.0.iter().map(|s| s.bid.0).sum();
        if bids > luck {
            return Err(ParamError::new(
                "players",
                format!(
                    "player {} ({}) bids {bids} luck but starts with {luck}; bids cannot exceed the luck a player has",
                    p + 1,
                    player.name.0
                ),
            ));
        }
        if let Some((name, uses)) = spec::overused(player) {
            return Err(ParamError::new(
                "players",
                format!(
                    "player {} ({}) names the factor `{name}` in {uses} statements; a trait, attribute or resource supports at most {} statements in a scene",
                    p + 1,
                    player.name.0,
                    spec::MAX_USES
                ),
            ));
        }
        start_luck.push(luck);
        for (tier, s) in player.statements.0.iter().enumerate() {
            let (favouring, bid) = (s.favouring.sum, s.bid.0);
            let opposing = s.opposing.0 + s.difficulty.0;
            if favouring + opposing + bid as u64 == 0 {
                return Err(ParamError::new(
                    "players",
                    format!(
                        "player {}, statement {}: favouring, luck, opposing and difficulty are all 0, so there is no die to roll",
                        p + 1,
                        tier + 1
                    ),
                ));
            }
            entries.push(Entry {
                player: p,
                tier,
                roll: Roll::new(favouring + bid as u64, opposing),
                support: s.support.0,
                support_refs: Vec::new(),
                weight_per_success: favouring + if weight_luck { bid as u64 } else { 0 },
                bid,
                drive: s.drive,
                conflicts: 0,
            });
        }
    }
    let slots: Vec<(usize, usize)> = entries.iter().map(|e| (e.player, e.tier)).collect();
    let find = |r: &StatementRef, key: &str| {
        slots
            .iter()
            .position(|&(p, tier)| players[p].name.0 == r.player && tier + 1 == r.number)
            .ok_or_else(|| {
                ParamError::new(key, format!("\"{r}\" is not a statement of this scene"))
            })
    };
    for (i, &(p, tier)) in slots.iter().enumerate() {
        for (target, change) in players[p].statements.0[tier].refs() {
            let j = find(target, "players")?;
            if slots[j].1 >= tier {
                return Err(ParamError::new(
                    "players",
                    format!(
                        "{}.{} is supported or hindered by {target}, which is not an earlier statement (a lower statement number)",
                        players[p].name.0,
                        tier + 1,
                    ),
                ));
            }
            entries[i].support_refs.push((j, change));
        }
    }
    for [a, b] in conflicts.unwrap_or_default() {
        let (i, j) = (find(&a, "conflicts")?, find(&b, "conflicts")?);
        entries[i].conflicts |= 1 << j;
        entries[j].conflicts |= 1 << i;
    }
    Ok(Table::new(
        players.into_iter().map(|p| p.name.0).collect(),
        start_luck,
        entries,
        rolls,
    ))
}
