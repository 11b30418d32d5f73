//! Best play against brute force: a small push-your-luck game whose
//! every deterministic policy is enumerated and evaluated.

use std::fmt;

use super::*;
use crate::model::After;

/// Two rounds; each round a pot starts at 0. Rolling busts (the pot is
/// lost, the round ends) with probability 0.4, else adds 2 to the pot; a
/// pot of 4 is banked at once. Banking ends the round with the pot
/// added; folding ends it with the pot thrown away (open only with a
/// pot: never better than banking it).
struct Pig;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Opt {
    Bank,
    Roll,
    Fold,
}

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// (banked, pot)
type S = (u8, u8);

fn step(round: usize, (banked, pot): S, o: Opt, bust: bool) -> After<S, [i64; 1]> {
    let end = |b: u8| {
        if round >= 2 {
            After::End([b as i64])
        } else {
            After::Round((b, 0))
        }
    };
    match o {
        Opt::Bank => end(banked + pot),
        Opt::Fold => end(banked),
        Opt::Roll if bust => end(banked),
        Opt::Roll if pot + 2 >= 4 => end(banked + pot + 2),
        Opt::Roll => After::Roll((banked, pot + 2)),
    }
}

/// A roll: which option was taken, and whether the die busted.
type R = (Opt, bool);

impl Choose for Pig {
    type State = S;
    type Roll = R;
    type Outcome = [i64; 1];
    type Option = Opt;

    fn start(&self) -> S {
        (0, 0)
    }

    fn options(&self, _: usize, &(_, pot): &S, out: &mut Vec<Opt>) {
        out.extend([Opt::Bank, Opt::Roll]);
        if pot > 0 {
            out.push(Opt::Fold);
        }
    }

    fn law(&self, _: usize, &(_, pot): &S, o: Option<&Opt>, out: &mut Vec<(R, f64)>) {
        // The given policy: roll on an empty pot, bank any other.
        let o = o
            .copied()
            .unwrap_or(if pot == 0 { Opt::Roll } else { Opt::Bank });
        match o {
            Opt::Roll => out.extend([((o, true), 0.4), ((o, false), 0.6)]),
            _ => out.push(((o, false), 1.0)),
        }
    }

    fn after(&self, round: usize, s: &S, &(o, bust): &R) -> After<S, [i64; 1]> {
        step(round, *s, o, bust)
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec!["banked", "pot"]
    }

    fn features(&self, _: usize, &(b, p): &S, out: &mut Vec<i64>) {
        out.extend([b as i64, p as i64]);
    }

    fn tags(&self, o: &Opt) -> Vec<String> {
        vec![o.to_string().to_lowercase()]
    }
}

#[test]
fn best_play_is_the_best_of_every_policy() {
    let mean = |o: &[i64]| o[0] as f64;
    let at_least_4 = |o: &[i64]| f64::from(o[0] >= 4);
    for reward in [&mean as &dyn Fn(&[i64]) -> f64, &at_least_4] {
        let all = super::check::every_policy(&Pig, reward, 5_000);
        let top = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let solved = best(&Pig, reward, true, BestLimits::default()).unwrap();
        assert!(
            (solved.value - top).abs() < 1e-12,
            "{} vs {top}",
            solved.value
        );
        assert!((solved.replayed - solved.value).abs() < 1e-12);
        // The given policy is one of them, and no better.
        assert!(all.iter().any(|v| (v - solved.given).abs() < 1e-12));
        assert!(solved.given <= solved.value + 1e-12);
    }
}

#[test]
fn values_by_hand() {
    // Mean banked. The last round: rolling from 0 is worth 0.6·E[pot 2],
    // and at pot 2 rolling is worth 0.6·4 = 2.4 > banking 2, so a round
    // is worth 0.6·2.4 = 1.44 and two rounds 2.88 under best play. The
    // given policy banks at 2: 0.6·2 = 1.2 a round, 2.4 in all.
    let mean = |o: &[i64]| o[0] as f64;
    let solved = best(&Pig, &mean, true, BestLimits::default()).unwrap();
    assert!((solved.value - 2.88).abs() < 1e-12, "{}", solved.value);
    assert!((solved.given - 2.4).abs() < 1e-12, "{}", solved.given);
}

