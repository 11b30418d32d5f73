//! Gateway's First Scene (000, Chapter 3 "Example Scenes", the Black Star
//! agents: Martin and Hank at the mastermind's base, Dimitri and Sam at
//! the mining station, Ayo hacking both), rounds 1 to 6, played through
//! `gateway.skirmish` with the fixed-dice harness of `gateway.rs`. Each
//! test starts where the text's round starts (with the entities that
//! round needs), gives each entity a policy that takes the text's
//! action, picks the text's successes and failures, and checks the
//! numbers the text states, or oddsmith's where it differs by design.

use super::gateway::{actor, go, line, names, rule, s, scene, step};
use oddsmith::model::{After, Rounds};
use oddsmith::systems::ParamValue::{self, *};
use oddsmith::systems::gateway::skirmish::PCS_WIN;
use oddsmith::systems::gateway::skirmish::moves::Move;
use oddsmith::systems::testing::table as t;

fn named(name: &str, more: &[(&str, ParamValue)]) -> ParamValue {
    let mut pairs = vec![("name", s(name))];
    pairs.extend(more.iter().cloned());
    t(&pairs)
}

fn policy(rules: Vec<ParamValue>) -> (&'static str, ParamValue) {
    ("policy", List(rules))
}

fn gone(names_: &[&str]) -> (&'static str, ParamValue) {
    ("enters", t(&[("eliminated", names(names_))]))
}

#[test]
fn black_star_round_1_ayo_edges_dimitri_eliminates_the_receptionist_sam_recruits_the_chief() {
    // Round 1 (ladder 6), the station's part. Ayo has a line to the
    // security system at 0; the receptionist is significance 0; the head
    // of security enters once she is gone ("the receptionist calls the
    // head of security"), and Sam recruits her.
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named("ayo", &[policy(vec![rule(&["edge"], 2, &[])])]),
                named(
                    "dimitri",
                    &[policy(vec![rule(&["manoeuvre", "eliminate"], 0, &[])])],
                ),
                named(
                    "sam",
                    &[policy(vec![rule(
                        &["recruit"],
                        0,
                        &[("entity", s("chief"))],
                    )])],
                ),
            ]),
        ),
        ("key", named("mastermind", &[("in_play", Bool(false))])),
        (
            "minors",
            List(vec![
                named(
                    "chief",
                    &[
                        ("lead", s("sam")),
                        ("recruit", Bool(true)),
                        ("in_play", Bool(false)),
                        gone(&["receptionist"]),
                    ],
                ),
                named("receptionist", &[("significance", Int(0))]),
                named(
                    "security",
                    &[("significance", Int(4)), ("passive", Bool(true))],
                ),
            ]),
        ),
        ("lines", List(vec![line("ayo", "security", 0)])),
        ("ladder", Int(6)),
    ]);
    let r = &m.rounds;
    let (ayo, dimitri, sam, chief, receptionist, security) = (0, 1, 2, 3, 5, 6);
    // "Ayo raises the action twice and is successful, gaining a +3 edge
    // bonus over the security system" (the first PC holds the initiative
    // while the key entity is out of play).
    let s0 = r.start();
    assert_eq!(actor(r, 1, &s0), ayo);
    assert_eq!(r.turn(1, &s0).paid(), 2);
    let s1 = go(step(r, 1, &s0, 1 << security));
    assert_eq!(r.edge(&s1, ayo, security), 3);
    // "Nigel wants to combine a Manoeuvre and an Eliminate action in one.
    // As the receptionist is only significance 0 it only requires one
    // raise": the combination's raise.
    assert_eq!(actor(r, 1, &s1), dimitri);
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.targets, t1.paid()), (1 << receptionist, 1));
    let s2 = go(step(r, 1, &s1, 1 << receptionist));
    assert!(!s2.is_alive(receptionist));
    // "This brings a new entity, the head of security, into play."
    assert_eq!(s2.entered(chief), 1);
    // Her own action (the text's Manoeuvre at her terminal) fails here;
    // she is on the agents' side from the start (the model has no side
    // changes), so her entrance opens no line to Sam or Dimitri.
    assert_eq!(actor(r, 1, &s2), chief);
    let s3 = go(step(r, 1, &s2, 0));
    // "He is using a recruit action effect … the chief becomes Sam's
    // passenger."
    assert_eq!(actor(r, 1, &s3), sam);
    assert_eq!(r.turn(1, &s3).targets, 1 << chief);
    let s4 = go(step(r, 1, &s3, 1 << chief));
    assert!(s4.is_aboard(chief));
}

