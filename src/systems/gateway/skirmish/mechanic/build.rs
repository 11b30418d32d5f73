//! The skirmish a set of scenario values describes: entities in index
//! order, names resolved (policies' `to`, orders, lines), and the
//! variants.

use super::super::cast::{
    Bomb, Entry, GM, Kind, MAX_ENTITIES, MAX_SIDE, Member, PCS, Skirmish, Variants,
};
use super::super::moves::{Move, default_policy, parse_policy};
use super::params::{KEY_PARAMS, MINOR_PARAMS, PC_PARAMS, SkirmishParams};
use super::table::{Raw, check_name, list, raw};
use crate::systems::gateway::scene::entity::{entity, table_entries};
use crate::systems::gateway::scene::shorthand_policy;
use crate::systems::{ParamError, ParamValue};

/// The skirmish a set of scenario values describes.
pub fn skirmish_from_params(p: &SkirmishParams) -> Result<Skirmish, ParamError> {
    fn err(k: &'static str) -> impl Fn(String) -> ParamError {
        move |e| ParamError::new(k, e)
    }
    let pcs_v = p
        .pcs
        .as_ref()
        .ok_or_else(|| ParamError::new("pcs", "is missing; it is a list of 1..=6 PC tables"))?;
    let pc_policy = match &p.pc_policy {
        Some(v) => parse_policy(v).map_err(err("pc_policy"))?,
        None => default_policy(),
    };
    let mut raws: Vec<Raw> = Vec::new();
    let items = list(pcs_v, "PC tables").map_err(err("pcs"))?;
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
    let empty = ParamValue::Table(vec![]);
    let key = raw(
        p.key.as_ref().unwrap_or(&empty),
        &KEY_PARAMS,
        "the key entity",
        "key",
        Kind::Key,
        &default_policy(),
    )
    .map_err(err("key"))?;
    let mut minors: Vec<Raw> = Vec::new();
    if let Some(v) = &p.minors {
        for (k, item) in list(v, "minor entity tables")
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
                        lead: r.lead.clone(),
                        side_set: r.side_set,
                        enters: r.enters.clone(),
                    });
                }
            }
        }
    }
    let henchman_policy = match &p.henchmen_policy {
        Some(v) => parse_policy(v).map_err(err("henchmen.policy"))?,
        None => default_policy(),
    };
    let henchman_lead = match &p.henchmen_lead {
        None => None,
        Some(v) => Some(check_name(v).map_err(err("henchmen.lead"))?),
    };
    let henchman = p.henchman();
    for c in 1..=p.henchmen_count {
        let e = entity(&henchman, &format!("h{c}"), shorthand_policy(true, true, 0));
        minors.push(Raw {
            member: Member {
                entity: e,
                kind: Kind::Minor,
                side: GM,
                significance: p.henchmen_significance as u8,
                policy: Vec::new(),
                order: None,
                group: true,
                lead: None,
                pools: None,
                category: Default::default(),
                absent: false,
                enters: None,
                recruit: false,
                passive: false,
                squad: 0,
                scale: 1,
            },
            policy: henchman_policy.clone(),
            order: None,
            count: 1,
            lead: henchman_lead.clone(),
            side_set: true,
            enters: None,
        });
    }
    // A passenger rides on its lead's side unless it says otherwise.
    let side_by_name = |name: &str| {
        raws.iter()
            .chain([&key])
            .chain(minors.iter())
            .find(|r| r.member.name() == name)
            .map(|r| r.member.side)
    };
    let sides: Vec<Option<u8>> = minors
        .iter()
        .map(|r| r.lead.as_deref().and_then(side_by_name))
        .collect();
    for (r, side) in minors.iter_mut().zip(sides) {
        if let (Some(side), false) = (side, r.side_set) {
            r.member.side = side;
        }
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
        let key = kind_key(m.kind);
        for rule in &r.policy.rules {
            let to = match &rule.choice.to {
                None => None,
                Some(a) => Some(index(a, key)?),
            };
            let ent = match &rule.choice.entity {
                None => None,
                Some(a) => Some(index(a, key)?),
            };
            m.policy.push((rule.clone(), to, ent));
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
        if let Some(l) = &r.lead {
            let key = if m.group { "henchmen.lead" } else { "minors" };
            let li = index(l, key)?;
            let who = m.name().to_string();
            let fail =
                |why: String| Err(ParamError::new(key, format!("`lead` of \"{who}\": {why}")));
            if names[li] == who {
                return fail("an entity cannot be its own passenger".into());
            }
            if raws[li].lead.is_some() {
                return fail(format!(
                    "\"{l}\" is itself a passenger; a lead takes part on its own"
                ));
            }
            if raws[li].member.side != m.side {
                return fail(format!(
                    "\"{l}\" is on the other side; a passenger rides with an ally"
                ));
            }
            if m.entity.passengers > 0 {
                return fail("a passenger has no `passengers` of its own".into());
            }
            m.lead = Some(li);
        }
        members.push(m);
    }
    entity_checks(&raws, &mut members, &names, &index)?;
    let rider = |i: usize| members[i].lead.is_some() && !members[i].recruit;
    let side_of = |i: usize| members[i].side;
    let mut lines = Vec::new();
    match &p.lines {
        None => {
            // Two participants (passengers and entities out of play
            // aside): their one line at 0.
            let takers: Vec<usize> = (0..members.len())
                .filter(|&i| !rider(i) && !members[i].absent)
                .collect();
            if let [a, b] = takers[..]
                && side_of(a) != side_of(b)
            {
                lines.push((a, b, 0));
            }
        }
        Some(v) => {
            for item in list(v, "line tables").map_err(err("lines"))? {
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
                if let Some(p) = [a, b].into_iter().find(|&x| members[x].absent) {
                    return Err(ParamError::new(
                        "lines",
                        format!(
                            "\"{}\" starts out of play (`in_play = false`): it has no line until it enters",
                            names[p]
                        ),
                    ));
                }
                if let Some(p) = [a, b].into_iter().find(|&x| rider(x)) {
                    return Err(ParamError::new(
                        "lines",
                        format!(
                            "\"{}\" is a passenger: it has no lines of its own (it takes its lead's)",
                            names[p]
                        ),
                    ));
                }
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
    let holder = match &p.initiative {
        // The key entity, or the first PC while the key is out of play.
        None => raws
            .iter()
            .position(|r| r.member.kind == Kind::Key && !r.member.absent && !r.member.passive)
            .unwrap_or(0),
        Some(v) => {
            let n = check_name(v).map_err(err("initiative"))?;
            let i = index(&n, "initiative")?;
            if rider(i) {
                return Err(ParamError::new(
                    "initiative",
                    format!("\"{n}\" is a passenger; its initiative is its lead's"),
                ));
            }
            if members[i].absent || members[i].passive {
                return Err(ParamError::new(
                    "initiative",
                    format!(
                        "\"{n}\" is out of play or passive; it cannot hold the initiative in round 1"
                    ),
                ));
            }
            i
        }
    };
    let bomb = match &p.ticking_bomb {
        None => None,
        Some(v) => Some(bomb_of(v, &members, &names, &index)?),
    };
    let split = match &p.split {
        None => Vec::new(),
        Some(v) => super::split::split_of(v, &mut members, &names, &index)?,
    };
    // An entity meets only the entities of its sub-scenes (a recruit is
    // in its lead's): a line across them could never be played.
    let home = |i: usize| members[i].lead.unwrap_or(i);
    if let Some(&(a, b, _)) = lines.iter().find(|&&(a, b, _)| {
        !split.is_empty()
            && !split
                .iter()
                .any(|s| s.members >> home(a) & 1 == 1 && s.members >> home(b) & 1 == 1)
    }) {
        return Err(ParamError::new(
            "lines",
            format!(
                "the line {} – {} joins entities of different sub-scenes; in a split scene an entity meets only the entities of its own (`split`)",
                names[a], names[b]
            ),
        ));
    }
    if p.squad_aid.given && members.iter().all(|m| m.squad == 0) {
        return Err(ParamError::new(
            "squad_aid",
            "says what a squad's Aid Another gives, and no entity is a squad: set `squad` on a minor entity's table, or drop `squad_aid`",
        ));
    }
    Ok(Skirmish {
        bomb,
        split,
        members,
        ladder: p.ladder,
        lines,
        round_cap: p.round_cap,
        holder,
        variants: Variants {
            tie: p.initiative_tie.rule(),
            setup_free: p.setup_free,
            press_accelerate: p.press_accelerate,
            eliminate: p.eliminate_shortfall,
            block: p.block,
            essence: p.essence_rule,
            passenger_setup: p.passenger_setup,
            disembark: p.disembark,
            search_cost: p.search_cost,
            surprise_lines: p.surprise_lines,
            squad_aid: p.squad_aid.value,
        },
    })
}

/// The names of a list value resolved to a mask of entity indices.
fn mask_of(
    v: &ParamValue,
    key: &'static str,
    what: &str,
    index: &dyn Fn(&str, &'static str) -> Result<usize, ParamError>,
) -> Result<u16, ParamError> {
    let items = list(v, what).map_err(|e| ParamError::new(key, e))?;
    let mut mask = 0u16;
    for x in items {
        let n = check_name(x).map_err(|e| ParamError::new(key, e))?;
        mask |= 1 << index(&n, key)?;
    }
    Ok(mask)
}

/// `enters`, `recruit` and the rules' `entity` checked against the scene.
fn entity_checks(
    raws: &[Raw],
    members: &mut [Member],
    names: &[String],
    index: &dyn Fn(&str, &'static str) -> Result<usize, ParamError>,
) -> Result<(), ParamError> {
    for (i, r) in raws.iter().enumerate() {
        let key = kind_key(members[i].kind);
        let who = &names[i];
        if let Some(v) = &r.enters {
            let entries = table_entries(v, "`enters`").map_err(|e| ParamError::new(key, e))?;
            let bad = || {
                ParamError::new(
                    key,
                    format!(
                        "`enters` of \"{who}\" takes one of {{ round = 1.. }}, {{ ladder = 0.. }}, {{ eliminated = [\"<name>\", …] }}"
                    ),
                )
            };
            let [(k, x)] = entries else {
                return Err(bad());
            };
            let e = match (k.as_str(), x) {
                ("round", ParamValue::Int(n)) if (1..=10_000).contains(n) => {
                    Entry::Round(*n as u32)
                }
                ("ladder", ParamValue::Int(n)) if (0..=255).contains(n) => Entry::Ladder(*n as u32),
                ("eliminated", v @ ParamValue::List(_)) => {
                    let mask = mask_of(v, key, "entity names", index)?;
                    if mask == 0 || mask >> i & 1 == 1 {
                        return Err(bad());
                    }
                    Entry::Eliminated(mask)
                }
                _ => return Err(bad()),
            };
            members[i].enters = Some(e);
        }
        if members[i].recruit && members[i].lead.is_none() {
            return Err(ParamError::new(
                key,
                format!("\"{who}\" has `recruit = true` but no `lead`"),
            ));
        }
    }
    for i in 0..members.len() {
        let key = kind_key(members[i].kind);
        for (rule, _, ent) in &members[i].policy {
            let Some(j) = *ent else { continue };
            let m = rule.choice.moves;
            let fail = |why: String| {
                Err(ParamError::new(
                    key,
                    format!(
                        "a rule of \"{}\" names `entity` = \"{}\": {why}",
                        names[i], names[j]
                    ),
                ))
            };
            if m.has(Move::Search) && !members[j].absent {
                return fail(
                    "a Search finds only an entity out of play (`in_play = false`)".into(),
                );
            }
            if m.has(Move::Recruit) && !members[j].recruit {
                return fail(
                    "a Recruit boards only an entity with `recruit = true` (and its `lead`)".into(),
                );
            }
            if m.has(Move::Surprise) && members[j].side == members[i].side {
                return fail("a Surprise opens a line to an opponent".into());
            }
        }
        let surprises = members[i]
            .policy
            .iter()
            .any(|(r, _, _)| r.choice.moves.has(Move::Surprise));
        if surprises && !members[i].absent {
            return Err(ParamError::new(
                key,
                format!(
                    "\"{}\" has a surprise rule but starts in play; only an entity with `in_play = false` may surprise, in the round it enters",
                    names[i]
                ),
            ));
        }
    }
    Ok(())
}

/// `ticking_bomb = { countdown = [...], trigger = [...] }`.
fn bomb_of(
    v: &ParamValue,
    members: &[Member],
    names: &[String],
    index: &dyn Fn(&str, &'static str) -> Result<usize, ParamError>,
) -> Result<Bomb, ParamError> {
    const KEY: &str = "ticking_bomb";
    let mut bomb = Bomb {
        countdown: 0,
        trigger: 0,
    };
    for (k, x) in table_entries(v, "`ticking_bomb`").map_err(|e| ParamError::new(KEY, e))? {
        match k.as_str() {
            "countdown" => bomb.countdown = mask_of(x, KEY, "countdown entity names", index)?,
            "trigger" => bomb.trigger = mask_of(x, KEY, "trigger entity names", index)?,
            other => {
                return Err(ParamError::new(
                    KEY,
                    format!("unknown key `{other}`; allowed: countdown, trigger"),
                ));
            }
        }
    }
    if bomb.countdown == 0 || bomb.trigger == 0 {
        return Err(ParamError::new(
            KEY,
            "needs at least one countdown and one trigger entity",
        ));
    }
    for c in (0..members.len()).filter(|c| bomb.countdown >> c & 1 == 1) {
        for t in (0..members.len()).filter(|t| bomb.trigger >> t & 1 == 1) {
            if members[c].side == members[t].side {
                return Err(ParamError::new(
                    KEY,
                    format!(
                        "countdown \"{}\" and trigger \"{}\" are on one side; the countdown reaches its trigger by a tension line, which joins opponents",
                        names[c], names[t]
                    ),
                ));
            }
        }
    }
    Ok(bomb)
}

/// The scene table an entity of `kind` is given in.
fn kind_key(kind: Kind) -> &'static str {
    match kind {
        Kind::Pc => "pcs",
        Kind::Key => "key",
        Kind::Minor => "minors",
    }
}
