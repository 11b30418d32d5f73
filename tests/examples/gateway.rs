//! Gateway's worked examples (000, Chapter 3 "Dramatic Systems", the
//! second example scene: Tom, Norris and Angelique against Hans Kroe at
//! the Schattengraf's court), played round by round through
//! `gateway.skirmish`. Each test starts where the text's round starts,
//! gives each entity a policy that takes the text's action, picks the
//! text's successes and failures roll by roll, and checks the numbers the
//! text states. What the model does not play (Search, Recruit, the
//! surprise entrance) is said where it falls. The First Scene's rounds
//! 1 and 2 give the passengers' rules: Hank riding with Martin, the
//! security chief with Sam.

use oddsmith::model::{After, Rounds};
use oddsmith::systems::ParamMap;
use oddsmith::systems::ParamValue::{self, *};
use oddsmith::systems::gateway::skirmish::{
    Outcome, PCS_WIN, SkirmishModel, SkirmishRounds, State, skirmish_from,
};
use oddsmith::systems::testing::table as t;

pub(super) fn s(x: &str) -> ParamValue {
    Str(x.into())
}

/// A rule `{ effect, raises, extra keys }`.
pub(super) fn rule(effects: &[&str], raises: i64, extra: &[(&str, ParamValue)]) -> ParamValue {
    let effect = if effects.len() == 1 {
        s(effects[0])
    } else {
        List(effects.iter().map(|e| s(e)).collect())
    };
    let mut pairs = vec![("effect", effect), ("raises", Int(raises))];
    pairs.extend(extra.iter().cloned());
    t(&pairs)
}

pub(super) fn line(a: &str, b: &str, edge: i64) -> ParamValue {
    t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(edge))])
}

pub(super) fn names(ns: &[&str]) -> ParamValue {
    List(ns.iter().map(|n| s(n)).collect())
}

pub(super) fn round_at_least(n: i64) -> (&'static str, ParamValue) {
    ("when", t(&[("round_at_least", Int(n))]))
}

pub(super) fn scene(pairs: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k, v);
    }
    skirmish_from(&m).unwrap()
}

// Entity indices: PCs first, then the PCs' minor allies, the key entity,
// the GM's minor entities.
pub const TOM: usize = 0;
pub const NORRIS: usize = 1;
pub const ANGELIQUE: usize = 2;

/// The next roll in `state` beating exactly `beat`: the state that
/// follows (the round going on or the next one starting), or the end.
pub(super) fn step(
    r: &SkirmishRounds,
    round: usize,
    state: &State,
    beat: u16,
) -> After<State, Outcome> {
    let mut law = Vec::new();
    r.law(round, state, &mut law);
    let (roll, _) = law
        .iter()
        .find(|(roll, q)| roll.beat == beat && *q > 0.0)
        .unwrap_or_else(|| panic!("no roll beating {beat:#b} in round {round}: {law:?}"));
    r.after(round, state, roll)
}

pub(super) fn go(a: After<State, Outcome>) -> State {
    match a {
        After::Roll(s) | After::Round(s) => s,
        After::End(o) => panic!("the scene ended: {o:?}"),
    }
}

/// The actor whose roll comes next.
pub(super) fn actor(r: &SkirmishRounds, round: usize, state: &State) -> usize {
    r.turn(round, state).actor as usize
}