#[test]
fn black_star_round_2_differs_ayo_eliminates_with_a_raise_but_dimitri_has_no_line_to_set_up() {
    // Round 2 (ladder 5). "The security system is significance 4, so Ayo
    // needs a raise to be able to eliminate it" at +3: the examples'
    // reading, eliminate_shortfall = "raises". Dimitri's Set-up "gives
    // Sam a free raise", rolled against the terrorist, who is not in
    // play: the model's Set-up needs a line, and Dimitri has none.
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named("ayo", &[policy(vec![rule(&["eliminate"], 0, &[])])]),
                named(
                    "dimitri",
                    &[policy(vec![rule(&["setup"], 0, &[("to", s("sam"))])])],
                ),
                named("sam", &[]),
            ]),
        ),
        ("key", named("mastermind", &[("in_play", Bool(false))])),
        (
            "minors",
            List(vec![named(
                "security",
                &[("significance", Int(4)), ("passive", Bool(true))],
            )]),
        ),
        ("lines", List(vec![line("ayo", "security", 3)])),
        ("eliminate_shortfall", s("raises")),
        ("ladder", Int(5)),
    ]);
    let r = &m.rounds;
    let (ayo, dimitri, security) = (0, 1, 4);
    let s0 = r.start();
    assert_eq!(actor(r, 2, &s0), ayo);
    assert_eq!(r.turn(2, &s0).paid(), 1);
    let s1 = go(step(r, 2, &s0, 1 << security));
    assert!(!s1.is_alive(security));
    // With the security system gone Dimitri faces nobody in play: no
    // Set-up is allowed; he lets the round pass.
    assert_eq!(actor(r, 2, &s1), dimitri);
    assert!(!r.turn(2, &s1).act.moves.has(Move::Setup));
}

#[test]
fn black_star_round_3_differs_sam_searches_the_terrorist_with_four_raises_of_his_own() {
    // Round 3 (ladder 4). Martin holds the initiative. Ayo's Eliminate of
    // the firewall "costs him three raises" (edge 0, significance 3, the
    // raises reading) and fails; Martin "only goes for a single raise …
    // and increases his edge bonus to +3"; Sam searches the terrorist
    // (significance 6: five raises). The text pays them all with free
    // raises ("five in total"); in the model Dimitri's Set-ups need a
    // line he lacks, so only the chief's Aid Another reaches Sam, and he
    // pays four raises himself.
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named("martin", &[policy(vec![rule(&["edge"], 1, &[])])]),
                named("ayo", &[policy(vec![rule(&["eliminate"], 0, &[])])]),
                named(
                    "sam",
                    &[
                        // A Military background of 4: the test of a
                        // search at +8 can succeed.
                        ("background", Int(4)),
                        policy(vec![rule(&["search"], 0, &[("entity", s("terrorist"))])]),
                    ],
                ),
            ]),
        ),
        ("key", named("mastermind", &[("in_play", Bool(false))])),
        (
            "minors",
            List(vec![
                named(
                    "chief",
                    &[("lead", s("sam")), policy(vec![rule(&["aid"], 0, &[])])],
                ),
                named(
                    "firewall",
                    &[("significance", Int(3)), ("passive", Bool(true))],
                ),
                named("defences", &[("significance", Int(3))]),
                named(
                    "terrorist",
                    &[("significance", Int(6)), ("in_play", Bool(false))],
                ),
            ]),
        ),
        (
            "lines",
            List(vec![
                line("ayo", "firewall", 0),
                line("martin", "defences", 1),
            ]),
        ),
        ("eliminate_shortfall", s("raises")),
        ("initiative", s("martin")),
        ("ladder", Int(4)),
    ]);
    let r = &m.rounds;
    let (martin, ayo, sam, chief, firewall, defences, terrorist) = (0, 1, 2, 3, 5, 6, 7);
    let s0 = r.start();
    assert_eq!(actor(r, 3, &s0), martin);
    assert_eq!(r.turn(3, &s0).paid(), 1);
    let s1 = go(step(r, 3, &s0, 1 << defences));
    assert_eq!(r.edge(&s1, martin, defences), 3);
    assert_eq!(actor(r, 3, &s1), ayo);
    let t1 = r.turn(3, &s1);
    assert_eq!((t1.targets, t1.paid()), (1 << firewall, 3));
    let s2 = go(step(r, 3, &s1, 0));
    assert!(s2.is_alive(firewall));
    // "The chief chooses to aid Sam": one free raise.
    assert_eq!(actor(r, 3, &s2), chief);
    let s3 = go(step(r, 3, &s2, 0));
    assert_eq!(s3.free(sam), 1);
    let t3 = r.turn(3, &s3);
    assert_eq!((t3.targets, t3.paid()), (1 << terrorist, 4));
    let s4 = go(step(r, 3, &s3, 1 << terrorist));
    // "He succeeds and the terrorist is brought into play."
    assert_eq!(s4.entered(terrorist), 3);
}

