//! Entities out of play, worked by hand on single rolls: a Search pays a
//! raise per point of significance over 1 and brings its target in; an
//! entrant's Surprise opens lines at once (alone, no roll; combined, one
//! raise more) and ranks between Edge and Manoeuvre; the GM's entrance
//! policies (a round, a ladder, every named entity eliminated); Recruit,
//! alone and with a Search, boards the recruit and hands its lines over;
//! and the ticking bomb.

use super::*;

fn line(a: &str, b: &str, e: i64) -> ParamValue {
    t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))])
}

fn model(pairs: Vec<(&str, ParamValue)>) -> SkirmishModel {
    skirmish_from(&map(pairs)).unwrap()
}

/// Tom against Kroe (a line at `edge`), and one more entity.
fn with(
    edge: i64,
    tom: ParamValue,
    third: ParamValue,
    extra: Vec<(&str, ParamValue)>,
) -> SkirmishModel {
    let mut pairs = vec![
        ("pcs", List(vec![t(&[("name", s("tom")), ("policy", tom)])])),
        ("key", t(&[("name", s("kroe"))])),
        ("minors", List(vec![third])),
        ("lines", List(vec![line("tom", "kroe", edge)])),
        ("initiative", s("tom")),
        ("ladder", Int(4)),
    ];
    pairs.extend(extra);
    model(pairs)
}

#[test]
fn a_search_pays_one_raise_per_point_of_significance_over_one() {
    // Tom searches for the witness (significance 4): three raises, each
    // adding 2 to the witness's DT; on success it is in play, entered in
    // round 1, on no line.
    let witness = t(&[
        ("name", s("witness")),
        ("side", s("pcs")),
        ("significance", Int(4)),
        ("in_play", Bool(false)),
    ]);
    let tom = List(vec![rule(&["search"], 0, &[("entity", s("witness"))])]);
    let m = with(0, tom, witness, vec![]);
    let r = &m.rounds;
    let (tom_, witness_, kroe) = (0, 1, 2);
    let s0 = r.start();
    assert!(s0.is_absent(witness_) && !s0.is_alive(witness_));
    let t0 = r.turn(1, &s0);
    assert_eq!(
        (t0.actor as usize, t0.targets, t0.paid()),
        (tom_, 1 << witness_, 3)
    );
    let s1 = go(step(r, 1, &s0, 1 << witness_));
    assert!(s1.is_alive(witness_) && !s1.is_absent(witness_));
    assert_eq!(s1.entered(witness_), 1);
    assert_eq!(s1.lines_open(), 1);
    // Its place in the order (after Tom's) is still to come: it acts in
    // this round, its entry round, and its default is a Surprise on every
    // opponent (no roll): "Tom's Past Entity … performs a surprise action
    // and automatically connects a tension line".
    assert_eq!(r.turn(1, &s1).actor as usize, witness_);
    let mut law = Vec::new();
    r.law(1, &s1, &mut law);
    assert_eq!(law.len(), 1);
    let s2 = go(r.after(1, &s1, &law[0].0));
    assert_eq!(s2.lines_open(), 2);
    // Kroe edges and fails; the witness's Surprise (above Search in the
    // hierarchy) takes the initiative.
    assert_eq!(r.turn(1, &s2).actor as usize, kroe);
    let s3 = go(step(r, 1, &s2, 0));
    assert_eq!(s3.holder(), witness_);
    let _ = tom_;
    // A failed Search leaves it out of play.
    let s1 = go(step(r, 1, &s0, 0));
    assert!(s1.is_absent(witness_));
    // Significance 0 or 1: no raise.
    let witness = t(&[
        ("name", s("witness")),
        ("side", s("pcs")),
        ("significance", Int(1)),
        ("in_play", Bool(false)),
    ]);
    let tom = List(vec![rule(&["search"], 0, &[("entity", s("witness"))])]);
    let m = with(0, tom, witness, vec![]);
    assert_eq!(m.rounds.turn(1, &m.rounds.start()).paid(), 0);
}

