//! `questworlds.group_sequence` (rules §4.6, [5.1.2, 5.1.9, 5.1.10,
//! 5.2.1.3, 5.3.5, 5.4.4]): a party of 1..=6 PCs, with their followers,
//! against 1..=12 opponents, in pairings that each play rounds of a scored,
//! wagered or chained sequence, until one side has no member in play.
//! Monte Carlo only: the state is every member's tally and the pairings.
//!
//! The rosters ([`roster`]) and the assist policy ([`assist`]) are parsed
//! once; the rounds ([`fight`]) reuse the plain sequences' round rules,
//! their contests drawn from outcome tables ([`dice`]).

pub mod assist;
pub mod dice;
pub mod fight;
pub mod roster;

#[cfg(test)]
mod tests;

use assist::AssistPolicy;
use fight::{Fight, Group, Member, Part, Rolled, Rules, Shift, Type};
use roster::{Opponent, PcSpec, Role, opponents_of, pcs_of};

use super::Rating;
use super::scored::RP_TO_LOSE;
use super::sequence::SIDE_PARAMS;
use super::{BASE_RESISTANCE, RATING};
use crate::dice::DiceRng;
use crate::model::parse_value;
use crate::sim::Tally;
use crate::systems::{
    Choice, Define, FieldKind, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Pred,
    Schema, Trial, Warning,
};

/// Labels of the `winner` field.
pub const WINNERS: [&str; 3] = ["pcs", "opponents", "draw"];

/// A PC's chained resolve unless its entry says.
pub const PC_RESOLVE: i64 = 5;

static PARAMS: [ParamSpec; 9] = [
    ParamSpec {
        path: "type",
        kind: ParamKind::Choice(Type::NAMES),
        default: Lit::Str("scored"),
        doc: "The sequence every pairing plays: \"scored\" (out at 5 RP, followers at 3), \"wagered\" (AP from the TN, out at ≤ 0), \"chained\" (resolve: PC 5, follower 3, named 3, mook 1).",
    },
    ParamSpec {
        path: "pcs",
        kind: ParamKind::Custom {
            expects: roster::PCS_EXPECTS,
        },
        default: Lit::Str("15"),
        doc: "The party in roster order: [{ rating = \"5M\", followers = [{ rating = \"15\", role = \"contestant\" | \"secondary\" | \"supporter\" }], resolve = 5 }, …] (1..=6 PCs, 0..=4 followers each; `resolve` is chained only), or a string of ratings \"15 5M\".",
    },
    ParamSpec {
        path: "opponents",
        kind: ParamKind::Custom {
            expects: roster::OPPONENTS_EXPECTS,
        },
        default: Lit::Str("10"),
        doc: "The opposition in roster order: [{ rating = \"18\", kind = \"named\" | \"mook\" | \"impersonal\", count = 1..=12, resolve = 1..=10 }, …] (1..=12 in all; kind and `resolve` set the chained resolve: named 3, mook 1, impersonal 1), a string of ratings (named), or { name = \"…\", roster = [ … ] } to label outputs.",
    },
    ParamSpec {
        path: "assist",
        kind: ParamKind::Custom {
            expects: assist::EXPECTS,
        },
        default: Lit::Str("never"),
        doc: "What an unengaged PC or follower does when no opponent is free: join an engaged opponent (\"never\", the default), or assist the most pressed teammate (\"always\", { when_pressed = n }, or rules [{ assist = true, when_pressed = n, ap = n }, …]; pressed: RP against it, AP or resolve lost). Scored: against the base resistance +5 per earlier assist to that teammate, victory removes degree + 1 RP, defeat adds degree + 1. Wagered: `ap` (default 3) leave the helper, and reach the teammate on a victory against resistance `ap`. Chained: victory restores 1 resolve (2 on degree 2+). Supporters only assist.",
    },
    ParamSpec {
        path: "secondary.shift",
        kind: ParamKind::Choice(Shift::NAMES),
        default: Lit::Str("when-it-saves"),
        doc: "When a PC hands a defeat to its secondary followers: \"when-it-saves\" (only to stay in) or \"always\". Scored: RP move to them, each taking up to 3 and then removed; chained: the first follower absorbs the defeat's resolve loss and leaves, with the augment it gave. Wagered secondary followers add their AP (their TN) to the PC's at the start instead.",
    },
    ParamSpec {
        path: "second_chance",
        kind: ParamKind::Bool,
        default: Lit::Bool(true),
        doc: "Wagered: a PC knocked out while the fight goes on spends a story point for a second chance, once: a contest against resistance = how far below 0 its AP are; victory brings it back at ⌈starting AP / 4⌉, at −6 for the rest of the sequence.",
    },
    ParamSpec {
        path: "wager",
        kind: ParamKind::Int { min: 1, max: 400 },
        default: Lit::Int(3),
        doc: "Wagered: what every member stakes on the exchanges it leads (a PC keeps its wager even above the AP it has left; the GM never stakes more than it has).",
    },
    ParamSpec {
        path: "resistance.base",
        kind: RATING,
        default: Lit::Int(BASE_RESISTANCE),
        doc: "The base resistance: what scored and chained assists and a chained secondary follower's augment face.",
    },
    SIDE_PARAMS[4],
];

