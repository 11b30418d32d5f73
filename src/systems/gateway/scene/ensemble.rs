//! `gateway.ensemble`: many on one. 1..=6 PCs, each on its own tension line
//! to one key entity K (the text's Kroe scene, rules §1.2). K rolls once
//! per action and the result is tested against every PC's DT.
//!
//! Monte Carlo always; exact (the duel's chain, K's roll summed over its
//! top die) for up to [`MAX_EXACT_PCS`] PCs within the state limit.

use super::engine::SceneRounds;
use serde::de::IgnoredAny;

use super::entity::{
    AID_NAMES, Entity, EntityKeys, MAX_ESSENCE, MAX_PASSENGERS, ORDER_NAMES, SPEND_NAMES,
    concat_params, entity, policy_of, read_entity_table,
};
use super::rules::{POLICY_EXPECTS, shorthand_policy};
use super::state::{
    Drama, F_LADDER, F_ROUNDS, F_WINNER, FIELDS, KEY, KEY_CLIMAX, MAX_PCS, Outcome, PCS_CLIMAX,
    Start, f_edge,
};
use super::{Pick, TIE_NAMES, Tie, pick, project};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::{Chain, Tally};
use crate::systems::gateway::challenge::{Relevance, TRAIT_NAMES};
use crate::systems::{
    CHECKED, Define, FieldKind, FieldSpec, Lit, MetricKind, MetricSpec, ParamError, ParamKind,
    ParamMap, ParamSpec, ParamValue, Pred, Schema, Trial, Warning,
};

/// Beyond this many PCs the ensemble is simulated only: K's roll branches
/// into 2^n patterns and the edges into n dimensions.
pub const MAX_EXACT_PCS: usize = 2;

/// The keys of the key entity's table.
static KEY_PARAMS: [ParamSpec; 11] = entity_params!("", "the key entity");

const PC_EXTRA: [ParamSpec; 2] = [
    ParamSpec {
        path: "name",
        kind: ParamKind::Custom {
            expects: "a name of letters, digits, `_` or `-`",
        },
        default: Lit::Absent,
        doc: "The PC's name in field names (default pc1, pc2, …).",
    },
    ParamSpec {
        path: "start_edge",
        kind: ParamKind::Int { min: -50, max: 50 },
        default: Lit::Int(0),
        doc: "The PC's edge over K in round 1, from the PC's side (Kroe's +2 over Tom is -2).",
    },
];

/// The keys of one PC's table.
static PC_PARAMS: [ParamSpec; 13] = concat_params(&[&KEY_PARAMS, &PC_EXTRA]);

const PCS_EXPECTS: &str = "a list of 1..=6 PC tables { name, start_edge, trait, background, background_relevance, specialisation, equipment, essence, essence_policy, passengers, aid, initiative_order, policy } (every key optional)";
const KEY_EXPECTS: &str = "a table { trait, background, background_relevance, specialisation, equipment, essence, essence_policy, passengers, aid, initiative_order, policy } (every key optional)";

// Who holds the initiative in round 1.
crate::choice! {
    pub enum FirstHolder {
        Key = "key",
        Pcs = "pcs",
    }
}

const INITIATIVE: &[&str] = <FirstHolder as crate::systems::Choice>::NAMES;

static PARAMS: [ParamSpec; 6] = [
    ParamSpec {
        path: "pcs",
        kind: ParamKind::Custom {
            expects: PCS_EXPECTS,
        },
        default: Lit::Absent,
        doc: "The PCs, each on its own tension line to K (required).",
    },
    ParamSpec {
        path: "key",
        kind: ParamKind::Custom {
            expects: KEY_EXPECTS,
        },
        default: Lit::Absent,
        doc: "The key entity K (default: a full trait, no background, the default policy).",
    },
    super::LADDER,
    super::ROUND_CAP,
    ParamSpec {
        path: "initiative",
        kind: ParamKind::Choice(INITIATIVE),
        default: Lit::Str("key"),
        doc: "Who holds the initiative in round 1: \"key\" or \"pcs\" (the first PC).",
    },
    ParamSpec {
        path: "initiative_tie",
        kind: ParamKind::Choice(TIE_NAMES),
        default: Lit::Str("raises"),
        doc: "Equal successful effects: more raises used (\"raises\") or the greater edge score (\"edge\"); then the holder, then the earlier in the acting order.",
    },
];

const WINNERS: [&str; 5] = ["pcs", "key", "pcs_escape", "key_escape", "stalemate"];

fn check_name(v: &ParamValue) -> Result<(), String> {
    match v {
        ParamValue::Str(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            Ok(())
        }
        other => Err(format!("name {other} must be letters, digits, `_` or `-`")),
    }
}