#[test]
fn kroe_round_1_one_roll_against_three_dts_and_norris_takes_the_initiative() {
    // Ch.3, Second Scene, "Setting the scene" and Round 1 (climax ladder
    // 12): lines from Kroe to the three PCs, Kroe +2 on each, Kroe holds
    // the initiative and "chooses to go first, and wants Angelique to go
    // next, followed by Tom and finally Norris".
    let kroe = t(&[
        ("name", s("kroe")),
        ("significance", Int(6)),
        ("order", names(&["kroe", "angelique", "tom", "norris"])),
        ("policy", List(vec![rule(&["edge"], 1, &[])])),
    ]);
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                t(&[
                    ("name", s("tom")),
                    ("policy", List(vec![rule(&["restrict"], 0, &[])])),
                ]),
                t(&[
                    ("name", s("norris")),
                    ("policy", List(vec![rule(&["setup"], 0, &[])])),
                ]),
                t(&[
                    ("name", s("angelique")),
                    ("policy", List(vec![rule(&["edge"], 0, &[])])),
                ]),
            ]),
        ),
        ("key", kroe),
        (
            "lines",
            List(vec![
                line("kroe", "tom", 2),
                line("kroe", "norris", 2),
                line("kroe", "angelique", 2),
            ]),
        ),
        ("ladder", Int(12)),
    ]);
    let r = &m.rounds;
    let kroe = 3;
    let s0 = r.start();
    assert_eq!(actor(r, 1, &s0), kroe);
    // "He treats this as an edge effect against the three PCs and
    // applies one raise": one roll, tested against three DTs, each 2
    // higher for the raise.
    let t0 = r.turn(1, &s0);
    assert_eq!(t0.targets, 0b111);
    assert_eq!(t0.paid(), 1);
    // "Kroe succeeds in increasing his edge bonus to +4 against Tom and
    // Norris, but his edge bonus against Angelique remains at +2."
    let s1 = go(step(r, 1, &s0, 1 << TOM | 1 << NORRIS));
    assert_eq!(r.edge(&s1, kroe, TOM), 4);
    assert_eq!(r.edge(&s1, kroe, NORRIS), 4);
    assert_eq!(r.edge(&s1, kroe, ANGELIQUE), 2);
    // Angelique next: her Edge succeeds, "reducing his edge bonus
    // further to +1 only".
    assert_eq!(actor(r, 1, &s1), ANGELIQUE);
    let s2 = go(step(r, 1, &s1, 1 << kroe));
    assert_eq!(r.edge(&s2, kroe, ANGELIQUE), 1);
    // Tom's Restrict succeeds: the truth-tongue spell moves no number.
    assert_eq!(actor(r, 1, &s2), TOM);
    let s3 = go(step(r, 1, &s2, 1 << kroe));
    assert_eq!(r.edge(&s3, kroe, TOM), 4);
    // Norris's Set-up succeeds. Round 2 (ladder 11): "As Norris
    // successfully completed a Set Up action, he has the initiative",
    // and a free raise waits for his next action.
    assert_eq!(actor(r, 1, &s3), NORRIS);
    let s4 = go(step(r, 1, &s3, 1 << kroe));
    assert_eq!((s4.holder(), s4.ladder(), s4.free(NORRIS)), (NORRIS, 11, 1));
}

/// The cast from Round 6 on: the three PCs, the goblin witness (Tom's
/// passenger: "As the witness is Tom's passenger he will go before Tom"),
/// Kroe and Tom's past (significance 4, "brought into play" by Kroe's
/// Search in Round 5).
fn rounds_6_and_7() -> SkirmishModel {
    let pcs = List(vec![
        t(&[
            ("name", s("tom")),
            (
                "order",
                names(&["norris", "angelique", "past", "witness", "tom", "kroe"]),
            ),
            (
                "policy",
                List(vec![
                    rule(&["edge"], 0, &[round_at_least(7)]),
                    rule(
                        &["disengage", "setup"],
                        0,
                        &[("target", s("minor")), ("to", s("norris"))],
                    ),
                ]),
            ),
        ]),
        t(&[
            ("name", s("norris")),
            (
                "policy",
                List(vec![
                    rule(&["eliminate"], 0, &[round_at_least(7)]),
                    rule(&["manoeuvre", "edge"], 1, &[("target", s("minor"))]),
                ]),
            ),
        ]),
        t(&[
            ("name", s("angelique")),
            (
                "order",
                names(&["norris", "tom", "past", "witness", "kroe", "angelique"]),
            ),
            (
                "policy",
                List(vec![
                    rule(&["block"], 0, &[("when", s("holds-initiative"))]),
                    rule(&["setup"], 0, &[("to", s("tom"))]),
                ]),
            ),
        ]),
    ]);
    let witness = t(&[
        ("name", s("witness")),
        ("lead", s("tom")),
        ("significance", Int(1)),
        ("policy", List(vec![rule(&["setup"], 0, &[])])),
    ]);
    let past = t(&[
        ("name", s("past")),
        ("significance", Int(4)),
        (
            "policy",
            List(vec![rule(&["manoeuvre"], 0, &[]), rule(&["edge"], 0, &[])]),
        ),
    ]);
    scene(vec![
        ("pcs", pcs),
        ("key", t(&[("name", s("kroe"))])),
        ("minors", List(vec![witness, past])),
        (
            "lines",
            List(vec![
                line("tom", "kroe", 2),
                line("norris", "kroe", -4),
                line("angelique", "kroe", 0),
                line("past", "tom", 0),
            ]),
        ),
        ("ladder", Int(7)),
        ("initiative", s("angelique")),
        ("eliminate_shortfall", s("raises")),
    ])
}

