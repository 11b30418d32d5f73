//! A scene's players and conflicts as the scenario writes them, read
//! through serde (unknown keys refused, errors naming the player, the
//! statement and the key).

use serde::Deserialize;

use super::super::roll::Factors;
use super::super::statement::Difficulty;
use crate::systems::{InRange, ParamValue, from_value};

/// Most players in one scene, and statements per player.
pub const MAX_PLAYERS: usize = 8;
pub const MAX_STATEMENTS: usize = 3;
/// Luck never exceeds this; a bid is at most `MAX_BID`.
pub const LUCK_CAP: i64 = 10;
pub const MAX_BID: i64 = 5;

/// One statement as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    pub favouring: Factors,
    #[serde(default)]
    pub opposing: Factors,
    /// Added to the opposing factors.
    #[serde(default)]
    pub difficulty: Difficulty,
    /// The luck bid.
    #[serde(default, rename = "luck")]
    pub bid: InRange<0, MAX_BID>,
    /// The statement reflects a drive: its failures earn luck.
    #[serde(default)]
    pub drive: bool,
    /// +1 or −1 successes, given outright.
    #[serde(default)]
    pub support: InRange<-1, 1>,
    /// An earlier statement whose coming true adds a success.
    pub supported_by: Option<StatementRef>,
    /// An earlier statement whose coming true removes a success.
    pub hindered_by: Option<StatementRef>,
}

impl Spec {
    /// The earlier statements this one depends on, with the change in
    /// successes each brings when it comes true.
    pub fn refs(&self) -> impl Iterator<Item = (&StatementRef, i64)> {
        let up = self.supported_by.iter().map(|r| (r, 1));
        up.chain(self.hindered_by.iter().map(|r| (r, -1)))
    }
}

/// One player as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub name: Name,
    /// Starting luck, when the player sets it.
    pub luck: Option<InRange<0, LUCK_CAP>>,
    pub statements: Statements,
}

/// A player's name: what statement names (`ann.1`) are made of.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct Name(pub String);

impl TryFrom<ParamValue> for Name {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Name, String> {
        match v {
            ParamValue::Str(s)
                if !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
            {
                Ok(Name(s))
            }
            ParamValue::Str(s) => Err(format!("name \"{s}\" must be letters, digits, `_` or `-`")),
            other => Err(format!("must be a string, not {}", other.type_name())),
        }
    }
}

/// A player's 1..=3 statements.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Vec<Spec>")]
pub struct Statements(pub Vec<Spec>);

impl TryFrom<Vec<Spec>> for Statements {
    type Error = String;

    fn try_from(list: Vec<Spec>) -> Result<Statements, String> {
        if list.is_empty() || list.len() > MAX_STATEMENTS {
            return Err(format!(
                "{} statements; each player states 1..={MAX_STATEMENTS}",
                list.len()
            ));
        }
        Ok(Statements(list))
    }
}

/// A statement's name, `"ann.1"`: the player and the number from 1.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct StatementRef {
    pub player: String,
    pub number: usize,
}

impl TryFrom<ParamValue> for StatementRef {
    type Error = String;

    fn try_from(x: ParamValue) -> Result<StatementRef, String> {
        let ParamValue::Str(s) = &x else {
            return Err(format!("{x} is not a statement name like \"ann.1\""));
        };
        let (player, n) = s
            .rsplit_once('.')
            .ok_or_else(|| format!("\"{s}\" is not a statement name like \"ann.1\""))?;
        match n.parse::<usize>() {
            Ok(number) if (1..=MAX_STATEMENTS).contains(&number) => Ok(StatementRef {
                player: player.to_string(),
                number,
            }),
            _ => Err(format!(
                "\"{s}\": the statement number must be 1..={MAX_STATEMENTS}"
            )),
        }
    }
}

impl std::fmt::Display for StatementRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.player, self.number)
    }
}

/// The `players` value: 1..=8 players with distinct names.
pub fn players_of(v: &ParamValue) -> Result<Vec<PlayerSpec>, String> {
    let players: Vec<PlayerSpec> = from_value("players", v)?;
    if players.is_empty() || players.len() > MAX_PLAYERS {
        return Err(format!(
            "{} players; a scene has 1..={MAX_PLAYERS}",
            players.len()
        ));
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].iter().any(|q| q.name == p.name) {
            return Err(format!(
                "player {}: the name \"{}\" is used twice",
                i + 1,
                p.name.0
            ));
        }
    }
    Ok(players)
}

/// The `conflicts` value: pairs of two different statements.
pub fn conflicts_of(v: &ParamValue) -> Result<Vec<[StatementRef; 2]>, String> {
    let pairs: Vec<[StatementRef; 2]> = from_value("conflicts", v)?;
    for (i, [a, b]) in pairs.iter().enumerate() {
        if a == b {
            return Err(format!("conflict {}: {a} is paired with itself", i + 1));
        }
    }
    Ok(pairs)
}