#[test]
fn a_surprise_entrance_opens_lines_at_once_and_takes_the_initiative() {
    // The guard enters in round 2 (the GM's policy) and surprises Tom
    // combined with an Edge: one raise for the second effect. Its line
    // opens whatever the roll, and the Surprise, always successful,
    // outranks a Manoeuvre.
    let guard = t(&[
        ("name", s("guard")),
        ("significance", Int(2)),
        ("in_play", Bool(false)),
        ("enters", t(&[("round", Int(2))])),
        ("policy", List(vec![rule(&["surprise", "edge"], 0, &[])])),
    ]);
    let tom = List(vec![rule(&["edge"], 0, &[])]);
    let m = with(0, tom, guard, vec![]);
    let r = &m.rounds;
    let (tom_, kroe, guard_) = (0, 1, 2);
    let s0 = r.start();
    assert!(s0.is_absent(guard_));
    // Round 1: Tom, then Kroe; the guard is not there.
    let s1 = go(step(r, 1, &s0, 0));
    let s2 = go(step(r, 1, &s1, 0));
    assert!(s2.is_alive(guard_));
    assert_eq!(s2.entered(guard_), 2);
    // Round 2: Tom (the holder), Kroe, then the guard's surprise.
    let s3 = go(step(r, 2, &s2, 0));
    let s4 = go(step(r, 2, &s3, 0));
    let t4 = r.turn(2, &s4);
    assert_eq!(
        (t4.actor as usize, t4.targets, t4.paid()),
        (guard_, 1 << tom_, 1)
    );
    // Its roll fails: the line is open at 0 all the same, and the
    // guard's Surprise wins the initiative over nobody's success.
    let s5 = go(step(r, 2, &s4, 0));
    assert_eq!(s5.lines_open(), 2);
    assert_eq!(r.edge(&s5, guard_, tom_), 0);
    assert_eq!(s5.holder(), guard_);
    let _ = kroe;
    // A Surprise alone is no roll.
    let guard = t(&[
        ("name", s("guard")),
        ("in_play", Bool(false)),
        ("enters", t(&[("round", Int(1))])),
        ("policy", List(vec![rule(&["surprise"], 0, &[])])),
    ]);
    let m = with(0, List(vec![rule(&["edge"], 0, &[])]), guard, vec![]);
    let r = &m.rounds;
    let s0 = r.start();
    assert!(s0.is_alive(guard_));
    let s1 = go(step(r, 1, &s0, 0));
    let s2 = go(step(r, 1, &s1, 0));
    let mut law = Vec::new();
    r.law(1, &s2, &mut law);
    assert_eq!(law.len(), 1);
    let s3 = go(r.after(1, &s2, &law[0].0));
    assert_eq!(s3.lines_open(), 2);
}

#[test]
fn entrance_policies_by_ladder_and_by_elimination() {
    // The key enters once its guard is eliminated ("having completely
    // removed all his security the mastermind is now brought into play"):
    // right after the Eliminate, in the same round; while it is out of
    // play, Tom holds the initiative.
    let m = model(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                ("policy", List(vec![rule(&["eliminate"], 0, &[])])),
            ])]),
        ),
        (
            "key",
            t(&[
                ("name", s("boss")),
                ("in_play", Bool(false)),
                ("enters", t(&[("eliminated", List(vec![s("guard")]))])),
            ]),
        ),
        (
            "minors",
            List(vec![t(&[("name", s("guard")), ("significance", Int(1))])]),
        ),
        ("lines", List(vec![line("tom", "guard", 1)])),
    ]);
    let r = &m.rounds;
    let (tom, boss, guard) = (0, 1, 2);
    let s0 = r.start();
    assert_eq!(s0.holder(), tom);
    assert!(s0.is_absent(boss));
    let s1 = go(step(r, 1, &s0, 1 << guard));
    assert!(!s1.is_alive(guard) && s1.is_alive(boss));
    assert_eq!(s1.entered(boss), 1);
    // Its default: a Surprise on Tom, no roll, in this same round.
    assert_eq!(r.turn(1, &s1).actor as usize, boss);
    // By the ladder: from the first round whose ladder is at most 2.
    let guard = t(&[
        ("name", s("guard")),
        ("in_play", Bool(false)),
        ("enters", t(&[("ladder", Int(2))])),
    ]);
    let m = with(0, List(vec![rule(&["edge"], 0, &[])]), guard, vec![]);
    let r = &m.rounds;
    let mut st = r.start();
    let mut round = 1;
    while round < 3 {
        assert!(st.is_absent(2));
        match step(r, round, &st, 0) {
            After::Roll(x) => st = x,
            After::Round(x) => {
                st = x;
                round += 1;
            }
            After::End(o) => panic!("ended: {o:?}"),
        }
    }
    assert_eq!(st.ladder(), 2);
    assert!(st.is_alive(2));
    assert_eq!(st.entered(2), 3);
}