#[test]
fn kroe_rounds_6_and_7_disengage_a_handed_set_up_an_eliminate_and_two_free_raises() {
    let m = rounds_6_and_7();
    let r = &m.rounds;
    let (witness, kroe, past) = (3, 4, 5);
    assert!(r.start().is_aboard(witness));
    // Round 6 (climax ladder 7). Angelique holds; she "lets Norris go
    // first, followed by Tom, his past, and finally Kroe", and
    // interrupts Kroe with a Block: declared at the start of the round,
    // so she rolls first. "Angelique succeeds and Kroe's action is
    // blocked."
    let s0 = r.start();
    assert_eq!(actor(r, 6, &s0), ANGELIQUE);
    let s1 = go(step(r, 6, &s0, 1 << kroe));
    // Norris "combines a manoeuvre and edge … takes a further raise …
    // gaining a +2 edge bonus over Tom's past" (two raises: one for the
    // second effect, one chosen).
    assert_eq!(actor(r, 6, &s1), NORRIS);
    assert_eq!(r.turn(6, &s1).paid(), 2);
    let s2 = go(step(r, 6, &s1, 1 << past));
    assert_eq!(r.edge(&s2, NORRIS, past), 2);
    assert_eq!(s2.lines_open(), 5);
    // Tom's passenger acts just before him. "Tom's witness is suffering
    // from the restrictions placed on Tom and cannot act"; here its
    // Set-up fails.
    assert_eq!(actor(r, 6, &s2), witness);
    let s2 = go(step(r, 6, &s2, 0));
    // Tom disengages from his past, combined with a Set-up for Norris
    // (a raise for the second effect, one to hand it over): "the tension
    // line between him and his past is removed".
    assert_eq!(actor(r, 6, &s2), TOM);
    assert_eq!(r.turn(6, &s2).paid(), 2);
    let s3 = go(step(r, 6, &s2, 1 << past));
    assert_eq!(s3.free(NORRIS), 1);
    assert_eq!(s3.lines_open(), 4);
    // The past manoeuvres to re-engage Tom and succeeds ("his past
    // catches up with him once more"): the line comes back.
    assert_eq!(actor(r, 6, &s3), past);
    let s5 = go(step(r, 6, &s3, 1 << TOM));
    assert_eq!(s5.lines_open(), 5);
    // Kroe was blocked. Round 7 (climax ladder 6): "Tom completed a
    // successful set up action, so he wins the initiative."
    assert_eq!((s5.holder(), s5.ladder()), (TOM, 6));
    // Round 7: "Norris first … He needs two raises to meet the
    // requirements, but has one free raise from Tom's earlier set up
    // action" (+2 against significance 4, the "raises" reading): one
    // raise paid, and the past is removed.
    assert_eq!(actor(r, 7, &s5), NORRIS);
    let t7 = r.turn(7, &s5);
    assert_eq!(t7.targets, 1 << past);
    assert_eq!(t7.paid(), 1);
    let s6 = go(step(r, 7, &s5, 1 << past));
    assert!(!s6.is_alive(past));
    // Angelique: "a setup effect and one raise to provide Tom with a
    // free raise".
    assert_eq!(actor(r, 7, &s6), ANGELIQUE);
    assert_eq!(r.turn(7, &s6).paid(), 1);
    let s7 = go(step(r, 7, &s6, 1 << kroe));
    // "Tom chooses to interrupt before Kroe's action and so his witness
    // gets his action first. … The goblin succeeds in providing Tom with
    // a free raise": a passenger's Set-up, with Tom's edge (+2), no raise
    // to hand it over, the free raise going to its lead.
    assert_eq!(actor(r, 7, &s7), witness);
    let tw = r.turn(7, &s7);
    assert_eq!((tw.paid(), tw.need(kroe)), (0, -2));
    let s8 = go(step(r, 7, &s7, 1 << kroe));
    assert_eq!(s8.free(TOM), 2);
    // Tom interrupts before Kroe: "With two free raises Tom succeeds in
    // the Edge action and increases his Edge bonus over Kroe to +5"
    // (+2, three steps: one and one per free raise).
    assert_eq!(actor(r, 7, &s8), TOM);
    let t8 = r.turn(7, &s8);
    assert_eq!((t8.paid(), t8.steps()), (0, 3));
    let s9 = go(step(r, 7, &s8, 1 << kroe));
    assert_eq!(r.edge(&s9, TOM, kroe), 5);
}

