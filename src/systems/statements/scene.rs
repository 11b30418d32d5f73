//! `statements.scene`: every player's statements resolved together
//! (RULES.md §5.3), by Monte Carlo.
//!
//! Each player states up to three statements. All are rolled; then for the
//! first statements, the second, then the third, those with weight are made
//! true heaviest first (equal weight: higher favouring sum first, then a
//! fair coin), skipping any that conflicts with a statement already true.
//! Luck bid on a statement is spent only if it comes true; failures on
//! statements that reflect a drive earn luck; luck never exceeds 10.

use super::roll::{self, MAX_ROLLS, Roll, Rolls};
use super::statement::check_difficulty;
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::systems::{
    Args, Choice, Define, FieldKind, FieldSpec, Lit, MetricKind, MetricSpec, ParamError, ParamKind,
    ParamSpec, ParamValue, Pred, Schema, Trial,
};

/// Most players in one scene, and statements per player.
const MAX_PLAYERS: usize = 8;
const MAX_STATEMENTS: usize = 3;
/// Luck never exceeds this; a bid is at most `MAX_BID`.
const LUCK_CAP: i64 = 10;
const MAX_BID: i64 = 5;

const PLAYERS_EXPECT: &str = "a list of 1..=8 players, each { name = \"ann\", luck = 0..=10 (optional), statements = [1..=3 statements] }, each statement { favouring = factors, opposing = factors, difficulty = 0 or 2..=12, luck = bid 0..=5, drive = bool, support = -1..=1, supported_by = \"ann.1\", hindered_by = \"bob.1\" } (only favouring is required)";
const CONFLICTS_EXPECT: &str = "a list of pairs of statements that cannot both be true, e.g. [[\"ann.1\", \"bob.1\"]] (player name, then statement number from 1)";

static PARAMS: [ParamSpec; 5] = [
    ParamSpec {
        path: "players",
        kind: ParamKind::Custom {
            expects: PLAYERS_EXPECT,
            check: check_players,
        },
        default: Lit::Absent,
        doc: "The players and their statements, in the order they are resolved within a tier (required).",
    },
    ParamSpec {
        path: "conflicts",
        kind: ParamKind::Custom {
            expects: CONFLICTS_EXPECT,
            check: check_conflicts,
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
        doc: "Whether the luck bid counts in the weight (successes × favouring, luck included): true by default (RULES.md §5.2, corrected 2026-11-22: luck is a favouring factor and can be used by itself); false is the old reading, where luck only helps the roll.",
    },
];

/// One statement as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub favouring: u64,
    pub opposing: u64,
    pub bid: i64,
    pub drive: bool,
    pub support: i64,
    /// Earlier statements whose coming true adds (+1) or removes (−1) a
    /// success: `(player name, statement number)` and the change.
    pub refs: Vec<((String, usize), i64)>,
}

/// One player as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    pub name: String,
    /// Starting luck, when the player sets it.
    pub luck: Option<i64>,
    pub statements: Vec<Spec>,
}

fn table<'a>(v: &'a ParamValue, what: &str) -> Result<&'a [(String, ParamValue)], String> {
    match v {
        ParamValue::Table(t) => Ok(t),
        other => Err(format!(
            "{what} must be a table {{ … }}, not {}",
            other.type_name()
        )),
    }
}

fn int_in(v: &ParamValue, what: &str, min: i64, max: i64) -> Result<i64, String> {
    match v {
        ParamValue::Int(i) if (min..=max).contains(i) => Ok(*i),
        ParamValue::Int(i) => Err(format!("{what} = {i} is out of range {min}..={max}")),
        other => Err(format!(
            "{what} must be an integer, not {}",
            other.type_name()
        )),
    }
}