#[test]
fn black_star_round_4_differs_the_mastermind_and_his_squad_enter_and_edge_by_two() {
    // Round 4 (ladder 3). Martin eliminates the defences at +3
    // (significance 3); "Having completely removed all his security the
    // mastermind is now brought into play along with a squad of five
    // guards (scale 2 mooks)". The guards' Aid Another gives him two free
    // raises (squad_aid = "scale": one per two guards; the text: "His
    // free raises will give him a +3 edge bonus"); his Surprise with an
    // Edge costs the combination's raise, so the Edge moves 2, not 3.
    // The text then has the mastermind's edge over Hank, whom Hank's
    // three raises shift back by four steps (the text: to +1 from −3;
    // here to +2 from −2).
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named("martin", &[policy(vec![rule(&["eliminate"], 0, &[])])]),
                named(
                    "hank",
                    &[
                        ("order", names(&["martin", "mastermind", "hank"])),
                        // "As an expert gunfighter, Hank has a high bonus".
                        ("background", Int(3)),
                        ("equipment", Int(2)),
                        policy(vec![rule(&["edge"], 3, &[])]),
                    ],
                ),
            ]),
        ),
        (
            "key",
            named(
                "mastermind",
                &[
                    ("in_play", Bool(false)),
                    gone(&["defences"]),
                    policy(vec![rule(&["surprise", "edge"], 0, &[])]),
                ],
            ),
        ),
        (
            "minors",
            List(vec![
                named(
                    "guards",
                    &[
                        ("lead", s("mastermind")),
                        ("squad", Int(5)),
                        ("scale", Int(2)),
                        ("significance", Int(0)),
                        ("in_play", Bool(false)),
                        gone(&["defences"]),
                        policy(vec![rule(&["aid"], 0, &[])]),
                    ],
                ),
                named("defences", &[("significance", Int(3))]),
            ]),
        ),
        (
            "lines",
            List(vec![
                line("martin", "defences", 3),
                line("hank", "defences", 1),
            ]),
        ),
        ("initiative", s("hank")),
        ("ladder", Int(3)),
    ]);
    let r = &m.rounds;
    let (martin, hank, mastermind, guards, defences) = (0, 1, 2, 3, 4);
    let s0 = r.start();
    assert_eq!(actor(r, 4, &s0), martin);
    assert_eq!(r.turn(4, &s0).paid(), 0);
    let s1 = go(step(r, 4, &s0, 1 << defences));
    assert_eq!((s1.entered(mastermind), s1.entered(guards)), (4, 4));
    assert_eq!(s1.troop(guards), 5);
    // "His guards surround them as aid another actions."
    assert_eq!(actor(r, 4, &s1), guards);
    let s2 = go(step(r, 4, &s1, 0));
    assert_eq!(s2.free(mastermind), 2);
    // "As a surprise action he establishes tension lines with both player
    // characters … This is an edge action targeting both Hank and
    // Martin": no raise paid, two steps.
    assert_eq!(actor(r, 4, &s2), mastermind);
    let t2 = r.turn(4, &s2);
    assert_eq!(
        (t2.targets, t2.paid(), t2.steps()),
        (1 << martin | 1 << hank, 0, 2)
    );
    let s3 = go(step(r, 4, &s2, 1 << hank));
    assert_eq!(r.edge(&s3, mastermind, hank), 2);
    assert_eq!(r.edge(&s3, mastermind, martin), 0);
    // "He decides to take three raises on the roll to regain the
    // advantage": four steps.
    assert_eq!(actor(r, 4, &s3), hank);
    assert_eq!(r.turn(4, &s3).paid(), 3);
    let s4 = go(step(r, 4, &s3, 1 << mastermind));
    assert_eq!(r.edge(&s4, hank, mastermind), 2);
}

