//! `gateway.skirmish`: the keys that describe a skirmish, its outcome
//! fields and metrics, and the `Mechanic`/`Model` boilerplate.

use super::cast::{
    GM, Kind, MAX_ENTITIES, MAX_SIDE, Member, PCS, PressAccelerate, SetupFree, Shortfall, Skirmish,
    TieRule, Variants,
};
use super::engine::SkirmishRounds;
use super::moves::{POLICY_EXPECTS, Policy, default_policy, parse_policy};
use super::state::*;
use crate::dice::DiceRng;
use crate::model::{Marginals, play};
use crate::sim::Tally;
use crate::systems::gateway::challenge::{Relevance, TRAIT_NAMES};
use crate::systems::gateway::scene::entity::{
    AID_NAMES, MAX_ESSENCE, MAX_PASSENGERS, ORDER_NAMES, SPEND_NAMES, concat_params, entity,
    table_entries,
};
use crate::systems::gateway::scene::{Tie, shorthand_policy};
use crate::systems::{
    Args, FieldKind, FieldSpec, Lit, Mechanic, MetricKind, MetricSpec, Model, ParamError,
    ParamKind, ParamMap, ParamSpec, ParamValue, Pred, Schema,
};

const ENTITY: [ParamSpec; 11] = entity_params!("", "the entity");

const NAME: ParamSpec = ParamSpec {
    path: "name",
    kind: ParamKind::Custom {
        expects: "a name of letters, digits, `_` or `-`",
    },
    default: Lit::Absent,
    doc: "The entity's name, in field names, lines, orders and `to` (default pc1, pc2, …; key; minor1, …).",
};
const ORDER: ParamSpec = ParamSpec {
    path: "order",
    kind: ParamKind::Custom {
        expects: "a list of entity names",
    },
    default: Lit::Absent,
    doc: "The acting order it sets when it holds the initiative, itself included (names left out act after, in scene order); default: itself first (or last, by initiative_order), then the others in scene order.",
};
const SIGNIFICANCE: ParamSpec = ParamSpec {
    path: "significance",
    kind: ParamKind::Int { min: 0, max: 6 },
    default: Lit::Int(1),
    doc: "Significance 0..=6: an opponent eliminates a minor entity when its edge over it is at least this (the key entity's default is 6).",
};
const COUNT: ParamSpec = ParamSpec {
    path: "count",
    kind: ParamKind::Int { min: 1, max: 6 },
    default: Lit::Int(1),
    doc: "A group of this many alike entities, named name1, name2, …",
};
const SIDE: ParamSpec = ParamSpec {
    path: "side",
    kind: ParamKind::Choice(&["gm", "pcs"]),
    default: Lit::Str("gm"),
    doc: "Whose side a minor entity is on: \"gm\" (henchmen, guards) or \"pcs\" (an ally, a witness).",
};

const HENCHMEN: [ParamSpec; 11] = entity_params!("henchmen.", "each henchman");
const HENCHMEN_GROUP: [ParamSpec; 2] = [
    ParamSpec {
        path: "henchmen.count",
        kind: ParamKind::Int { min: 0, max: 5 },
        default: Lit::Int(0),
        doc: "A group of alike minor GM entities, named h1, h2, … after the `minors` (a flat key, so a sweep can vary it).",
    },
    ParamSpec {
        path: "henchmen.significance",
        kind: ParamKind::Int { min: 0, max: 6 },
        default: Lit::Int(1),
        doc: "Each henchman's significance.",
    },
];

static PC_PARAMS: [ParamSpec; 13] = concat_params(&[&ENTITY, &[NAME, ORDER]]);
static KEY_PARAMS: [ParamSpec; 14] = concat_params(&[&ENTITY, &[NAME, ORDER, SIGNIFICANCE]]);
static MINOR_PARAMS: [ParamSpec; 16] =
    concat_params(&[&ENTITY, &[NAME, ORDER, SIGNIFICANCE, COUNT, SIDE]]);