#[test]
fn a_dominated_option_costs_nothing_and_is_never_used() {
    let mean = |o: &[i64]| o[0] as f64;
    let solved = best(&Pig, &mean, true, BestLimits::default()).unwrap();
    let row = |t: &str| {
        solved
            .dominance
            .iter()
            .find(|d| d.tag == t)
            .unwrap()
            .clone()
    };
    let fold = row("fold");
    assert!(fold.loss.abs() < 1e-12, "{fold:?}");
    assert_eq!(fold.usage, 0.0);
    // Rolling is what makes the game: forbidding it leaves only banking
    // empty pots, worth 0.
    let roll = row("roll");
    assert!((roll.loss - 2.88).abs() < 1e-12, "{roll:?}");
    assert!((roll.usage - 1.0).abs() < 1e-12, "{roll:?}");
    // Banking is never needed for the mean (a pot of 4 banks itself), so
    // forbidding it costs nothing either.
    assert!(row("bank").loss.abs() < 1e-12);
    // Decisions: each round rolls at 0 and (60% of the time) at 2.
    assert!(
        (solved.visits - 2.0 * 1.6).abs() < 1e-12,
        "{}",
        solved.visits
    );
    let usage: f64 = solved.usage.iter().sum();
    assert!((usage - 1.0).abs() < 1e-12);
}

#[test]
fn rules_read_as_the_best_policy() {
    // For P(banked ≥ 4): round 1 rolls on at a pot of 2 (0.6 + 0.4·0.36
    // = 0.744 against 0.6 for banking it), so the start is worth
    // 0.6·0.744 + 0.4·0.36 = 0.5904; with 4 banked the game is won, and
    // the tie goes to the simplest option, banking.
    let at_least_4 = |o: &[i64]| f64::from(o[0] >= 4);
    let solved = best(&Pig, &at_least_4, false, BestLimits::default()).unwrap();
    let bank = solved.options.iter().position(|o| *o == Opt::Bank).unwrap();
    assert!(
        solved
            .decisions
            .iter()
            .any(|d| d.features == [4, 0] && d.option == bank),
        "{solved:?}"
    );
    assert!((solved.value - 0.5904).abs() < 1e-12, "{}", solved.value);
    let boxes = group(&solved.decisions, 2);
    let visits: f64 = boxes.iter().map(|b| b.visits).sum();
    assert!((visits - solved.visits).abs() < 1e-12);
}

#[test]
fn an_endless_game_is_refused() {
    struct Forever;
    impl Choose for Forever {
        type State = u8;
        type Roll = ();
        type Outcome = [i64; 1];
        type Option = Opt;
        fn start(&self) -> u8 {
            0
        }
        fn options(&self, _: usize, _: &u8, _: &mut Vec<Opt>) {}
        fn law(&self, _: usize, _: &u8, _: Option<&Opt>, out: &mut Vec<((), f64)>) {
            out.push(((), 1.0));
        }
        fn after(&self, _: usize, _: &u8, _: &()) -> After<u8, [i64; 1]> {
            After::Round(0)
        }
        fn feature_names(&self) -> Vec<&'static str> {
            Vec::new()
        }
        fn features(&self, _: usize, _: &u8, _: &mut Vec<i64>) {}
        fn tags(&self, _: &Opt) -> Vec<String> {
            Vec::new()
        }
    }
    let limits = BestLimits {
        max_rounds: 50,
        ..BestLimits::default()
    };
    let e = best(&Forever, &|_| 0.0, false, limits).unwrap_err();
    assert_eq!(e, BestError::Rounds(50));
}