#[test]
fn black_star_round_5_differs_martin_takes_out_three_guards_and_the_trigger_costs_one_raise() {
    // Round 5 (ladder 2). "He risks a couple of raises to take out three
    // guards, and succeeds"; "giving the mastermind a single free raise
    // from the two remaining guards"; the mastermind fails; "Hank …
    // taking a couple of extra raises, succeeds, increasing his edge
    // score to four"; Dimitri searches the trigger (significance 2) "with
    // two raises": the Search rule asks one.
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named(
                    "martin",
                    &[policy(vec![rule(
                        &["eliminate"],
                        2,
                        &[("target", s("minor"))],
                    )])],
                ),
                named(
                    "hank",
                    &[
                        ("order", names(&["martin", "mastermind", "hank", "dimitri"])),
                        policy(vec![rule(&["edge"], 2, &[])]),
                    ],
                ),
                named(
                    "dimitri",
                    &[policy(vec![rule(
                        &["search"],
                        0,
                        &[("entity", s("trigger"))],
                    )])],
                ),
            ]),
        ),
        (
            "key",
            named("mastermind", &[policy(vec![rule(&["edge"], 1, &[])])]),
        ),
        (
            "minors",
            List(vec![
                named(
                    "guards",
                    &[
                        ("lead", s("mastermind")),
                        ("squad", Int(5)),
                        ("scale", Int(2)),
                        ("significance", Int(0)),
                        policy(vec![rule(&["aid"], 0, &[])]),
                    ],
                ),
                named(
                    "trigger",
                    &[
                        ("side", s("pcs")),
                        ("significance", Int(2)),
                        ("in_play", Bool(false)),
                        ("passive", Bool(true)),
                    ],
                ),
            ]),
        ),
        (
            "lines",
            List(vec![
                line("martin", "mastermind", 0),
                line("hank", "mastermind", 1),
            ]),
        ),
        ("initiative", s("hank")),
        ("ladder", Int(2)),
    ]);
    let r = &m.rounds;
    // The trigger zone is the agents' to keep (a ticking bomb's trigger
    // faces its countdown entity): an ally's Search finds it.
    let (martin, hank, dimitri, trigger, mastermind, guards) = (0, 1, 2, 3, 4, 5);
    let s0 = r.start();
    assert_eq!(actor(r, 5, &s0), martin);
    let t0 = r.turn(5, &s0);
    assert_eq!((t0.targets, t0.paid()), (1 << guards, 2));
    let s1 = go(step(r, 5, &s0, 1 << guards));
    assert_eq!(s1.troop(guards), 2);
    assert_eq!(actor(r, 5, &s1), guards);
    let s2 = go(step(r, 5, &s1, 0));
    assert_eq!(s2.free(mastermind), 1);
    // "His roll is poor though and both Hank and Martin beat his score."
    assert_eq!(actor(r, 5, &s2), mastermind);
    let s3 = go(step(r, 5, &s2, 0));
    assert_eq!(r.edge(&s3, hank, mastermind), 1);
    assert_eq!(actor(r, 5, &s3), hank);
    let s4 = go(step(r, 5, &s3, 1 << mastermind));
    assert_eq!(r.edge(&s4, hank, mastermind), 4);
    // The Search: one raise (significance 2), not the text's two.
    assert_eq!(actor(r, 5, &s4), dimitri);
    let t4 = r.turn(5, &s4);
    assert_eq!((t4.targets, t4.paid()), (1 << trigger, 1));
    let s5 = go(step(r, 5, &s4, 1 << trigger));
    assert_eq!(s5.entered(trigger), 5);
}