fn statement_spec(v: &ParamValue, what: &str) -> Result<Spec, String> {
    let mut spec = Spec {
        favouring: 0,
        opposing: 0,
        bid: 0,
        drive: false,
        support: 0,
        refs: Vec::new(),
    };
    let mut has_favouring = false;
    for (key, x) in table(v, what)? {
        let at = format!("{what}: `{key}`");
        match key.as_str() {
            "favouring" | "opposing" => {
                roll::check_factors(x).map_err(|e| format!("{at}: {e}"))?;
                if key == "favouring" {
                    spec.favouring = roll::factor_sum(x);
                    has_favouring = true;
                } else {
                    spec.opposing += roll::factor_sum(x);
                }
            }
            "difficulty" => {
                check_difficulty(x).map_err(|e| format!("{at}: {e}; allowed: 0 or 2..=12"))?;
                spec.opposing += int_in(x, &at, 0, 12)? as u64;
            }
            "luck" => spec.bid = int_in(x, &at, 0, MAX_BID)?,
            "support" => spec.support = int_in(x, &at, -1, 1)?,
            "supported_by" | "hindered_by" => {
                let target = statement_ref(x).map_err(|e| format!("{at}: {e}"))?;
                spec.refs
                    .push((target, if key == "supported_by" { 1 } else { -1 }));
            }
            "drive" => match x {
                ParamValue::Bool(b) => spec.drive = *b,
                other => {
                    return Err(format!(
                        "{at} must be true or false, not {}",
                        other.type_name()
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "{what}: unknown key `{key}`; allowed: favouring, opposing, difficulty, luck, drive, support, supported_by, hindered_by"
                ));
            }
        }
    }
    if !has_favouring {
        return Err(format!("{what}: `favouring` is missing"));
    }
    if spec.favouring + spec.opposing + spec.bid as u64 == 0 {
        return Err(format!(
            "{what}: favouring, luck, opposing and difficulty are all 0, so there is no die to roll"
        ));
    }
    Ok(spec)
}

/// Parse (and so check) the `players` value.
pub fn parse_players(v: &ParamValue) -> Result<Vec<PlayerSpec>, String> {
    let ParamValue::List(items) = v else {
        return Err(format!("must be a list of players, not {}", v.type_name()));
    };
    if items.is_empty() || items.len() > MAX_PLAYERS {
        return Err(format!(
            "{} players; a scene has 1..={MAX_PLAYERS}",
            items.len()
        ));
    }
    let mut players: Vec<PlayerSpec> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let what = format!("player {}", i + 1);
        let mut name = None;
        let mut luck = None;
        let mut statements = None;
        for (key, x) in table(item, &what)? {
            match (key.as_str(), x) {
                ("name", ParamValue::Str(s)) => {
                    let ok = !s.is_empty()
                        && s.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                    if !ok {
                        return Err(format!(
                            "{what}: name \"{s}\" must be letters, digits, `_` or `-`"
                        ));
                    }
                    name = Some(s.clone());
                }
                ("luck", x) => luck = Some(int_in(x, &format!("{what}: `luck`"), 0, LUCK_CAP)?),
                ("statements", ParamValue::List(list)) => {
                    if list.is_empty() || list.len() > MAX_STATEMENTS {
                        return Err(format!(
                            "{what}: {} statements; each player states 1..={MAX_STATEMENTS}",
                            list.len()
                        ));
                    }
                    statements = Some(
                        list.iter()
                            .enumerate()
                            .map(|(n, s)| {
                                statement_spec(s, &format!("{what}, statement {}", n + 1))
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    );
                }
                ("name" | "statements", other) => {
                    return Err(format!(
                        "{what}: `{key}` must be {}, not {}",
                        if key == "name" {
                            "a string"
                        } else {
                            "a list of statements"
                        },
                        other.type_name()
                    ));
                }
                _ => {
                    return Err(format!(
                        "{what}: unknown key `{key}`; allowed: name, luck, statements"
                    ));
                }
            }
        }
        let name = name.ok_or_else(|| format!("{what}: `name` is missing"))?;
        if players.iter().any(|p| p.name == name) {
            return Err(format!("{what}: the name \"{name}\" is used twice"));
        }
        let statements =
            statements.ok_or_else(|| format!("{what} ({name}): `statements` is missing"))?;
        players.push(PlayerSpec {
            name,
            luck,
            statements,
        });
    }
    Ok(players)
}

fn check_players(v: &ParamValue) -> Result<(), String> {
    parse_players(v).map(|_| ())
}

/// Parse a statement name, `"ann.1"`, into (player, number from 1).
fn statement_ref(x: &ParamValue) -> Result<(String, usize), String> {
    let ParamValue::Str(s) = x else {
        return Err(format!("{x} is not a statement name like \"ann.1\""));
    };
    let (player, n) = s
        .rsplit_once('.')
        .ok_or_else(|| format!("\"{s}\" is not a statement name like \"ann.1\""))?;
    match n.parse::<usize>() {
        Ok(n) if (1..=MAX_STATEMENTS).contains(&n) => Ok((player.to_string(), n)),
        _ => Err(format!(
            "\"{s}\": the statement number must be 1..={MAX_STATEMENTS}"
        )),
    }
}

/// Parse the `conflicts` value into pairs of `(player name, statement
/// number from 1)`.
pub fn parse_conflicts(v: &ParamValue) -> Result<Vec<[(String, usize); 2]>, String> {
    let ParamValue::List(pairs) = v else {
        return Err(format!("must be a list of pairs, not {}", v.type_name()));
    };
    let reference = statement_ref;
    pairs
        .iter()
        .map(|pair| match pair {
            ParamValue::List(two) if two.len() == 2 => {
                let (a, b) = (reference(&two[0])?, reference(&two[1])?);
                if a == b {
                    return Err(format!("{pair} pairs a statement with itself"));
                }
                Ok([a, b])
            }
            other => Err(format!("{other} is not a pair of statement names")),
        })
        .collect()
}

fn check_conflicts(v: &ParamValue) -> Result<(), String> {
    parse_conflicts(v).map(|_| ())
}

/// One statement, ready to roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: usize,
    /// Tier: 0 for first statements, 1 for second, 2 for third.
    pub tier: usize,
    pub roll: Roll,
    pub support: i64,
    /// Earlier statements (by index) whose coming true changes this one's
    /// successes by +1 or −1.
    pub support_refs: Vec<(usize, i64)>,
    /// Favouring (plus the bid under `variant.weight_luck`): weight per
    /// success, and the first tie-break.
    pub weight_per_success: u64,
    pub bid: i64,
    pub drive: bool,
    /// Bit `j` set: this statement conflicts with statement `j`.
    pub conflicts: u32,
}

/// A fully checked scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub names: Vec<String>,
    pub start_luck: Vec<i64>,
    /// Every statement, player by player, in statement order.
    pub entries: Vec<Entry>,
    pub rolls: Rolls,
}