/// The parameters of `questworlds.group_sequence`, one field per path of
/// [`PARAMS`]: the rosters and the assist policy parsed whole.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSequenceParams {
    #[serde(rename = "type")]
    pub kind: Type,
    #[serde(deserialize_with = "pcs")]
    pub pcs: Vec<PcSpec>,
    #[serde(deserialize_with = "opponents")]
    pub opponents: Vec<Opponent>,
    #[serde(deserialize_with = "assist")]
    pub assist: AssistPolicy,
    #[serde(rename = "secondary.shift")]
    pub secondary_shift: Shift,
    pub second_chance: bool,
    pub wager: i64,
    #[serde(rename = "resistance.base")]
    pub resistance_base: Rating,
    pub max_rounds: usize,
}

fn pcs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PcSpec>, D::Error> {
    parse_value(d, pcs_of)
}

fn opponents<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Opponent>, D::Error> {
    parse_value(d, opponents_of)
}

fn assist<'de, D: serde::Deserializer<'de>>(d: D) -> Result<AssistPolicy, D::Error> {
    parse_value(d, assist::parse)
}

/// The mechanic `questworlds.group_sequence`.
pub struct GroupSequence;

/// The trial: one group sequence.
pub struct GroupTrial(pub Group);

impl Trial for GroupTrial {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // One fight and one set of contest tables for the whole run: a
        // trial resets the fight in place and looks its contests up.
        let mut fight = Fight::default();
        let mut tables = Rolled::tables();
        tally.record_trials(rng, trials, |rng| {
            let mut dice = Rolled {
                rng,
                tables: &mut tables,
            };
            self.0.play_in(&mut fight, &mut dice)
        });
    }
}

