//! Tension mode (RULES.md §3.8) and the mechanic `cgg.tension`.
//!
//! A pitfall track starts at T. Each round every explorer acts once (a
//! full `cgg.action` with their own code and the shared difficulty): a
//! success lowers the track by 1, by 2 when particularly effective
//! (success with at least one venture left unspent); the track reaching 0
//! avoids the pitfall at once. Then the Exec raises the track by 1d3 (or a
//! fixed 1..=3); reaching 15 springs the pitfall. Monte Carlo only.

use super::action::{Action, field};
use super::rules::{RULE_PARAMS, action_from};
use serde::Deserialize;

use super::{DieCode, code_of};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::systems::{
    Args, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, ParamValue, Pred,
    Schema, Trial, from_value,
};

/// The track value at which the pitfall happens.
pub const PITFALL: i64 = 15;
/// The most explorers a scenario may list.
pub const MAX_EXPLORERS: usize = 12;

const EXPLORERS_EXPECT: &str = "a non-empty list of explorers, each a die code or a table with `code` and optional `risk_code`, e.g. [\"3d\", { code = \"4d+1\", risk_code = \"3d\" }]";

/// One explorer of the list: a die code for both rolls, or a table
/// `{ code, risk_code }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ParamValue")]
struct Explorer {
    code: DieCode,
    risk_code: DieCode,
}

/// An explorer written as a table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplorerTable {
    code: DieCode,
    risk_code: Option<DieCode>,
}

impl TryFrom<ParamValue> for Explorer {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Explorer, String> {
        if let ParamValue::Table(_) = v {
            let t: ExplorerTable = from_value("explorer", &v)?;
            return Ok(Explorer {
                code: t.code,
                risk_code: t.risk_code.unwrap_or(t.code),
            });
        }
        let code = code_of(&v)?;
        Ok(Explorer {
            code,
            risk_code: code,
        })
    }
}

fn explorers(v: &ParamValue) -> Result<Vec<Explorer>, String> {
    let ParamValue::List(items) = v else {
        return Err(format!("{} is the wrong type", v.type_name()));
    };
    match items.len() {
        0 => Err("the list is empty".into()),
        n if n > MAX_EXPLORERS => Err(format!("more than {MAX_EXPLORERS} explorers")),
        _ => from_value("explorers", v),
    }
}

static PARAMS: [ParamSpec; 19] = [
    ParamSpec {
        path: "explorers",
        kind: ParamKind::Custom {
            expects: EXPLORERS_EXPECT,
        },
        default: Lit::Absent,
        doc: "Each explorer's code for the action (success and risk); default two explorers at 3d.",
    },
    ParamSpec {
        path: "start",
        kind: ParamKind::Int { min: 1, max: 14 },
        default: Lit::Int(7),
        doc: "Where the pitfall track starts.",
    },
    ParamSpec {
        path: "exec.raise",
        kind: ParamKind::IntOrName {
            min: 1,
            max: 3,
            names: &[("d3", 0)],
        },
        default: Lit::Str("d3"),
        doc: "The Exec's raise at the end of each round: \"d3\" (rolled) or a fixed 1..=3.",
    },
    ParamSpec {
        path: "max_rounds",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: Lit::Int(100),
        doc: "Stop a scene still running after this many rounds (counted as unresolved).",
    },
    RULE_PARAMS[0],
    RULE_PARAMS[1],
    RULE_PARAMS[2],
    RULE_PARAMS[3],
    RULE_PARAMS[4],
    RULE_PARAMS[5],
    RULE_PARAMS[6],
    RULE_PARAMS[7],
    RULE_PARAMS[8],
    RULE_PARAMS[9],
    RULE_PARAMS[10],
    RULE_PARAMS[11],
    RULE_PARAMS[12],
    RULE_PARAMS[13],
    RULE_PARAMS[14],
];

/// A resolved tension scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Tension {
    /// One action per explorer, in turn order.
    pub actions: Vec<Action>,
    pub start: i64,
    /// 0: roll 1d3; else this fixed raise.
    pub raise: u32,
    pub max_rounds: u32,
}

/// Field indices.
const AVOIDED: usize = 0;
const PITFALL_SPRUNG: usize = 1;
const ROUNDS: usize = 2;
const HOURS_PAID: usize = 3;
const HOURS_GAINED: usize = 4;

impl Tension {
    /// One scene: `[avoided, pitfall, rounds, hours_paid, hours_gained]`.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; 5] {
        let mut track = self.start;
        let (mut paid, mut gained) = (0, 0);
        for round in 1..=self.max_rounds as i64 {
            for a in &self.actions {
                let o = a.sample(rng);
                paid += o[field::HOURS_PAID];
                gained += o[field::HOURS_GAINED];
                if o[field::SUCCESS] == 1 {
                    track -= if o[field::VENTURE_LEFT] >= 1 { 2 } else { 1 };
                    if track <= 0 {
                        return [1, 0, round, paid, gained];
                    }
                }
            }
            track += match self.raise {
                0 => rng.die(3) as i64,
                r => r as i64,
            };
            if track >= PITFALL {
                return [0, 1, round, paid, gained];
            }
        }
        [0, 0, self.max_rounds as i64, paid, gained]
    }
}

impl Trial for Tension {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        tally.record_trials(rng, trials, |rng| self.sample(rng));
    }
}

/// The mechanic `cgg.tension`.
pub struct TensionMechanic;

impl Define for TensionMechanic {
    type Trial = Tension;
    const NAME: &'static str = "cgg.tension";
    const SUMMARY: &'static str = "A tension scene: every explorer acts each round (success −1, −2 with venture to spare), then the Exec raises the track 1d3; 0 avoids the pitfall, 15 springs it.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("avoided", "The track reached 0: pitfall avoided."),
                FieldSpec::bool("pitfall", "The track reached 15: the pitfall happened."),
                FieldSpec::int("rounds", "Rounds played."),
                FieldSpec::int("hours_paid", "Crisis-clock hours paid by all explorers."),
                FieldSpec::int(
                    "hours_gained",
                    "Crisis-clock hours gained by all explorers.",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_avoided",
                    AVOIDED,
                    Pred::Eq(1),
                    "Probability the pitfall is avoided.",
                ),
                MetricSpec::prob(
                    "p_pitfall",
                    PITFALL_SPRUNG,
                    Pred::Eq(1),
                    "Probability the pitfall happens.",
                ),
                MetricSpec::mean("mean_rounds", ROUNDS, "Mean rounds until the scene ends."),
                MetricSpec::mean(
                    "mean_hours_paid",
                    HOURS_PAID,
                    "Mean hours paid over the scene.",
                ),
                MetricSpec::mean(
                    "mean_hours_gained",
                    HOURS_GAINED,
                    "Mean hours gained over the scene.",
                ),
            ],
        }
    }

    fn build(&self, args: &Args) -> Result<Tension, ParamError> {
        let three = DieCode::new(3, 0);
        let codes = args
            .parsed_if_set("explorers", explorers)?
            .unwrap_or_else(|| {
                let both = Explorer {
                    code: three,
                    risk_code: three,
                };
                vec![both; 2]
            });
        let actions = codes
            .into_iter()
            .map(|e| action_from(args, e.code.dice(), e.risk_code, 0))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Tension {
            actions,
            start: args.int("start")?,
            raise: args.int("exec.raise")? as u32,
            max_rounds: args.int("max_rounds")? as u32,
        })
    }
}