/// One played scene: its rolls and what they made true.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Successes each statement rolled.
    pub rolled: Vec<u32>,
    /// Successes of each statement, after support.
    pub successes: Vec<u32>,
    pub weights: Vec<u64>,
    /// Bit `i` set: statement `i` came true.
    pub made_true: u32,
    /// Each player's failures and luck after the scene.
    pub failures: Vec<i64>,
    pub luck: Vec<i64>,
    /// Scratch: the statements of one tier in resolution order.
    order: Vec<usize>,
}

impl Table {
    /// Roll and resolve one scene into `t`.
    pub fn play(&self, rng: &mut DiceRng, t: &mut Played) {
        let n = self.entries.len();
        t.rolled.clear();
        t.rolled
            .extend(self.entries.iter().map(|e| e.roll.sample(rng, self.rolls)));
        t.successes.clear();
        t.successes.resize(n, 0);
        t.weights.clear();
        t.weights.resize(n, 0);
        t.made_true = 0;
        for tier in 0..MAX_STATEMENTS {
            // Support from earlier tiers is known once they are resolved.
            for (i, e) in self.entries.iter().enumerate() {
                if e.tier == tier {
                    let from_refs: i64 = e
                        .support_refs
                        .iter()
                        .filter(|(j, _)| t.made_true & (1 << j) != 0)
                        .map(|(_, d)| d)
                        .sum();
                    let s = roll::supported(t.rolled[i], e.support + from_refs);
                    t.successes[i] = s;
                    t.weights[i] = s as u64 * e.weight_per_success;
                }
            }
            t.order.clear();
            t.order
                .extend((0..n).filter(|&i| self.entries[i].tier == tier && t.weights[i] > 0));
            // A uniform shuffle, then a stable sort: statements equal in
            // weight and favouring keep a fair random order (the coin).
            for k in (1..t.order.len()).rev() {
                let j = rng.die(k as u32 + 1) as usize - 1;
                t.order.swap(k, j);
            }
            let (weights, entries) = (&t.weights, &self.entries);
            t.order.sort_by(|&a, &b| {
                (weights[b], entries[b].weight_per_success)
                    .cmp(&(weights[a], entries[a].weight_per_success))
            });
            for &i in &t.order {
                if self.entries[i].conflicts & t.made_true == 0 {
                    t.made_true |= 1 << i;
                }
            }
        }
        t.failures.clear();
        t.failures.resize(self.names.len(), 0);
        t.luck.clear();
        t.luck.extend_from_slice(&self.start_luck);
        for (i, e) in self.entries.iter().enumerate() {
            let failures = (MAX_ROLLS - t.successes[i]) as i64;
            t.failures[e.player] += failures;
            if t.made_true & (1 << i) != 0 {
                t.luck[e.player] -= e.bid;
            }
        }
        // Bids are paid first, then drives earn their failures, capped.
        for (i, e) in self.entries.iter().enumerate() {
            if e.drive {
                t.luck[e.player] += (MAX_ROLLS - t.successes[i]) as i64;
            }
        }
        for l in &mut t.luck {
            *l = (*l).min(LUCK_CAP);
        }
    }