/// Rounds 8 and 9: Kroe, Tom (+5 over Kroe), Norris (Kroe +4 over him),
/// Angelique (even), ladder 5, Angelique holding the initiative.
fn rounds_8_and_9() -> SkirmishModel {
    let pcs = List(vec![
        t(&[
            ("name", s("tom")),
            ("trait", s("full")),
            ("background", Int(1)),
            ("essence", Int(1)),
            ("order", names(&["angelique", "norris", "tom", "kroe"])),
            (
                "policy",
                List(vec![
                    rule(&["climax"], 3, &[round_at_least(9)]),
                    rule(&["setup", "accelerate"], 0, &[]),
                ]),
            ),
        ]),
        t(&[
            ("name", s("norris")),
            // Inner Circle background and his knowledge specialisation.
            ("background", Int(3)),
            ("specialisation", Bool(true)),
            (
                "policy",
                List(vec![
                    rule(&["setup"], 0, &[round_at_least(9), ("to", s("tom"))]),
                    rule(&["accelerate"], 0, &[]),
                ]),
            ),
        ]),
        t(&[
            ("name", s("angelique")),
            ("order", names(&["kroe", "norris", "tom", "angelique"])),
            (
                "policy",
                List(vec![
                    rule(&["block"], 0, &[("when", s("holds-initiative"))]),
                    rule(&["setup"], 0, &[("to", s("tom"))]),
                ]),
            ),
        ]),
    ]);
    scene(vec![
        ("pcs", pcs),
        (
            "key",
            t(&[
                ("name", s("kroe")),
                ("trait", s("full")),
                ("background", Int(4)),
            ]),
        ),
        (
            "lines",
            List(vec![
                line("tom", "kroe", 5),
                line("norris", "kroe", -4),
                line("angelique", "kroe", 0),
            ]),
        ),
        ("ladder", Int(5)),
        ("initiative", s("angelique")),
    ])
}

#[test]
fn kroe_round_8_a_combined_set_up_and_accelerate_drops_the_ladder_from_5_to_2() {
    let m = rounds_8_and_9();
    let r = &m.rounds;
    let kroe = 3;
    // Round 8 (climax ladder 5): Angelique blocks Kroe (successfully).
    let s0 = r.start();
    let s1 = go(step(r, 8, &s0, 1 << kroe));
    // Norris's Accelerate succeeds.
    assert_eq!(actor(r, 8, &s1), NORRIS);
    let s2 = go(step(r, 8, &s1, 1 << kroe));
    // Tom "combines a setup action with an accelerate action": one raise
    // for the second effect, and it succeeds.
    assert_eq!(actor(r, 8, &s2), TOM);
    let t2 = r.turn(8, &s2);
    assert_eq!(t2.paid(), 1);
    let s3 = go(step(r, 8, &s2, 1 << kroe));
    // Kroe was blocked, so the round ends. "Round 9 (Climax ladder 2)":
    // 5 less the round's 1 and the two Accelerates' 1 each. "Tom's
    // successful set up action means he wins the initiative."
    assert_eq!((s3.ladder(), s3.holder(), s3.free(TOM)), (2, TOM, 1));
}