#[test]
fn black_star_round_6_hank_and_sam_climax_both_sub_scenes_and_the_split_scene_ends() {
    // Round 6 (ladder 1), a split scene: the base (Martin and Hank against
    // the mastermind and his two guards) and the station (Ayo and Sam,
    // with the chief aboard and the trigger zone Dimitri found, against
    // the terrorist, the countdown of the ticking bomb). Ayo's Set-up with two raises
    // gives Sam two free raises (setup_free = "per-raise"; the model's
    // Set-up needs a line: Ayo's to the terrorist at 0); Martin's Set-up
    // "just goes for a single raise … giving Hank a free raise". Hank's
    // conscience (a GM entity made up on the spot) is not played.
    let m = scene(vec![
        (
            "pcs",
            List(vec![
                named(
                    "ayo",
                    &[policy(vec![rule(&["setup"], 1, &[("to", s("sam"))])])],
                ),
                named(
                    "martin",
                    &[policy(vec![rule(&["setup"], 0, &[("to", s("hank"))])])],
                ),
                named(
                    "hank",
                    &[
                        ("order", names(&["ayo", "martin", "hank", "sam"])),
                        policy(vec![rule(&["climax", "edge"], 0, &[])]),
                    ],
                ),
                named("sam", &[policy(vec![rule(&["climax", "edge"], 2, &[])])]),
            ]),
        ),
        ("key", named("mastermind", &[])),
        (
            "minors",
            List(vec![
                named(
                    "chief",
                    &[("lead", s("sam")), policy(vec![rule(&["aid"], 0, &[])])],
                ),
                named(
                    "guards",
                    &[
                        ("lead", s("mastermind")),
                        ("squad", Int(2)),
                        ("scale", Int(2)),
                        ("significance", Int(0)),
                        policy(vec![rule(&["aid"], 0, &[])]),
                    ],
                ),
                named("terrorist", &[("significance", Int(6))]),
                named(
                    "trigger",
                    &[
                        ("side", s("pcs")),
                        ("significance", Int(2)),
                        ("passive", Bool(true)),
                    ],
                ),
            ]),
        ),
        (
            "split",
            List(vec![
                t(&[
                    ("key", s("mastermind")),
                    ("entities", names(&["martin", "hank"])),
                    ("name", s("base")),
                ]),
                t(&[
                    ("key", s("terrorist")),
                    ("entities", names(&["ayo", "sam", "trigger"])),
                    ("name", s("station")),
                ]),
            ]),
        ),
        (
            "ticking_bomb",
            t(&[
                ("countdown", names(&["terrorist"])),
                ("trigger", names(&["trigger"])),
            ]),
        ),
        (
            "lines",
            List(vec![
                line("ayo", "terrorist", 0),
                line("martin", "mastermind", 0),
                line("hank", "mastermind", 4),
                line("sam", "terrorist", 2),
            ]),
        ),
        ("setup_free", s("per-raise")),
        ("initiative", s("hank")),
        ("ladder", Int(1)),
    ]);
    let r = &m.rounds;
    // PCs, their allies (the chief, the trigger zone), then the GM's.
    let (ayo, martin, hank, sam, chief, mastermind, terrorist) = (0, 1, 2, 3, 4, 6, 8);
    let s0 = r.start();
    // "He performs a set up action with two raises, enabling him to give
    // Sam two free raises."
    assert_eq!(actor(r, 6, &s0), ayo);
    assert_eq!(r.turn(6, &s0).paid(), 2);
    let s1 = go(step(r, 6, &s0, 1 << terrorist));
    assert_eq!(s1.free(sam), 2);
    assert_eq!(actor(r, 6, &s1), martin);
    assert_eq!(r.turn(6, &s1).paid(), 1);
    let s2 = go(step(r, 6, &s1, 1 << mastermind));
    assert_eq!(s2.free(hank), 1);
    // "a climax action, combined with an edge action, using the free
    // raise from Martin to increase the edge bonus to five": a line to
    // the mastermind alone (his guards ride with him), no raise paid.
    assert_eq!(actor(r, 6, &s2), hank);
    let t2 = r.turn(6, &s2);
    assert!(t2.act.moves.has(Move::Climax));
    assert_eq!((t2.targets, t2.paid()), (1 << mastermind, 0));
    // "He now has to wait to see whether Sam's action will also be
    // successful": the scene goes on, the mastermind loses his action.
    let s3 = go(step(r, 6, &s2, 1 << mastermind));
    assert_eq!(r.edge(&s3, hank, mastermind), 5);
    assert_eq!(s3.climaxed(), 0b01);
    // "The security chief performs an aid another to give Sam a free
    // edge."
    assert_eq!(actor(r, 6, &s3), chief);
    let s4 = go(step(r, 6, &s3, 0));
    assert_eq!(s4.free(sam), 3);
    // "Richard needs three extra raises … he has two from Ayo's set up
    // and one from the security chief's aid another so he doesn't need
    // to take any further raises himself."
    assert_eq!(actor(r, 6, &s4), sam);
    let t4 = r.turn(6, &s4);
    assert_eq!((t4.targets, t4.paid()), (1 << terrorist, 0));
    // "With both climax effects competed the scene climaxes."
    match step(r, 6, &s4, 1 << terrorist) {
        After::End(o) => assert_eq!(o[0], PCS_WIN),
        other => panic!("the scene went on: {other:?}"),
    }
}