impl Define for GroupSequence {
    type Params = GroupSequenceParams;
    type Trial = GroupTrial;
    const NAME: &'static str = "questworlds.group_sequence";
    const SUMMARY: &'static str = "Group sequence: a party with followers against a gang, in pairings of scored, wagered or chained rounds, until a side has no one left.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let fields = vec![
            FieldSpec::new(
                "winner",
                FieldKind::Category(WINNERS.to_vec()),
                "The side with the last member in play (a draw when both lose their last at once, or at `max_rounds`).",
            ),
            FieldSpec::int("rounds", "Rounds played."),
            FieldSpec::int("pcs_out", "PCs out at the end."),
            FieldSpec::int("opponents_out", "Opponents out at the end."),
            FieldSpec::int(
                "followers_lost",
                "Followers taken out: contestants out, secondary followers removed at 3 RP or spent absorbing a defeat.",
            ),
            FieldSpec::int("assists", "Assists made."),
        ];
        let metrics = vec![
            MetricSpec::prob(
                "p_pcs_win",
                0,
                Pred::Eq(fight::PCS),
                "Probability the PCs' side wins.",
            ),
            MetricSpec::prob(
                "p_opponents_win",
                0,
                Pred::Eq(fight::OPPONENTS),
                "Probability the opposition wins.",
            ),
            MetricSpec::prob(
                "p_draw",
                0,
                Pred::Eq(fight::DRAW),
                "Probability of a draw (both sides out at once, or `max_rounds`).",
            ),
            MetricSpec::mean("mean_rounds", 1, "Mean number of rounds."),
            MetricSpec::prob(
                "p_no_pc_out",
                2,
                Pred::Eq(0),
                "Probability that no PC is out at the end.",
            ),
            MetricSpec::mean("mean_pcs_out", 2, "Mean number of PCs out at the end."),
            MetricSpec::mean(
                "mean_opponents_out",
                3,
                "Mean number of opponents out at the end.",
            ),
            MetricSpec::mean("mean_followers_lost", 4, "Mean number of followers lost."),
            MetricSpec::mean("mean_assists", 5, "Mean number of assists made."),
        ];
        Schema { fields, metrics }
    }

    /// Wagered: every starting AP (a TN) is at least 1.
    fn check(&self, p: &GroupSequenceParams) -> Result<Vec<Warning>, ParamError> {
        if p.kind == Type::Wagered {
            check_ap(&members(p))?;
        }
        Ok(Vec::new())
    }

    fn build(&self, p: GroupSequenceParams) -> GroupTrial {
        let members = members(&p);
        let rules = Rules {
            assist: p.assist,
            shift: p.secondary_shift,
            second_chance: p.second_chance,
            wager: p.wager,
            base: p.resistance_base,
            max_rounds: p.max_rounds,
        };
        GroupTrial(Group::new(p.kind, members, rules))
    }
}

/// The sides' members in acting order: each PC with its followers, then
/// the opponents, each starting as `kind` says.
fn members(p: &GroupSequenceParams) -> Vec<Member> {
    let GroupSequenceParams {
        kind,
        pcs,
        opponents,
        ..
    } = p;
    let kind = *kind;
    let mut members = Vec::new();
    for pc in pcs {
        let owner = members.len();
        let secondary_ap: i64 = pc
            .followers
            .iter()
            .filter(|f| f.role.0 == Role::Secondary)
            .map(|f| f.rating.tn())
            .sum();
        members.push(Member {
            part: Part::Pc,
            rating: pc.rating,
            owner,
            start: match kind {
                Type::Scored => 0,
                Type::Wagered => pc.rating.tn() + secondary_ap,
                Type::Chained => pc.resolve.map_or(PC_RESOLVE, |r| r.0),
            },
            limit: RP_TO_LOSE,
        });
        for f in &pc.followers {
            members.push(Member {
                part: match f.role.0 {
                    Role::Contestant => Part::Contestant,
                    Role::Secondary => Part::Secondary,
                    Role::Supporter => Part::Supporter,
                },
                rating: f.rating,
                owner,
                start: match kind {
                    Type::Scored => 0,
                    Type::Wagered => f.rating.tn(),
                    Type::Chained => fight::FOLLOWER_RESOLVE,
                },
                limit: fight::FOLLOWER_RP,
            });
        }
    }
    for o in opponents {
        members.push(Member {
            part: Part::Opponent,
            rating: o.rating,
            owner: 0,
            start: match kind {
                Type::Scored => 0,
                Type::Wagered => o.rating.tn(),
                Type::Chained => o.resolve,
            },
            limit: RP_TO_LOSE,
        });
    }
    members
}

/// Wagered: starting AP are the TN, so every rating must be ≥ 1.
fn check_ap(members: &[Member]) -> Result<(), ParamError> {
    for m in members {
        if m.rating.tn() < 1 {
            let key = if m.part == Part::Opponent {
                "opponents"
            } else {
                "pcs"
            };
            return Err(ParamError::new(
                key,
                format!(
                    "rating {} gives no AP: in a wagered sequence starting AP are the TN, which must be ≥ 1; allowed: ratings ≥ 1",
                    m.rating.tn()
                ),
            ));
        }
    }
    Ok(())
}
