//! A skirmish made ready to play: the tables a decision and a roll read
//! many times a scene (line slots, opponents, dice, pools, acting orders,
//! each entity's policy compiled into plain actions), built once from the
//! [`Skirmish`].

use super::super::cast::{BlockRule, EssenceRule, Kind, MAX_SIDE, PCS, Skirmish};
use super::super::moves::{Aim, Move, Moves, Play, default_policy};
use super::{
    Act, MAX_DICE, N, NONE, Order, SHAPE_LINES, SHAPE_MANOEUVRE, SHAPE_OTHER, SkirmishRounds, W,
    decide,
};
use crate::systems::gateway::scene::Spend;
use crate::systems::gateway::scene::rules::When;

/// A policy's `Play` as the action it takes, its ally (`to`) and entity
/// resolved to indices.
fn act_of(p: &Play, to: Option<usize>, ent: Option<usize>) -> Act {
    Act {
        moves: p.moves,
        raises: p.raises,
        aim: p.aim,
        to: to.map_or(NONE, |a| a as u8),
        ent: ent.map_or(NONE, |a| a as u8),
        cat: p.category.map_or(NONE, |c| c as u8),
        extra: (p.moves.len().saturating_sub(1)
            + u32::from(to.is_some() && p.moves.has(Move::Setup))) as u8,
        refuse: decide::refusals(p.moves),
        no_roll: p.moves.no_roll(),
        shape: shape_of(p),
    }
}

/// Which short cut of [`super::Eng::aims`] a play takes, if any.
fn shape_of(p: &Play) -> u8 {
    let lines = Moves::of(&[Move::Edge, Move::Setup, Move::Restrict]);
    let all = p.aim == Aim::All;
    if all && p.moves.any(lines) && p.moves.iter().all(|m| lines.has(m)) {
        SHAPE_LINES
    } else if all && p.moves == Moves::of(&[Move::Manoeuvre]) {
        SHAPE_MANOEUVRE
    } else {
        SHAPE_OTHER
    }
}