/// One entity from its table, checked against `specs`; `what` names it in
/// messages. Returns the entity and its start edge (0 for K).
fn entity_table(
    v: &ParamValue,
    specs: &'static [ParamSpec],
    what: &str,
    default_name: &str,
) -> Result<(Entity, i64), String> {
    let is_pc = specs.iter().any(|s| s.path == "start_edge");
    let (keys, name, edge) = if is_pc {
        let (keys, pc): (EntityKeys, PcKeys) = read_entity_table(v, specs, what)?;
        let name = match pc.name {
            Some(v) => {
                check_name(&v).map_err(|e| format!("{what}: `name`: {e}"))?;
                v.to_string()
            }
            None => default_name.to_string(),
        };
        (keys, name, pc.start_edge)
    } else {
        let (keys, _): (EntityKeys, IgnoredAny) = read_entity_table(v, specs, what)?;
        (keys, default_name.to_string(), 0)
    };
    let policy = policy_of(&keys.policy, "policy")
        .map_err(|e| format!("{what}: `{}`: {}", e.key, e.message))?
        .unwrap_or_else(|| shorthand_policy(true, true, 0));
    Ok((entity(&keys, &name, policy), edge))
}

/// The keys a PC's table has beside its entity's ([`PC_EXTRA`]).
#[derive(serde::Deserialize)]
struct PcKeys {
    #[serde(default)]
    name: Option<ParamValue>,
    start_edge: i64,
}

/// The PCs of a `pcs` value, with their start edges.
fn parse_pcs(v: &ParamValue) -> Result<Vec<(Entity, i64)>, String> {
    let ParamValue::List(items) = v else {
        return Err(format!(
            "must be a list of PC tables, not {}",
            v.type_name()
        ));
    };
    if items.is_empty() || items.len() > MAX_PCS {
        return Err(format!("{} PCs; a scene has 1..={MAX_PCS}", items.len()));
    }
    let mut pcs: Vec<(Entity, i64)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let pc = entity_table(
            item,
            &PC_PARAMS,
            &format!("PC {}", i + 1),
            &format!("pc{}", i + 1),
        )?;
        if pcs.iter().any(|(e, _)| e.name == pc.0.name) || pc.0.name == "key" {
            return Err(format!("PC {}: the name \"{}\" is taken", i + 1, pc.0.name));
        }
        pcs.push(pc);
    }
    Ok(pcs)
}

/// The parameters of `gateway.ensemble`, one field per path of
/// [`PARAMS`]; the PCs' and K's tables are read by [`entity_table`].
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnsembleParams {
    #[serde(default)]
    pub pcs: Option<ParamValue>,
    #[serde(default)]
    pub key: Option<ParamValue>,
    pub ladder: i64,
    pub round_cap: u32,
    pub initiative: FirstHolder,
    pub initiative_tie: Tie,
}

/// The scene a set of scenario values describes.
pub fn drama_from(p: &EnsembleParams) -> Result<Drama, ParamError> {
    let pcs = match &p.pcs {
        Some(v) => parse_pcs(v).map_err(|e| ParamError::new("pcs", e))?,
        None => {
            return Err(ParamError::new(
                "pcs",
                format!("is missing; it is {PCS_EXPECTS}"),
            ));
        }
    };
    let empty = ParamValue::Table(vec![]);
    let key = entity_table(
        p.key.as_ref().unwrap_or(&empty),
        &KEY_PARAMS,
        "the key entity",
        "key",
    )
    .map_err(|e| ParamError::new("key", e))?
    .0;
    let mut entities = vec![key];
    let mut start_edges = vec![0];
    for (e, edge) in pcs {
        entities.push(e);
        start_edges.push(edge);
    }
    Ok(Drama {
        entities,
        ladder: p.ladder,
        start_edges,
        round_cap: p.round_cap,
        start: match p.initiative {
            FirstHolder::Pcs => Start::Holder(1),
            FirstHolder::Key => Start::Holder(KEY),
        },
        tie: p.initiative_tie,
    })
}

/// A checked many-on-one scene.
pub struct Ensemble {
    pub rounds: SceneRounds,
    picks: Vec<Pick>,
}

impl Ensemble {
    pub fn new(drama: Drama) -> Ensemble {
        let n = drama.entities.len() - 1;
        let mut picks = vec![
            Pick::Field(F_WINNER),
            Pick::Field(F_ROUNDS),
            Pick::Escaped,
            Pick::Field(F_LADDER),
        ];
        picks.extend((1..=n).map(|i| Pick::Field(f_edge(i))));
        Ensemble {
            rounds: SceneRounds::new(drama),
            picks,
        }
    }