const TIES: &[&str] = &["raises", "edge", "holder"];
const SETUPS: &[&str] = &["one", "per-raise"];
const PRESSES: &[&str] = &["cancel", "later-wins"];
const SHORTFALLS: &[&str] = &["none", "raises"];

static SCENE: [ParamSpec; 12] = [
    ParamSpec {
        path: "pcs",
        kind: ParamKind::Custom {
            expects: "a list of 1..=6 PC tables { name, trait, background, background_relevance, specialisation, equipment, essence, essence_policy, passengers, aid, initiative_order, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "The PCs (required): key entities, removed only by a Climax.",
    },
    ParamSpec {
        path: "key",
        kind: ParamKind::Custom {
            expects: "a table { name, significance, trait, background, …, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "The GM's key entity (default: named key, a full trait, the default policy).",
    },
    ParamSpec {
        path: "minors",
        kind: ParamKind::Custom {
            expects: "a list of minor entity tables { name, significance, count, side, trait, background, …, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "Minor entities (henchmen, guards, witnesses), each eliminated by an opponent whose edge over it reaches its significance; a side has at most 6 entities.",
    },
    ParamSpec {
        path: "lines",
        kind: ParamKind::Custom {
            expects: "a list of tables { between = [\"<name>\", \"<name>\"], edge = n } (two opposed entities; edge from the first's side)",
        },
        default: Lit::Absent,
        doc: "Tension lines open in round 1. Default: the one line of a two-entity scene at edge 0; none with more than two entities (the text's advice).",
    },
    ParamSpec {
        path: "ladder",
        kind: ParamKind::Int { min: 0, max: 50 },
        default: Lit::Int(10),
        doc: "Starting score on the climax ladder.",
    },
    ParamSpec {
        path: "round_cap",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: Lit::Int(100),
        doc: "Rounds after which the scene ends as a stalemate.",
    },
    ParamSpec {
        path: "initiative",
        kind: ParamKind::Custom {
            expects: "an entity name",
        },
        default: Lit::Absent,
        doc: "Who holds the initiative in round 1 (default: the key entity).",
    },
    ParamSpec {
        path: "initiative_tie",
        kind: ParamKind::Choice(TIES),
        default: Lit::Str("raises"),
        doc: "Equal successful effects: more raises used, then the holder (\"raises\"); the greater edge score, a side behind scoring 0, then the holder (\"edge\", the side bar); the holder, then more raises (\"holder\", the main text's sentence order). A Set-up's giver tied with its receiver loses to it first.",
    },
    ParamSpec {
        path: "setup_free",
        kind: ParamKind::Choice(SETUPS),
        default: Lit::Str("one"),
        doc: "Free raises a successful Set-up gives: \"one\", or \"per-raise\" (one plus each raise chosen; handing them over costs a raise of its own).",
    },
    ParamSpec {
        path: "press_accelerate",
        kind: ParamKind::Choice(PRESSES),
        default: Lit::Str("cancel"),
        doc: "A Press and an Accelerate in one round: both cancel (\"cancel\"), or the later counts and the earlier is cancelled (\"later-wins\").",
    },
    ParamSpec {
        path: "eliminate_shortfall",
        kind: ParamKind::Choice(SHORTFALLS),
        default: Lit::Str("none"),
        doc: "An Eliminate needs an edge over its target of at least its significance (\"none\"), or takes one raise per point short (\"raises\", as the examples play it).",
    },
    ParamSpec {
        path: "pc_policy",
        kind: ParamKind::Custom {
            expects: POLICY_EXPECTS,
        },
        default: Lit::Absent,
        doc: "The policy of every PC whose table sets none (a rule handing a Set-up `to` a PC is skipped by that PC itself); default: the default policy.",
    },
];

static PARAMS: [ParamSpec; 25] = concat_params(&[&SCENE, &HENCHMEN_GROUP, &HENCHMEN]);

fn check_name(v: &ParamValue) -> Result<String, String> {
    match v {
        ParamValue::Str(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            Ok(s.clone())
        }
        other => Err(format!("name {other} must be letters, digits, `_` or `-`")),
    }
}

/// One entity read from its table, before names are resolved.
struct Raw {
    member: Member,
    policy: Policy,
    order: Option<Vec<String>>,
    count: i64,
}

fn raw(
    v: &ParamValue,
    specs: &'static [ParamSpec],
    what: &str,
    default_name: &str,
    kind: Kind,
    fallback: &Policy,
) -> Result<Raw, String> {
    let mut map = ParamMap::new();
    for (k, x) in table_entries(v, what)? {
        map.set(k.clone(), x.clone());
    }
    let allowed = || specs.iter().map(|s| s.path).collect::<Vec<_>>().join(", ");
    let say = |e: ParamError| {
        if specs.iter().any(|s| s.path == e.key) {
            format!("{what}: `{}`: {}", e.key, e.message)
        } else {
            format!("{what}: unknown key `{}`; allowed: {}", e.key, allowed())
        }
    };
    let args = Args::new(specs, &map).map_err(say)?;
    let name = match args.value("name") {
        Some(v) => check_name(&v).map_err(|e| format!("{what}: `name`: {e}"))?,
        None => default_name.to_string(),
    };
    let policy = match args.value("policy") {
        Some(v) => parse_policy(&v).map_err(|e| format!("{what}: `policy`: {e}"))?,
        None => fallback.clone(),
    };
    let order = match args.value("order") {
        None => None,
        Some(ParamValue::List(items)) => Some(
            items
                .iter()
                .map(|x| check_name(x).map_err(|e| format!("{what}: `order`: {e}")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(other) => {
            return Err(format!(
                "{what}: `order` must be a list of entity names, not {}",
                other.type_name()
            ));
        }
    };
    let has = |k: &str| specs.iter().any(|s| s.path == k);
    let significance = if has("significance") {
        args.int("significance").map_err(say)?
    } else {
        6
    };
    let significance = if kind == Kind::Key && !args.is_set("significance") {
        6
    } else {
        significance
    };
    let side = if has("side") {
        match args.value("side") {
            Some(ParamValue::Str(s)) if s == "pcs" => PCS,
            _ => GM,
        }
    } else if kind == Kind::Pc {
        PCS
    } else {
        GM
    };
    let count = if has("count") {
        args.int("count").map_err(say)?
    } else {
        1
    };
    // The scene's entity keys, with a placeholder scene policy (the
    // skirmish policy is kept beside it).
    let e = entity(&args, "", &name, shorthand_policy(true, true, 0)).map_err(say)?;
    Ok(Raw {
        member: Member {
            entity: e,
            kind,
            side,
            significance: significance as u8,
            policy: Vec::new(),
            order: None,
            group: false,
        },
        policy,
        order,
        count,
    })
}

fn list<'a>(v: &'a ParamValue, what: &str) -> Result<&'a [ParamValue], String> {
    match v {
        ParamValue::List(items) => Ok(items),
        other => Err(format!(
            "must be a list of {what}, not {}",
            other.type_name()
        )),
    }
}

/// The skirmish a set of scenario values describes.
pub fn skirmish_from_args(args: &Args) -> Result<Skirmish, ParamError> {
    fn err(k: &'static str) -> impl Fn(String) -> ParamError {
        move |e| ParamError::new(k, e)
    }
    let pcs_v = args
        .value("pcs")
        .ok_or_else(|| ParamError::new("pcs", "is missing; it is a list of 1..=6 PC tables"))?;
    let pc_policy = match args.value("pc_policy") {
        Some(v) => parse_policy(&v).map_err(err("pc_policy"))?,
        None => default_policy(),
    };
    let mut raws: Vec<Raw> = Vec::new();
    let items = list(&pcs_v, "PC tables").map_err(err("pcs"))?;
    if items.is_empty() || items.len() > MAX_SIDE {
        return Err(ParamError::new(
            "pcs",
            format!("{} PCs; a skirmish has 1..={MAX_SIDE}", items.len()),
        ));
    }
    for (k, item) in items.iter().enumerate() {
        raws.push(
            raw(
                item,
                &PC_PARAMS,
                &format!("PC {}", k + 1),
                &format!("pc{}", k + 1),
                Kind::Pc,
                &pc_policy,
            )
            .map_err(err("pcs"))?,
        );
    }
    let key_v = args.value("key").unwrap_or(ParamValue::Table(vec![]));
    let key = raw(
        &key_v,
        &KEY_PARAMS,
        "the key entity",
        "key",
        Kind::Key,
        &default_policy(),
    )
    .map_err(err("key"))?;
    let mut minors: Vec<Raw> = Vec::new();
    if let Some(v) = args.value("minors") {
        for (k, item) in list(&v, "minor entity tables")
            .map_err(err("minors"))?
            .iter()
            .enumerate()
        {
            let r = raw(
                item,
                &MINOR_PARAMS,
                &format!("minor entity {}", k + 1),
                &format!("minor{}", k + 1),
                Kind::Minor,
                &default_policy(),
            )
            .map_err(err("minors"))?;
            if r.count == 1 {
                minors.push(r);
            } else {
                for c in 1..=r.count {
                    let mut m = r.member.clone();
                    m.entity.name = format!("{}{c}", r.member.name());
                    minors.push(Raw {
                        member: m,
                        policy: r.policy.clone(),
                        order: r.order.clone(),
                        count: 1,
                    });
                }
            }
        }
    }
    let henchman_policy = match args.value("henchmen.policy") {
        Some(v) => parse_policy(&v).map_err(err("henchmen.policy"))?,
        None => default_policy(),
    };
    for c in 1..=args.int("henchmen.count")? {
        let e = entity(
            args,
            "henchmen.",
            &format!("h{c}"),
            shorthand_policy(true, true, 0),
        )?;
        minors.push(Raw {
            member: Member {
                entity: e,
                kind: Kind::Minor,
                side: GM,
                significance: args.int("henchmen.significance")? as u8,
                policy: Vec::new(),
                order: None,
                group: true,
            },
            policy: henchman_policy.clone(),
            order: None,
            count: 1,
        });
    }
    // Index order: PCs, their minor allies, the key entity, the GM's
    // minor entities.
    let (allies, henchmen): (Vec<Raw>, Vec<Raw>) =
        minors.into_iter().partition(|r| r.member.side == PCS);
    raws.extend(allies);
    raws.push(key);
    raws.extend(henchmen);
    for side in [PCS, GM] {
        let n = raws.iter().filter(|r| r.member.side == side).count();
        if n > MAX_SIDE {
            return Err(ParamError::new(
                "minors",
                format!(
                    "{n} entities on the {} side (groups counted); a side has at most {MAX_SIDE}",
                    if side == PCS { "PCs'" } else { "GM's" }
                ),
            ));
        }
    }
    debug_assert!(raws.len() <= MAX_ENTITIES);
    let names: Vec<String> = raws.iter().map(|r| r.member.name().to_string()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(ParamError::new(
                "minors",
                format!("the name \"{n}\" is taken twice; names must differ"),
            ));
        }
    }
    let index = |name: &str, key: &str| {
        names.iter().position(|n| n == name).ok_or_else(|| {
            ParamError::new(
                key,
                format!(
                    "\"{name}\" is not an entity of the scene; allowed: {}",
                    names.join(", ")
                ),
            )
        })
    };
    let mut members = Vec::new();
    for r in &raws {
        let mut m = r.member.clone();
        let key = match m.kind {
            Kind::Pc => "pcs",
            Kind::Key => "key",
            Kind::Minor => "minors",
        };
        for rule in &r.policy.rules {
            let to = match &rule.choice.to {
                None => None,
                Some(a) => Some(index(a, key)?),
            };
            m.policy.push((rule.clone(), to));
        }
        if let Some(o) = &r.order {
            let mut out = Vec::new();
            for n in o {
                let i = index(n, key)?;
                if out.contains(&i) {
                    return Err(ParamError::new(key, format!("`order` names \"{n}\" twice")));
                }
                out.push(i);
            }
            let rest: Vec<usize> = (0..names.len()).filter(|i| !out.contains(i)).collect();
            out.extend(rest);
            m.order = Some(out);
        }
        members.push(m);
    }
    let side_of = |i: usize| members[i].side;
    let mut lines = Vec::new();
    match args.value("lines") {
        None => {
            if members.len() == 2 {
                lines.push((0, 1, 0));
            }
        }
        Some(v) => {
            for item in list(&v, "line tables").map_err(err("lines"))? {
                let entries = table_entries(item, "a line").map_err(err("lines"))?;
                let mut between = None;
                let mut edge = 0;
                for (k, x) in entries {
                    match (k.as_str(), x) {
                        ("between", ParamValue::List(two)) if two.len() == 2 => {
                            let a = check_name(&two[0]).map_err(err("lines"))?;
                            let b = check_name(&two[1]).map_err(err("lines"))?;
                            between = Some((index(&a, "lines")?, index(&b, "lines")?));
                        }
                        ("edge", ParamValue::Int(e)) if (-50..=50).contains(e) => edge = *e,
                        _ => {
                            return Err(ParamError::new(
                                "lines",
                                format!(
                                    "a line has `between = [\"<name>\", \"<name>\"]` and `edge` = -50..=50; `{k}` = {x} is not allowed"
                                ),
                            ));
                        }
                    }
                }
                let Some((a, b)) = between else {
                    return Err(ParamError::new("lines", "a line needs `between`"));
                };
                if side_of(a) == side_of(b) {
                    return Err(ParamError::new(
                        "lines",
                        format!(
                            "\"{}\" and \"{}\" are on one side; a tension line joins opponents",
                            names[a], names[b]
                        ),
                    ));
                }
                if lines
                    .iter()
                    .any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
                {
                    return Err(ParamError::new(
                        "lines",
                        format!("the line {} – {} is given twice", names[a], names[b]),
                    ));
                }
                lines.push((a, b, edge));
            }
        }
    }
    let holder = match args.value("initiative") {
        None => raws
            .iter()
            .position(|r| r.member.kind == Kind::Key)
            .expect("key"),
        Some(v) => {
            let n = check_name(&v).map_err(err("initiative"))?;
            index(&n, "initiative")?
        }
    };
    let tie = match args.value("initiative_tie") {
        Some(ParamValue::Str(s)) if s == "edge" => TieRule::Scene(Tie::Edge),
        Some(ParamValue::Str(s)) if s == "holder" => TieRule::Holder,
        _ => TieRule::Scene(Tie::Raises),
    };
    let setup_free = match args.value("setup_free") {
        Some(ParamValue::Str(s)) if s == "per-raise" => SetupFree::PerRaise,
        _ => SetupFree::One,
    };
    let press_accelerate = match args.value("press_accelerate") {
        Some(ParamValue::Str(s)) if s == "later-wins" => PressAccelerate::LaterWins,
        _ => PressAccelerate::Cancel,
    };
    let eliminate = match args.value("eliminate_shortfall") {
        Some(ParamValue::Str(s)) if s == "raises" => Shortfall::Raises,
        _ => Shortfall::None,
    };
    Ok(Skirmish {
        members,
        ladder: args.int("ladder")?,
        lines,
        round_cap: args.int("round_cap")? as u32,
        holder,
        variants: Variants {
            tie,
            setup_free,
            press_accelerate,
            eliminate,
        },
    })
}

/// One field of the mechanic's outcome, read off the engine's.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Field(usize),
    /// 1 when the scene ended in an escape (either side's).
    Escaped,
    /// How many of these entities (bit i) are still in the scene.
    Survivors(u16),
}

fn pick(o: &[i64], p: Pick) -> i64 {
    match p {
        Pick::Field(f) => o[f],
        Pick::Escaped => i64::from(o[F_WINNER] == PCS_ESCAPE || o[F_WINNER] == GM_ESCAPE),
        Pick::Survivors(mask) => (0..MAX_ENTITIES)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| o[f_survived(i)])
            .sum(),
    }
}

/// A checked skirmish: what the solver and the sampler run on.
pub struct SkirmishModel {
    pub rounds: SkirmishRounds,
    picks: Vec<Pick>,
    schema: Schema,
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
        let mut pcs = Vec::new();
        let mut minors = Vec::new();
        for (i, m) in sk.members.iter().enumerate() {
            if m.kind == Kind::Pc {
                picks.push(Pick::Field(f_edge(i)));
                pcs.push(m.name().to_string());
            }
        }
        for (i, m) in sk.members.iter().enumerate() {
            if m.kind == Kind::Minor && !m.group {
                picks.push(Pick::Field(f_survived(i)));
                minors.push(m.name().to_string());
            }
        }
        SkirmishModel {
            rounds: SkirmishRounds::new(sk),
            picks,
            schema: schema(&pcs, &minors),
        }
    }

    /// Exact marginals within the state limit.
    pub fn exact(&self) -> Option<Marginals> {
        let m = self.rounds.exact()?;
        let joint = m.joint().expect("the chain gives whole outcomes");
        let mut out = Marginals::new(self.picks.len());
        let mut row = Vec::with_capacity(self.picks.len());
        for (o, &q) in joint {
            row.clear();
            row.extend(self.picks.iter().map(|&p| pick(o, p)));
            out.add_outcome(&row, q);
        }
        Some(out)
    }

    /// One scene's fields.
    pub fn play(&self, rng: &mut DiceRng) -> Vec<i64> {
        let o = play(&self.rounds, rng);
        self.picks.iter().map(|&p| pick(&o, p)).collect()
    }
}