impl SkirmishRounds {
    pub fn new(sk: Skirmish) -> SkirmishRounds {
        let n = sk.members.len();
        assert!((2..=N).contains(&n));
        let (pmf, cdf) = crate::systems::gateway::highest::highest_d8(MAX_DICE);
        let mut side = [0u8; W];
        let mut sidx = [0u8; N];
        let mut count = [0u8; 2];
        let mut base = [[0; W]; W];
        let mut aid = [0; N];
        let mut lead = [NONE; W];
        let mut riders = [0u16; N];
        for (i, m) in sk.members.iter().enumerate() {
            if let Some(l) = m.lead {
                lead[i] = l as u8;
                riders[l] |= 1 << i;
            }
            side[i] = m.side;
            sidx[i] = count[m.side as usize];
            count[m.side as usize] += 1;
            aid[i] = m.entity.aid_raises();
            for (j, t) in sk.members.iter().enumerate() {
                base[i][j] = m.entity.pool.bonus - t.entity.guard() - 2 * m.entity.forced as i64;
            }
        }
        assert!(count.iter().all(|&c| (1..=MAX_SIDE as u8).contains(&c)));
        let mut pairs = [[0u8; W]; W];
        let mut foes = [0u16; W];
        // A PC-side entity's slots are a row (its index × 6 onward), a
        // GM-side entity's a column (every 6th slot from its index).
        let mut slot_shift = [0u8; W];
        let (mut row_ents, mut col_ents) = ([0u16; 64], [0u16; 64]);
        for i in 0..n {
            slot_shift[i] = if side[i] == PCS {
                sidx[i] * MAX_SIDE as u8
            } else {
                sidx[i]
            };
            let by_index = if side[i] == PCS {
                &mut col_ents
            } else {
                &mut row_ents
            };
            for (k, e) in by_index.iter_mut().enumerate() {
                if k >> sidx[i] & 1 == 1 {
                    *e |= 1 << i;
                }
            }
        }
        for i in 0..n {
            for j in 0..n {
                let (p, g) = if side[i] == PCS { (i, j) } else { (j, i) };
                pairs[i][j] = (sidx[p] as usize * MAX_SIDE + sidx[g] as usize) as u8;
                foes[i] |= u16::from(side[j] != side[i]) << j;
            }
        }
        // Passengers act just before their lead ("Passenger actions are
        // always resolved before the lead entity's action"), in scene
        // order among themselves.
        let ride = |o: Vec<u8>| -> Vec<u8> {
            o.iter()
                .filter(|&&x| lead[x as usize] == NONE)
                .flat_map(|&x| {
                    (0..n as u8)
                        .filter(move |&p| riders[x as usize] >> p & 1 == 1)
                        .chain([x])
                })
                .collect()
        };
        // A passive entity never acts: it has no place in any order.
        let passive = |o: Vec<u8>| -> Vec<u8> {
            o.into_iter()
                .filter(|&x| !sk.members[x as usize].passive)
                .collect()
        };
        let orders_by: Vec<[Vec<u8>; 2]> = (0..n)
            .map(|h| {
                let custom = sk.members[h].order.clone();
                let others: Vec<u8> = (0..n).filter(|&i| i != h).map(|i| i as u8).collect();
                let first: Vec<u8> = std::iter::once(h as u8).chain(others.clone()).collect();
                match custom {
                    Some(o) => {
                        let o: Vec<u8> = o.iter().map(|&i| i as u8).collect();
                        let lead = std::iter::once(h as u8)
                            .chain(o.iter().copied().filter(|&i| i as usize != h))
                            .collect();
                        [o, lead]
                    }
                    None if sk.members[h].entity.first => [first.clone(), first],
                    None => {
                        let last = others.into_iter().chain([h as u8]).collect();
                        [last, first]
                    }
                }
                .map(ride)
                .map(passive)
            })
            .collect();
        let mut orders = [[Order::default(); 2]; W];
        for (h, pair) in orders_by.iter().enumerate() {
            for (lead, o) in pair.iter().enumerate() {
                let slot = &mut orders[h][lead];
                slot.ents[..o.len()].copy_from_slice(o);
                slot.len = o.len() as u8;
            }
        }
        let absent = sk
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.absent)
            .fold(0u16, |a, (i, _)| a | 1 << i);
        let entries = sk
            .members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.enters.map(|e| (i as u8, e)))
            .collect();
        // An entrant's default begins with a Surprise on every opponent
        // (only when the scene has one: the rule is never allowed else).
        let surprise = (absent != 0).then(|| Play::new(&[Move::Surprise], 0));
        let fallback: Vec<Act> = surprise
            .into_iter()
            .chain(default_policy().rules.into_iter().map(|r| r.choice))
            .map(|p| act_of(&p, None, None))
            .collect();
        let policies: Vec<Vec<(Option<When>, Act)>> = sk
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                m.policy
                    .iter()
                    // A rule handing its Set-up or Block to itself or to
                    // an opponent is never allowed ([`Eng::aims`]): left
                    // out here, it costs no decision a look (a shared
                    // "feed the leader" policy names the leader's own).
                    .filter(|(_, to, _)| to.is_none_or(|a| a != i && side[a] == side[i]))
                    .map(|(rule, to, ent)| (rule.when, act_of(&rule.choice, *to, *ent)))
                    .collect()
            })
            .collect();
        let mut open_from = [[0u8; 32]; W];
        for (o, p) in open_from.iter_mut().zip(&policies) {
            let rules: Vec<(bool, u8)> = p.iter().map(|(w, a)| (w.is_some(), a.refuse)).collect();
            *o = decide::open_from(&rules);
        }
        let conditional = policies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.iter().any(|(w, _)| w.is_some()))
            .fold(0u16, |a, (i, _)| a | 1 << i);
        let minors = sk
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.kind == Kind::Minor)
            .fold(0u16, |a, (i, _)| a | 1 << i);
        let mut fit = [0u16; 3];
        fit[Aim::All as usize] = u16::MAX;
        fit[Aim::Key as usize] = !minors;
        fit[Aim::Minor as usize] = minors;
        let mut sig = [0i64; W];
        let mut dice = [0u32; W];
        let mut own_pool = [0u8; W];
        let (mut spend_always, mut spend_climax) = (0u16, 0u16);
        for (k, m) in sk.members.iter().enumerate() {
            sig[k] = m.significance as i64;
            dice[k] = m.entity.pool.dice;
            own_pool[k] = match sk.variants.essence {
                EssenceRule::One => 0,
                EssenceRule::Four => m.category as u8,
            };
            match m.entity.spend {
                Spend::Never => {}
                Spend::Climax => spend_climax |= 1 << k,
                Spend::Always => spend_always |= 1 << k,
            }
        }
        let mut reach = [u16::MAX; W];
        let mut sub_of = [0u8; N];
        let subs: Vec<(u8, u16)> = sk.split.iter().map(|b| (b.key as u8, b.members)).collect();
        if !subs.is_empty() {
            for (i, r) in reach.iter_mut().enumerate().take(n) {
                let me = sk.members[i].lead.unwrap_or(i);
                *r = 0;
                for (k, &(_, mask)) in subs.iter().enumerate() {
                    if mask >> me & 1 == 1 {
                        sub_of[i] |= 1 << k;
                        *r |= mask;
                    }
                }
                // Its lead's passengers are in the lead's sub-scenes.
                for (p, m) in sk.members.iter().enumerate() {
                    if m.lead.is_some_and(|l| *r >> l & 1 == 1) {
                        *r |= 1 << p;
                    }
                }
            }
        }
        let all_subs = ((1u16 << subs.len()) - 1) as u8;
        let plain = riders.iter().all(|&r| r == 0)
            && sk.bomb.is_none()
            && subs.is_empty()
            && sk.variants.block != BlockRule::OneEffect;
        let mut r = SkirmishRounds {
            initial: None,
            plain,
            reach,
            subs,
            sub_of,
            all_subs,
            n,
            side,
            pairs,
            foes,
            minors,
            everyone: ((1u32 << n) - 1) as u16,
            pc_side: (0..n)
                .filter(|&i| side[i] == PCS)
                .fold(0u16, |a, i| a | 1 << i),
            slot_shift,
            row_ents,
            col_ents,
            pmf,
            cdf,
            orders,
            base,
            aid,
            lead,
            riders,
            policies,
            open_from,
            conditional,
            fallback_from: decide::open_from(
                &fallback
                    .iter()
                    .map(|a: &Act| (false, a.refuse))
                    .collect::<Vec<_>>(),
            ),
            fallback,
            rider_fallback: [Move::Eliminate, Move::Aid]
                .map(|m| act_of(&Play::new(&[m], 0), None, None))
                .to_vec(),
            fit,
            sig,
            dice,
            own_pool,
            spend_always,
            spend_climax,
            absent,
            entries,
            countdown: sk.bomb.map_or(0, |b| b.countdown),
            trigger: sk.bomb.map_or(0, |b| b.trigger),
            sk,
        };
        r.initial = Some(r.fresh());
        r
    }
}