    /// The outcome fields of a trial, in [`schema`] order.
    fn fields(&self, t: &Played, out: &mut Vec<i64>) {
        out.clear();
        for p in 0..self.names.len() {
            for (i, e) in self.entries.iter().enumerate() {
                if e.player == p {
                    out.push((t.made_true >> i & 1) as i64);
                    out.push(t.successes[i] as i64);
                }
            }
            out.push(t.failures[p]);
            out.push(t.luck[p]);
        }
    }

    /// The statement name `player.n` of entry `i`.
    fn label(&self, i: usize) -> String {
        let e = &self.entries[i];
        format!("{}.{}", self.names[e.player], e.tier + 1)
    }

    /// Outcome fields and metrics named for this scene's players.
    pub fn schema(&self) -> Schema {
        let mut fields = Vec::new();
        let mut metrics = Vec::new();
        let mut extra = Vec::new();
        for (p, name) in self.names.iter().enumerate() {
            for (i, e) in self.entries.iter().enumerate() {
                if e.player == p {
                    let label = self.label(i);
                    metrics.push(MetricSpec::new(
                        format!("p_true.{label}"),
                        MetricKind::Prob {
                            field: fields.len(),
                            pred: Pred::Eq(1),
                        },
                        "Probability the statement comes true.",
                    ));
                    fields.push(FieldSpec::new(
                        format!("{label}.true"),
                        FieldKind::Bool,
                        "The statement came true.",
                    ));
                    fields.push(FieldSpec::new(
                        format!("{label}.successes"),
                        FieldKind::Int,
                        "Its successes, after support.",
                    ));
                }
            }
            extra.push(MetricSpec::new(
                format!("mean_failures.{name}"),
                MetricKind::Mean {
                    field: fields.len(),
                },
                "Mean failures of the player over the scene.",
            ));
            fields.push(FieldSpec::new(
                format!("{name}.failures"),
                FieldKind::Int,
                "The player's failures over all its statements.",
            ));
            extra.push(MetricSpec::new(
                format!("mean_luck.{name}"),
                MetricKind::Mean {
                    field: fields.len(),
                },
                "Mean luck of the player after the scene.",
            ));
            fields.push(FieldSpec::new(
                format!("{name}.luck"),
                FieldKind::Int,
                "The player's luck after the scene (at most 10).",
            ));
        }
        metrics.extend(extra);
        Schema { fields, metrics }
    }
}

impl Trial for Table {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut trial = Played::default();
        let mut out = Vec::new();
        for _ in 0..trials {
            self.play(rng, &mut trial);
            self.fields(&trial, &mut out);
            tally.record_outcome(&out);
        }
    }
}

/// The mechanic `statements.scene`.
pub struct Scene;