#[test]
fn a_recruit_boards_its_lead_and_hands_over_its_lines() {
    // The chief, on Sam's side with her own line to the door at +2, is
    // recruited by Sam: she rides with him, and Sam has her line at her
    // edge ("Sam gains a tension line to the door … +2").
    let m = model(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("sam")),
                (
                    "policy",
                    List(vec![rule(&["recruit"], 0, &[("entity", s("chief"))])]),
                ),
            ])]),
        ),
        ("key", t(&[("name", s("door")), ("significance", Int(2))])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("chief")),
                ("lead", s("sam")),
                ("recruit", Bool(true)),
            ])]),
        ),
        ("lines", List(vec![line("chief", "door", 2)])),
        ("initiative", s("sam")),
    ]);
    let r = &m.rounds;
    let (sam, chief, door) = (0, 1, 2);
    let s0 = r.start();
    assert!(!s0.is_aboard(chief));
    // A recruit acts just before its lead (as its passenger would): the
    // chief edges the door first, and fails.
    assert_eq!(r.turn(1, &s0).actor as usize, chief);
    let s0 = go(step(r, 1, &s0, 0));
    let t0 = r.turn(1, &s0);
    // The recruit's own DT; no line between allies, so no edge.
    assert_eq!(
        (t0.actor as usize, t0.targets, t0.paid()),
        (sam, 1 << chief, 0)
    );
    let s1 = go(step(r, 1, &s0, 1 << chief));
    assert!(s1.is_aboard(chief));
    assert_eq!(r.edge(&s1, sam, door), 2);
    assert_eq!(s1.lines_open(), 1);
}

#[test]
fn search_and_recruit_combine_for_one_raise_more() {
    // "Tom looks to combine a search action to bring the witness into
    // play, with a recruit action and a set up action": the witness
    // (significance 1: no raise for the Search) costs two raises for the
    // two effects beyond the first; it enters and boards Tom at once, and
    // the Set-up's free raise waits for Tom.
    let witness = t(&[
        ("name", s("witness")),
        ("lead", s("tom")),
        ("recruit", Bool(true)),
        ("in_play", Bool(false)),
    ]);
    let tom = List(vec![rule(
        &["search", "recruit", "setup"],
        0,
        &[("entity", s("witness"))],
    )]);
    let m = with(0, tom, witness, vec![]);
    let r = &m.rounds;
    let (tom_, witness_, kroe) = (0, 1, 2);
    let s0 = r.start();
    let t0 = r.turn(1, &s0);
    assert_eq!((t0.targets, t0.paid()), (1 << witness_ | 1 << kroe, 2));
    let s1 = go(step(r, 1, &s0, 1 << witness_ | 1 << kroe));
    assert!(s1.is_aboard(witness_) && s1.is_alive(witness_));
    assert_eq!((s1.entered(witness_), s1.free(tom_)), (1, 1));
    // The witness is a passenger now: it acts just before Tom.
    let s2 = go(step(r, 1, &s1, 0));
    assert_eq!(r.turn(2, &s2).actor as usize, witness_);
}