    /// Exact marginals for up to [`MAX_EXACT_PCS`] PCs within the state
    /// limit.
    pub fn exact(&self) -> Option<Marginals> {
        if self.rounds.pcs() > MAX_EXACT_PCS {
            return None;
        }
        self.rounds.exact().map(|m| project(&m, &self.picks))
    }

    fn fields(&self, o: &Outcome, out: &mut Vec<i64>) {
        out.clear();
        out.extend(self.picks.iter().map(|&p| pick(o, p)));
    }
}

/// Build the scene a set of scenario values describes.
pub fn ensemble_from(values: &ParamMap) -> Result<Ensemble, ParamError> {
    EnsembleMechanic.trial(values)
}

/// The schema for PCs called `names` (`<pc>` in the documented one).
fn schema(names: &[String]) -> Schema {
    let prob = |field, pred| MetricKind::Prob { field, pred };
    let mut fields = vec![
        FieldSpec::new(
            "winner",
            FieldKind::Category(WINNERS.to_vec()),
            "How the scene ended: a PC's Climax (pcs), K's Climax (key), an escape by a PC or by K, or a stalemate at the round cap.",
        ),
        FieldSpec::new("rounds", FieldKind::Int, "Rounds played."),
        FieldSpec::new("escaped", FieldKind::Bool, "Either side escaped."),
        FieldSpec::new(
            "final_ladder",
            FieldKind::Int,
            "The climax ladder at the end.",
        ),
    ];
    fields.extend(names.iter().map(|n| {
        FieldSpec::new(
            format!("{n}.edge"),
            FieldKind::Int,
            "The PC's final edge over K, from the PC's side.",
        )
    }));
    Schema {
        fields,
        metrics: vec![
            MetricSpec::new(
                "p_pcs_win",
                prob(0, Pred::Eq(PCS_CLIMAX)),
                "Probability a PC brings the scene to its climax.",
            ),
            MetricSpec::new(
                "p_key_wins",
                prob(0, Pred::Eq(KEY_CLIMAX)),
                "Probability K brings the scene to its climax.",
            ),
            MetricSpec::new(
                "p_escape",
                prob(2, Pred::Eq(1)),
                "Probability either side escapes.",
            ),
            MetricSpec::new(
                "mean_rounds",
                MetricKind::Mean { field: 1 },
                "Mean rounds played.",
            ),
            MetricSpec::new(
                "p_rounds_le_5",
                prob(1, Pred::Le(5)),
                "Probability the scene ends within 5 rounds.",
            ),
            MetricSpec::new(
                "p_rounds_le_10",
                prob(1, Pred::Le(10)),
                "Probability the scene ends within 10 rounds.",
            ),
        ],
    }
}

// ---- The mechanic (the per-mechanic boilerplate lives here only) ----

impl Trial for Ensemble {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut out = Vec::with_capacity(self.picks.len());
        let mut sampler = Chain::new(&self.rounds, FIELDS).sampler();
        for _ in 0..trials {
            self.fields(&sampler.play(rng), &mut out);
            tally.record_outcome(&out);
        }
    }

    fn exact(&self) -> Option<Marginals> {
        Ensemble::exact(self)
    }
}

/// The mechanic `gateway.ensemble` (rules §1.2, many-on-one).
pub struct EnsembleMechanic;

impl Define for EnsembleMechanic {
    type Params = EnsembleParams;
    type Trial = Ensemble;
    const NAME: &'static str = "gateway.ensemble";
    const SUMMARY: &'static str = "Many on one: 1..=6 PCs, each on its own tension line, against one key entity whose single roll is tested against every PC's DT.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    /// As documented: one `<pc>.edge` field standing for every PC's.
    fn schema(&self) -> Schema {
        schema(&["<pc>".to_string()])
    }

    /// The PCs' and the key entity's tables read as the engine's scene.
    fn check(&self, p: &EnsembleParams) -> Result<Vec<Warning>, ParamError> {
        drama_from(p)?;
        Ok(Vec::new())
    }

    fn build(&self, p: EnsembleParams) -> Ensemble {
        // The tables are read again: the check kept nothing, the reading
        // is cheap beside the scene it feeds.
        Ensemble::new(drama_from(&p).expect(CHECKED))
    }

    /// One `<name>.edge` field per PC, named as the scenario names them.
    fn schema_of(&self, p: &EnsembleParams) -> Schema {
        // The names are the tables': read again, without the scene.
        let drama = drama_from(p).expect(CHECKED);
        // The key entity is first in the engine's scene; the PCs follow.
        let names: Vec<String> = drama.entities[1..].iter().map(|e| e.name.clone()).collect();
        schema(&names)
    }
}