/// Build the skirmish a set of scenario values describes.
pub fn skirmish_from(values: &ParamMap) -> Result<SkirmishModel, ParamError> {
    Ok(SkirmishModel::new(skirmish_from_args(&Args::new(
        &PARAMS, values,
    )?)?))
}

const WINNERS: [&str; 5] = ["pcs", "gm", "pcs_escape", "gm_escape", "stalemate"];

/// The fields' indices in the schema.
pub const WINNER: usize = 0;
pub const ROUNDS: usize = 1;
pub const ESCAPED: usize = 2;
pub const LADDER: usize = 3;
pub const PCS_ELIMINATED: usize = 4;
pub const GM_ELIMINATED: usize = 5;
pub const LINES_OPEN: usize = 6;
pub const PCS_SPENT: usize = 7;
pub const GM_SPENT: usize = 8;
pub const FREE_GIVEN: usize = 9;
pub const HENCHMEN_SURVIVORS: usize = 10;
/// The first PC's edge field; minors' `survived` fields follow the PCs'.
pub const FIRST_PC_EDGE: usize = 11;

fn schema(pcs: &[String], minors: &[String]) -> Schema {
    let prob = |field, pred| MetricKind::Prob { field, pred };
    let mut fields = vec![
        FieldSpec::new(
            "winner",
            FieldKind::Category(WINNERS.to_vec()),
            "How the scene ended: a Climax by the PCs' side or the GM's, an escape (Anticlimax) by either, or a stalemate at the round cap.",
        ),
        FieldSpec::new("rounds", FieldKind::Int, "Rounds played."),
        FieldSpec::new("escaped", FieldKind::Bool, "Either side escaped."),
        FieldSpec::new(
            "final_ladder",
            FieldKind::Int,
            "The climax ladder at the end.",
        ),
        FieldSpec::new(
            "pcs.eliminated",
            FieldKind::Int,
            "Entities of the PCs' side eliminated (minor allies; PCs leave only by a Climax).",
        ),
        FieldSpec::new(
            "gm.eliminated",
            FieldKind::Int,
            "Entities of the GM's side eliminated (minor entities; the key entity leaves only by a Climax).",
        ),
        FieldSpec::new(
            "lines_open",
            FieldKind::Int,
            "Tension lines open at the end.",
        ),
        FieldSpec::new(
            "pcs.raises_spent",
            FieldKind::Int,
            "Raises the PCs' side paid (each adding 2 to the DTs; free raises aside).",
        ),
        FieldSpec::new(
            "gm.raises_spent",
            FieldKind::Int,
            "Raises the GM's side paid.",
        ),
        FieldSpec::new(
            "free_raises_given",
            FieldKind::Int,
            "Free raises successful Set-ups gave (kept or handed over).",
        ),
        FieldSpec::new(
            "henchmen.survivors",
            FieldKind::Int,
            "Henchmen of the `henchmen.*` group still in the scene at the end (0 with no group).",
        ),
    ];
    fields.extend(pcs.iter().map(|n| {
        FieldSpec::new(
            format!("{n}.edge"),
            FieldKind::Int,
            "The PC's final edge over the key entity (0 with no line).",
        )
    }));
    fields.extend(minors.iter().map(|n| {
        FieldSpec::new(
            format!("{n}.survived"),
            FieldKind::Bool,
            "The minor entity (of `minors`) was still in the scene at the end.",
        )
    }));
    let mut metrics = vec![
        MetricSpec::new(
            "p_pcs_win",
            prob(WINNER, Pred::Eq(PCS_WIN)),
            "Probability the PCs' side brings the scene to its climax.",
        ),
        MetricSpec::new(
            "p_gm_wins",
            prob(WINNER, Pred::Eq(GM_WIN)),
            "Probability the GM's side brings the scene to its climax.",
        ),
        MetricSpec::new(
            "p_escape",
            prob(ESCAPED, Pred::Eq(1)),
            "Probability either side escapes.",
        ),
        MetricSpec::new(
            "mean_rounds",
            MetricKind::Mean { field: ROUNDS },
            "Mean rounds played.",
        ),
        MetricSpec::new(
            "mean_henchmen_eliminated",
            MetricKind::Mean {
                field: GM_ELIMINATED,
            },
            "Mean minor entities of the GM's side eliminated.",
        ),
        MetricSpec::new(
            "mean_henchmen_survivors",
            MetricKind::Mean {
                field: HENCHMEN_SURVIVORS,
            },
            "Mean henchmen of the `henchmen.*` group left at the end.",
        ),
        MetricSpec::new(
            "mean_pcs_raises_spent",
            MetricKind::Mean { field: PCS_SPENT },
            "Mean raises the PCs' side paid.",
        ),
        MetricSpec::new(
            "mean_free_raises_given",
            MetricKind::Mean { field: FREE_GIVEN },
            "Mean free raises Set-ups gave.",
        ),
    ];
    let first_minor = FIRST_PC_EDGE + pcs.len();
    metrics.extend(minors.iter().enumerate().map(|(k, n)| {
        MetricSpec::new(
            format!("p_{n}_survives"),
            prob(first_minor + k, Pred::Eq(1)),
            "Probability the minor entity is still in the scene at the end.",
        )
    }));
    Schema { fields, metrics }
}

impl Model for SkirmishModel {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let out = self.play(rng);
            tally.record_outcome(&out);
        }
    }

    fn exact(&self) -> Option<Marginals> {
        SkirmishModel::exact(self)
    }
}

/// The mechanic `gateway.skirmish`.
pub struct SkirmishMechanic;

impl Mechanic for SkirmishMechanic {
    fn name(&self) -> &'static str {
        "gateway.skirmish"
    }

    fn summary(&self) -> &'static str {
        "A many-sided drama scene: PCs, a key entity and minor entities (significance 0..=6) on tension lines opened by Manoeuvre and broken by Disengage, minor entities removed by Eliminate, Set-ups handed to allies."
    }

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        schema(&["<pc>".to_string()], &["<minor>".to_string()])
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError> {
        Ok(Box::new(skirmish_from(values)?))
    }
}