#[test]
fn a_ticking_bomb_goes_off_on_a_line_to_the_trigger_alone() {
    // The terrorist (the key) is the countdown; the mine (a passive
    // entity on the PCs' side) the trigger. At ladder 0 with a line to
    // the mine he climaxes, though he has no line to Sam; the bomb and
    // its round are in the outcome.
    let m = model(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("sam")),
                (
                    "policy",
                    List(vec![rule(&["press"], 0, &[]), rule(&["edge"], 0, &[])]),
                ),
            ])]),
        ),
        ("key", t(&[("name", s("terrorist"))])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("mine")),
                ("side", s("pcs")),
                ("passive", Bool(true)),
            ])]),
        ),
        (
            "lines",
            List(vec![
                line("terrorist", "mine", 0),
                line("sam", "terrorist", 0),
            ]),
        ),
        (
            "ticking_bomb",
            t(&[
                ("countdown", List(vec![s("terrorist")])),
                ("trigger", List(vec![s("mine")])),
            ]),
        ),
        ("ladder", Int(0)),
        ("initiative", s("sam")),
    ]);
    let r = &m.rounds;
    let (sam, mine, terrorist) = (0, 1, 2);
    let s0 = r.start();
    // Sam may Press with his line to the countdown entity alone (he has
    // none to the mine, his own side's).
    let t0 = r.turn(1, &s0);
    assert_eq!((t0.actor as usize, t0.targets), (sam, 1 << terrorist));
    let s1 = go(step(r, 1, &s0, 0));
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.actor as usize, t1.targets), (terrorist, 1 << mine));
    match step(r, 1, &s1, 1 << mine) {
        After::End(o) => {
            assert_eq!(o[state::F_WINNER], GM_WIN);
            assert_eq!(o[state::F_BOMB], 1);
        }
        other => panic!("the scene went on: {other:?}"),
    }
    let exact = m.exact().unwrap();
    let names: Vec<String> = mechanic_schema(&m)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let bomb = names.iter().position(|n| n == "bomb").unwrap();
    let p_bomb = p(&exact, bomb, 1);
    let p_gm = p(&exact, WINNER, 1);
    assert!(
        p_bomb > 0.3 && (p_bomb - p_gm).abs() < 1e-12,
        "{p_bomb} {p_gm}"
    );
}

fn mechanic_schema(m: &SkirmishModel) -> crate::systems::Schema {
    super::super::mechanic::schema_of_model(m)
}

#[test]
fn bad_entrants_are_refused_with_the_key_named() {
    let base = |minor: ParamValue, tom: Option<ParamValue>, extra: Vec<(&str, ParamValue)>| {
        let mut pc = vec![("name", s("tom"))];
        if let Some(p) = tom {
            pc.push(("policy", p));
        }
        let mut pairs = vec![("pcs", List(vec![t(&pc)])), ("minors", List(vec![minor]))];
        pairs.extend(extra);
        skirmish_from(&map(pairs))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let present = t(&[("name", s("w"))]);
    let e = base(
        present.clone(),
        Some(List(vec![rule(&["search"], 0, &[("entity", s("w"))])])),
        vec![],
    );
    assert!(e.contains("out of play"), "{e}");
    let e = base(
        present.clone(),
        Some(List(vec![rule(&["recruit"], 0, &[("entity", s("w"))])])),
        vec![],
    );
    assert!(e.contains("recruit = true"), "{e}");
    let e = base(
        t(&[("name", s("w")), ("enters", t(&[("round", Int(2))]))]),
        None,
        vec![],
    );
    assert!(e.contains("in_play = false"), "{e}");
    let e = base(
        t(&[("name", s("w")), ("in_play", Bool(false))]),
        None,
        vec![("lines", List(vec![line("tom", "w", 0)]))],
    );
    assert!(e.contains("out of play"), "{e}");
    let e = base(
        present.clone(),
        None,
        vec![(
            "ticking_bomb",
            t(&[
                ("countdown", List(vec![s("key")])),
                ("trigger", List(vec![s("w")])),
            ]),
        )],
    );
    assert!(e.contains("one side"), "{e}");
    let e = base(present, Some(List(vec![rule(&["search"], 0, &[])])), vec![]);
    assert!(e.contains("entity"), "{e}");
}