#[test]
fn kroe_round_9_the_holders_order_and_the_climax_roll() {
    let m = rounds_8_and_9();
    let r = &m.rounds;
    let kroe = 3;
    let s0 = r.start();
    let s1 = go(step(r, 8, &s0, 1 << kroe));
    let s2 = go(step(r, 8, &s1, 1 << kroe));
    let s3 = go(step(r, 8, &s2, 1 << kroe));
    // Round 9: Tom "decides to set things up for a climax, making Kroe
    // go last, and lets Angelique and Norris go before him": the order
    // Angelique, Norris, Tom, Kroe.
    assert_eq!(actor(r, 9, &s3), ANGELIQUE);
    // Angelique's Set-up, handed to Tom, "manages to beat the GM's roll".
    let s4 = go(step(r, 9, &s3, 1 << kroe));
    assert_eq!(s4.free(TOM), 2);
    // "Norris's action fails to have any effect."
    assert_eq!(actor(r, 9, &s4), NORRIS);
    let s5 = go(step(r, 9, &s4, 0));
    assert_eq!(s5.free(TOM), 2);
    // Tom's Climax: "He has two free raises … He adds the final raise …
    // uses his last point of mental essence … Tom rolls a top dice roll
    // of 7, adding his 1 level in Arcanist and his +5 edge bonus, getting
    // a total of 13 … Kroe has an Arcanist background level of 4 but
    // only gets a top dice roll of 6. He gets 10 in total, even with
    // Tom's raise Top still beats the GM's roll."
    assert_eq!(actor(r, 9, &s5), TOM);
    let t5 = r.turn(9, &s5);
    // Three raises, two of them free: one paid, +2 to Kroe's DT (12).
    assert_eq!(t5.paid(), 1);
    // A full trait (3 dice) and the essence point.
    assert_eq!(t5.dice(), 4);
    // Tom's top die must beat Kroe's by need: 7 + 1 + 5 = 13 against
    // 6 + 4 + 2 = 12 succeeds, so need ≤ 7 − 6 = 1.
    assert_eq!(t5.need(kroe), 0);
    match step(r, 9, &s5, 1 << kroe) {
        After::End(o) => assert_eq!(o[0], PCS_WIN),
        other => panic!("the scene went on: {other:?}"),
    }
}

