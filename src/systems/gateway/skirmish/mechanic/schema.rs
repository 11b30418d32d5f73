//! The outcome fields and metrics of `gateway.skirmish`.

use super::super::state::{GM_WIN, PCS_WIN};
use crate::systems::{FieldKind, FieldSpec, MetricKind, MetricSpec, Pred, Schema};

pub(super) const WINNERS: [&str; 5] = ["pcs", "gm", "pcs_escape", "gm_escape", "stalemate"];

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

/// The schema of a skirmish with these PCs, (ungrouped) minor entities,
/// entities out of play at the start (`entrants`) and, with `bomb`, a
/// ticking bomb, a split scene's sub-scenes (`subs`) and its squads.
/// The fields of entrants, the bomb, sub-scenes and squads come last, so
/// a scene without them has the fields it always had.
pub(super) fn schema(
    pcs: &[String],
    minors: &[String],
    entrants: &[String],
    bomb: bool,
    subs: &[String],
    squads: &[String],
) -> Schema {
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
    for n in entrants {
        let f = fields.len();
        fields.push(FieldSpec::new(
            format!("{n}.entered"),
            FieldKind::Bool,
            "The entity out of play at the start entered the scene (found by a Search, or by its own Surprise entrance).",
        ));
        fields.push(FieldSpec::new(
            format!("{n}.entered_round"),
            FieldKind::Int,
            "The round it entered (0: never).",
        ));
        metrics.push(MetricSpec::new(
            format!("p_{n}_enters"),
            prob(f, Pred::Eq(1)),
            "Probability the entity out of play enters the scene.",
        ));
    }
    if bomb {
        let f = fields.len();
        fields.push(FieldSpec::new(
            "bomb",
            FieldKind::Bool,
            "The ticking bomb went off: a countdown entity's Climax ended the scene.",
        ));
        fields.push(FieldSpec::new(
            "bomb_round",
            FieldKind::Int,
            "The round the bomb went off (0: it did not).",
        ));
        metrics.push(MetricSpec::new(
            "p_bomb",
            prob(f, Pred::Eq(1)),
            "Probability the ticking bomb goes off.",
        ));
    }
    for n in subs {
        let f = fields.len();
        fields.push(FieldSpec::new(
            format!("{n}.climaxed"),
            FieldKind::Bool,
            "A Climax hit the sub-scene of a split scene (in any round; the scene climaxes when one side hits every sub-scene in one round).",
        ));
        metrics.push(MetricSpec::new(
            format!("p_{n}_climaxed"),
            prob(f, Pred::Eq(1)),
            "Probability a Climax hits the sub-scene.",
        ));
    }
    for n in squads {
        let f = fields.len();
        fields.push(FieldSpec::new(
            format!("{n}.members_left"),
            FieldKind::Int,
            "Members of the squad left at the end of the scene (0: eliminated).",
        ));
        metrics.push(MetricSpec::new(
            format!("mean_{n}_members_left"),
            MetricKind::Mean { field: f },
            "Mean members of the squad left at the end of the scene.",
        ));
    }
    Schema { fields, metrics }
}