impl Define for Scene {
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
                MetricSpec::new(
                    "p_true.<player>.<n>",
                    MetricKind::Prob {
                        field: 0,
                        pred: Pred::Eq(1),
                    },
                    "Probability each statement comes true (one metric per statement).",
                ),
                MetricSpec::new(
                    "mean_failures.<player>",
                    MetricKind::Mean { field: 2 },
                    "Mean failures of each player.",
                ),
                MetricSpec::new(
                    "mean_luck.<player>",
                    MetricKind::Mean { field: 3 },
                    "Mean luck of each player after the scene.",
                ),
            ],
        }
    }

    /// Fields and metrics named for this scene's players.
    fn schema_of(&self, table: &Table) -> Schema {
        table.schema()
    }

    /// The scene a set of scenario values describes.
    fn build(&self, args: &Args) -> Result<Table, ParamError> {
        let players = match args.value("players") {
            Some(v) => parse_players(&v).map_err(|e| ParamError::new("players", e))?,
            None => {
                return Err(ParamError::new(
                    "players",
                    format!("is required: {PLAYERS_EXPECT}"),
                ));
            }
        };
        let default_luck = args.int("luck")?;
        let weight_luck = args.bool("variant.weight_luck")?;
        let mut entries = Vec::new();
        let mut start_luck = Vec::new();
        for (p, player) in players.iter().enumerate() {
            let luck = player.luck.unwrap_or(default_luck);
            let bids: i64 = player.statements.iter().map(|s| s.bid).sum();
            if bids > luck {
                return Err(ParamError::new(
                    "players",
                    format!(
                        "player {} ({}) bids {bids} luck but starts with {luck}; bids cannot exceed the luck a player has",
                        p + 1,
                        player.name
                    ),
                ));
            }
            start_luck.push(luck);
            for (tier, s) in player.statements.iter().enumerate() {
                entries.push(Entry {
                    player: p,
                    tier,
                    roll: Roll::new(s.favouring + s.bid as u64, s.opposing),
                    support: s.support,
                    support_refs: Vec::new(),
                    weight_per_success: s.favouring + if weight_luck { s.bid as u64 } else { 0 },
                    bid: s.bid,
                    drive: s.drive,
                    conflicts: 0,
                });
            }
        }
        let slots: Vec<(usize, usize)> = entries.iter().map(|e| (e.player, e.tier)).collect();
        let find = |(name, n): &(String, usize), key: &str| {
            slots
                .iter()
                .position(|&(p, tier)| players[p].name == *name && tier + 1 == *n)
                .ok_or_else(|| {
                    ParamError::new(
                        key,
                        format!("\"{name}.{n}\" is not a statement of this scene"),
                    )
                })
        };
        for (i, &(p, tier)) in slots.iter().enumerate() {
            for (target, change) in &players[p].statements[tier].refs {
                let j = find(target, "players")?;
                if slots[j].1 >= tier {
                    return Err(ParamError::new(
                        "players",
                        format!(
                            "{}.{} is supported or hindered by {}.{}, which is not an earlier statement (a lower statement number)",
                            players[p].name,
                            tier + 1,
                            target.0,
                            target.1
                        ),
                    ));
                }
                entries[i].support_refs.push((j, *change));
            }
        }
        if let Some(v) = args.value("conflicts") {
            let pairs = parse_conflicts(&v).map_err(|e| ParamError::new("conflicts", e))?;
            for [a, b] in &pairs {
                let (i, j) = (find(a, "conflicts")?, find(b, "conflicts")?);
                entries[i].conflicts |= 1 << j;
                entries[j].conflicts |= 1 << i;
            }
        }
        Ok(Table {
            names: players.into_iter().map(|p| p.name).collect(),
            start_luck,
            entries,
            rolls: args.choice_of("variant.rolls")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::Marginals;
    use crate::systems::testing::{Sample, assert_agrees_with};
    use crate::systems::{Mechanic, ParamMap};
    use ParamValue::*;

    fn tbl(pairs: &[(&str, ParamValue)]) -> ParamValue {
        Table(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn player(name: &str, luck: i64, statements: Vec<ParamValue>) -> ParamValue {
        tbl(&[
            ("name", Str(name.into())),
            ("luck", Int(luck)),
            ("statements", List(statements)),
        ])
    }

    fn fav(f: i64, o: i64) -> ParamValue {
        tbl(&[("favouring", Int(f)), ("opposing", Int(o))])
    }

    fn pair(a: &str, b: &str) -> ParamValue {
        List(vec![Str(a.into()), Str(b.into())])
    }

    fn scene(players: Vec<ParamValue>, conflicts: Vec<ParamValue>) -> ParamMap {
        let mut m = ParamMap::new();
        m.set("players", List(players));
        if !conflicts.is_empty() {
            m.set("conflicts", List(conflicts));
        }
        m
    }

    fn made(t: &Played, i: usize) -> bool {
        t.made_true & (1 << i) != 0
    }

    #[test]
    fn conflicting_statements_are_never_both_true_and_the_heavier_wins() {
        // ann.1: 4 + 3 against 5 + 4 (weights 0, 7, 14, 21); bob.1: 5
        // against 5 (weights 0, 5, 10, 15); they conflict. cy.1 is free.
        let t = Scene
            .trial(&scene(
                vec![
                    player(
                        "ann",
                        0,
                        vec![tbl(&[
                            ("favouring", List(vec![Int(4), Int(3)])),
                            ("opposing", List(vec![Int(5), Int(4)])),
                        ])],
                    ),
                    player("bob", 0, vec![fav(5, 5)]),
                    player("cy", 0, vec![fav(2, 2)]),
                ],
                vec![pair("ann.1", "bob.1")],
            ))
            .unwrap();
        let mut rng = DiceRng::from_u64(8);
        let mut trial = Played::default();
        let mut seen = [0u32; 4];
        for _ in 0..200_000 {
            t.play(&mut rng, &mut trial);
            let (wa, wb) = (trial.weights[0], trial.weights[1]);
            assert!(
                !(made(&trial, 0) && made(&trial, 1)),
                "both true: {trial:?}"
            );
            match (wa > 0, wb > 0) {
                (true, true) => {
                    // Weights 7k and 5j are never equal for k, j in 1..=3.
                    assert_eq!(made(&trial, 0), wa > wb, "{trial:?}");
                    assert_eq!(made(&trial, 1), wb > wa, "{trial:?}");
                    seen[usize::from(wa > wb)] += 1;
                }
                (a, b) => {
                    assert_eq!((made(&trial, 0), made(&trial, 1)), (a, b));
                    seen[2 + usize::from(a)] += 1;
                }
            }
            assert_eq!(made(&trial, 2), trial.weights[2] > 0);
        }
        // Every case happened.
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    #[test]
    fn earlier_tiers_come_first_whatever_the_weight() {
        // ann.1 always weighs 3; bob.2 always weighs 30 but conflicts with
        // it and is resolved a tier later, so it never comes true.
        let t = Scene
            .trial(&scene(
                vec![
                    player("ann", 0, vec![fav(1, 0)]),
                    player("bob", 0, vec![fav(1, 0), fav(10, 0)]),
                ],
                vec![pair("bob.2", "ann.1")],
            ))
            .unwrap();
        let mut rng = DiceRng::from_u64(1);
        let mut trial = Played::default();
        for _ in 0..100 {
            t.play(&mut rng, &mut trial);
            assert_eq!(trial.weights, vec![3, 3, 30]);
            assert_eq!(trial.made_true, 0b011);
        }
    }

    #[test]
    fn equal_weights_go_to_higher_favouring_then_a_fair_coin() {
        // ann: F 2, three sure successes, W 6. bob: F 3, three sure
        // successes, one hindered away, W 6. Equal weight: bob's F wins.
        let t = Scene
            .trial(&scene(
                vec![
                    player("ann", 0, vec![fav(2, 0)]),
                    player(
                        "bob",
                        0,
                        vec![tbl(&[("favouring", Int(3)), ("support", Int(-1))])],
                    ),
                ],
                vec![pair("ann.1", "bob.1")],
            ))
            .unwrap();
        let mut rng = DiceRng::from_u64(2);
        let mut trial = Played::default();
        for _ in 0..100 {
            t.play(&mut rng, &mut trial);
            assert_eq!(trial.weights, vec![6, 6]);
            assert_eq!(trial.made_true, 0b10);
        }
        // Same weight and favouring: a fair coin.
        let m = Scene
            .prepare(&scene(
                vec![
                    player("ann", 0, vec![fav(2, 0)]),
                    player("bob", 0, vec![fav(2, 0)]),
                ],
                vec![pair("ann.1", "bob.1")],
            ))
            .unwrap();
        let names: Vec<&str> = m.schema().metrics.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names[..2], ["p_true.ann.1", "p_true.bob.1"]);
        // Each player: true with 1/2, three sure successes, no failure, no luck.
        let mut exact = Marginals::new(8);
        for p in [0, 4] {
            exact.add(p, 0, 0.5);
            exact.add(p, 1, 0.5);
            exact.add(p + 1, 3, 1.0);
            exact.add(p + 2, 0, 1.0);
            exact.add(p + 3, 0, 1.0);
        }
        assert_agrees_with(m.as_ref(), &exact, Sample::seed(5), "a fair coin");
    }

    #[test]
    fn luck_is_spent_on_true_statements_earned_by_drives_and_capped() {
        // Starting luck 9. Statement 1 always comes true with a bid of 2:
        // 9 − 2 = 7. Statements 2 and 3 reflect drives and always fail
        // three times: 7 + 3 + 3 = 13, capped at 10. Six failures.
        let t = Scene
            .trial(&scene(
                vec![player(
                    "ann",
                    9,
                    vec![
                        tbl(&[("favouring", Int(5)), ("luck", Int(2))]),
                        tbl(&[
                            ("favouring", Int(0)),
                            ("opposing", Int(5)),
                            ("drive", Bool(true)),
                        ]),
                        tbl(&[
                            ("favouring", Int(0)),
                            ("difficulty", Int(4)),
                            ("drive", Bool(true)),
                        ]),
                    ],
                )],
                vec![],
            ))
            .unwrap();
        let mut rng = DiceRng::from_u64(3);
        let mut trial = Played::default();
        t.play(&mut rng, &mut trial);
        assert_eq!(trial.made_true, 0b001);
        assert_eq!((trial.failures[0], trial.luck[0]), (6, 10));
        // A bid is spent only when its statement comes true: luck 3, bid 3
        // on a luck-only statement, which (the weight counting luck) comes
        // true now and then: 3 of a d103 per roll.
        let t = Scene
            .trial(&scene(
                vec![player(
                    "bob",
                    3,
                    vec![tbl(&[
                        ("favouring", Int(0)),
                        ("opposing", Int(100)),
                        ("luck", Int(3)),
                    ])],
                )],
                vec![],
            ))
            .unwrap();
        let mut seen = [0; 2];
        for _ in 0..1000 {
            t.play(&mut rng, &mut trial);
            let made = trial.made_true as usize;
            seen[made] += 1;
            assert_eq!(trial.luck[0], if made == 1 { 0 } else { 3 });
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }

    #[test]
    fn one_statement_scene_matches_the_statement_exactly() {
        use super::super::statement::Statement;
        let mut single = ParamMap::new();
        single.set("favouring", Int(4));
        single.set("opposing", Int(6));
        single.set("luck", Int(2));
        single.set("support", Int(1));
        let statement = Statement.trial(&single).unwrap().exact();
        let m = Scene
            .prepare(&scene(
                vec![player(
                    "ann",
                    2,
                    vec![tbl(&[
                        ("favouring", Int(4)),
                        ("opposing", Int(6)),
                        ("luck", Int(2)),
                        ("support", Int(1)),
                    ])],
                )],
                vec![],
            ))
            .unwrap();
        let schema = m.schema();
        let names: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["ann.1.true", "ann.1.successes", "ann.failures", "ann.luck"]
        );
        // The scene's fields from the statement's (successes, failures,
        // weight, true): the bid of 2 is spent exactly when it comes true.
        let mut exact = Marginals::new(4);
        for (to, from) in [(0, 3), (1, 0), (2, 1)] {
            for (&v, &p) in statement.field(from) {
                exact.add(to, v, p);
            }
        }
        for (&made, &p) in statement.field(3) {
            exact.add(3, if made == 1 { 0 } else { 2 }, p);
        }
        assert_agrees_with(m.as_ref(), &exact, Sample::seed(9), "one-statement scene");
    }

    #[test]
    fn support_from_an_earlier_statement_counts_only_if_it_came_true() {
        // ann.1 (W 6) beats cy.1 (W 3) in their conflict. bob.2 is hindered
        // by ann.1, which is true: 3 − 1 = 2 successes. cy.2 is hindered by
        // cy.1, which is not: 3 successes. cy.3 is supported by ann.1 and
        // hindered by cy.1: 0 + 1 successes although it never succeeds.
        let t = Scene
            .trial(&scene(
                vec![
                    player("ann", 0, vec![fav(2, 0)]),
                    player(
                        "bob",
                        0,
                        vec![
                            fav(1, 0),
                            tbl(&[("favouring", Int(1)), ("hindered_by", Str("ann.1".into()))]),
                        ],
                    ),
                    player(
                        "cy",
                        0,
                        vec![
                            fav(1, 0),
                            tbl(&[("favouring", Int(1)), ("hindered_by", Str("cy.1".into()))]),
                            tbl(&[
                                ("favouring", Int(0)),
                                ("opposing", Int(4)),
                                ("supported_by", Str("ann.1".into())),
                                ("hindered_by", Str("cy.1".into())),
                            ]),
                        ],
                    ),
                ],
                vec![pair("ann.1", "cy.1")],
            ))
            .unwrap();
        let mut rng = DiceRng::from_u64(4);
        let mut trial = Played::default();
        for _ in 0..100 {
            t.play(&mut rng, &mut trial);
            assert_eq!(trial.successes, vec![3, 3, 2, 3, 3, 1]);
            // True: ann.1, bob.1, bob.2, cy.2; cy.1 lost its conflict and
            // cy.3 weighs 1 × favouring 0.
            assert_eq!(trial.made_true, 0b010111);
        }
        // Only earlier statements can support a statement.
        let e = Scene
            .trial(&scene(
                vec![
                    player("ann", 0, vec![fav(1, 1)]),
                    player(
                        "bob",
                        0,
                        vec![tbl(&[
                            ("favouring", Int(1)),
                            ("supported_by", Str("ann.1".into())),
                        ])],
                    ),
                ],
                vec![],
            ))
            .unwrap_err();
        assert!(
            e.message.contains(
                "bob.1 is supported or hindered by ann.1, which is not an earlier statement"
            ),
            "{e}"
        );
    }

    #[test]
    fn bad_scenes_name_what_is_wrong() {
        let err = |m: &ParamMap| Scene.trial(m).unwrap_err();
        let e = err(&ParamMap::new());
        assert_eq!(e.key, "players");
        assert!(e.message.contains("required"), "{e}");
        let e = err(&scene(
            vec![player(
                "ann",
                1,
                vec![tbl(&[("favouring", Int(2)), ("luck", Int(2))])],
            )],
            vec![],
        ));
        assert!(e.message.contains("bids 2 luck but starts with 1"), "{e}");
        let e = err(&scene(
            vec![player("ann", 0, vec![fav(1, 1)])],
            vec![pair("ann.1", "bob.1")],
        ));
        assert_eq!(e.key, "conflicts");
        assert!(e.message.contains("\"bob.1\" is not a statement"), "{e}");
        let bad = |v: ParamValue| check_players(&List(vec![v])).unwrap_err();
        let e = bad(player(
            "ann",
            0,
            vec![tbl(&[("favouring", Int(1)), ("dificulty", Int(2))])],
        ));
        assert!(
            e.contains("player 1, statement 1: unknown key `dificulty`"),
            "{e}"
        );
        let e = bad(player(
            "ann",
            0,
            vec![tbl(&[("favouring", Int(1)), ("difficulty", Int(1))])],
        ));
        assert!(e.contains("`difficulty`") && e.contains("2..=12"), "{e}");
        let e = bad(player("ann", 0, vec![fav(1, 1); 4]));
        assert!(e.contains("4 statements"), "{e}");
        let e = bad(player("ann", 0, vec![tbl(&[("opposing", Int(1))])]));
        assert!(e.contains("`favouring` is missing"), "{e}");
        let e = bad(player("a.b", 0, vec![fav(1, 1)]));
        assert!(e.contains("name \"a.b\""), "{e}");
        let e = check_conflicts(&List(vec![pair("ann.4", "bob.1")])).unwrap_err();
        assert!(e.contains("1..=3"), "{e}");
        let e = check_conflicts(&List(vec![pair("ann.1", "ann.1")])).unwrap_err();
        assert!(e.contains("itself"), "{e}");
    }
}