#[test]
fn black_star_rounds_1_and_2_hanks_aid_the_chiefs_eliminate_and_hanks_disembark() {
    // Ch.3, First Scene (the Black Star agents), the passengers' part of
    // rounds 1 and 2 (ladder 6, 5). Hank rides in Martin's rover; the
    // security chief is Sam's passenger (recruited in round 1, which is
    // not modelled: she rides with him from the start), and Sam has "a
    // tension line to the door to the mines entity, with an existing edge
    // score of +2". The mastermind stands in as the key entity (in the
    // text he enters later); every GM roll here fails.
    let pcs = List(vec![
        t(&[
            ("name", s("martin")),
            ("order", names(&["martin", "sam"])),
            (
                "policy",
                List(vec![
                    rule(&["edge"], 2, &[round_at_least(2)]),
                    rule(&["manoeuvre", "edge"], 0, &[("target", s("minor"))]),
                ]),
            ),
        ]),
        t(&[
            ("name", s("sam")),
            ("policy", List(vec![rule(&["setup"], 0, &[])])),
        ]),
    ]);
    let rider = |name: &str, lead: &str, first: ParamValue| {
        t(&[
            ("name", s(name)),
            ("lead", s(lead)),
            ("policy", List(vec![first, rule(&["aid"], 0, &[])])),
        ])
    };
    let m = scene(vec![
        ("pcs", pcs),
        ("key", t(&[("name", s("mastermind"))])),
        (
            "minors",
            List(vec![
                rider(
                    "hank",
                    "martin",
                    rule(&["disembark"], 0, &[round_at_least(2)]),
                ),
                rider(
                    "chief",
                    "sam",
                    rule(&["eliminate"], 0, &[round_at_least(2)]),
                ),
                t(&[("name", s("defences")), ("significance", Int(3))]),
                t(&[("name", s("door")), ("significance", Int(2))]),
            ]),
        ),
        ("lines", List(vec![line("sam", "door", 2)])),
        ("initiative", s("martin")),
        ("ladder", Int(6)),
    ]);
    let r = &m.rounds;
    let (martin, sam, hank, chief, defences, door) = (0, 1, 2, 3, 5, 6);
    // Round 1. "As the passenger Hank's action is resolved first. Hank
    // decides to scan the base from distance, choosing an Aid Another
    // effect": no roll, Martin's free raise.
    let s0 = r.start();
    assert_eq!(actor(r, 1, &s0), hank);
    let mut law = Vec::new();
    r.law(1, &s0, &mut law);
    assert_eq!((law.len(), law[0].1), (1, 1.0));
    let s1 = go(r.after(1, &s0, &law[0].0));
    assert_eq!(s1.free(martin), 1);
    // "Given the bonus from Hank, Mark chooses to use one raise on the
    // challenge and succeeds: the tension line is established with a +1
    // edge bonus to Martin": a Manoeuvre with an Edge (the raise), paid
    // by Hank's free raise.
    assert_eq!(actor(r, 1, &s1), martin);
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.targets, t1.paid()), (1 << defences, 0));
    let s2 = go(step(r, 1, &s1, 1 << defences));
    assert_eq!(r.edge(&s2, martin, defences), 1);
    // The rest of round 1 fails (the chief aids Sam, who is not yet
    // her lead in the text; its free raise goes on his failed Set-up).
    let mut st = s2;
    while st.ladder() == 6 {
        st = go(step(r, 1, &st, 0));
    }
    assert_eq!(st.holder(), martin);
    // Round 2. "Hank must disembark. Doing so requires no roll, and
    // leaves Hank with a +1 edge bonus over the physical defences."
    assert_eq!(actor(r, 2, &st), hank);
    let mut law = Vec::new();
    r.law(2, &st, &mut law);
    assert_eq!(law.len(), 1);
    let s3 = go(r.after(2, &st, &law[0].0));
    assert!(!s3.is_aboard(hank));
    assert_eq!(r.edge(&s3, hank, defences), 1);
    // "Martin … tries to add two raises to the roll. However … he fails
    // the challenge. The edge bonus remains at +1."
    assert_eq!(actor(r, 2, &s3), martin);
    assert_eq!(r.turn(2, &s3).paid(), 2);
    let s4 = go(step(r, 2, &s3, 0));
    assert_eq!(r.edge(&s4, martin, defences), 1);
    // "The security chief is Sam's passenger and so acts before Sam …
    // As the edge score is already +2 she can eliminate the door without
    // any raises (it's only significance 2)."
    assert_eq!(actor(r, 2, &s4), chief);
    let t4 = r.turn(2, &s4);
    assert_eq!((t4.targets, t4.paid(), t4.need(door)), (1 << door, 0, -2));
    let s5 = go(step(r, 2, &s4, 1 << door));
    assert!(!s5.is_alive(door));
    // Sam's Set-up fails, and the GM's rolls.
    assert_eq!(actor(r, 2, &s5), sam);
    let mut st = s5;
    while st.ladder() == 5 {
        st = go(step(r, 2, &st, 0));
    }
    // Round 3: the text gives Martin the initiative ("Martin's Edge
    // effect beating Hank's Disembark"), but Martin's Edge failed in
    // round 2, and a failed action never wins it; the chief's Eliminate,
    // a passenger's, "will never affect initiative". Hank's Disembark
    // takes it.
    assert_eq!(st.holder(), hank);
}
