//! The memoised sampler against the plain loop (`model::play`): the same
//! outcomes, draw for draw, from the same seeds.

use super::agreement::duel_configs;
use super::*;
use crate::dice::DiceRng;
use crate::model::play;
use crate::systems::gateway::scene::memo::Memo;

/// `trials` scenes each way from one seed: equal outcomes, and the two
/// generators left in the same place.
/// Returns whether the memo was still in use at the end.
fn same_draws(rounds: &SceneRounds, seed: u64, trials: usize, what: &str) -> bool {
    let mut memo = Memo::new(rounds);
    let (mut a, mut b) = (DiceRng::from_u64(seed), DiceRng::from_u64(seed));
    for k in 0..trials {
        assert_eq!(memo.play(&mut a), play(rounds, &mut b), "{what}, trial {k}");
    }
    assert_eq!(a.next_u64(), b.next_u64(), "{what}: the streams part");
    memo.memoising()
}

#[test]
fn the_memo_draws_as_the_plain_loop_in_every_duel() {
    for (i, pairs) in duel_configs().iter().enumerate() {
        let d = duel_from(&values(pairs)).unwrap();
        let kept = same_draws(&d.rounds, 5 + i as u64, 20_000, &format!("config {i}"));
        assert!(kept, "config {i}: a duel's states recur");
    }
}

#[test]
fn the_memo_draws_as_the_plain_loop_in_ensembles() {
    // K blocks and acts against every PC at once (the plain way); PCs
    // set up, accelerate and spend essence.
    let (key, pc) = blocking_ensemble(2);
    let mut stepped_aside = false;
    for n in [1, 2, 4, 6] {
        let mut m = ParamMap::new();
        let pcs = (1..=n)
            .map(|k| pc(&format!("p{k}"), 1 - k as i64))
            .collect();
        m.set("pcs", List(pcs));
        m.set("key", key.clone());
        m.set("ladder", Int(6));
        let e = ensemble_from(&m).unwrap();
        let kept = same_draws(&e.rounds, 30 + n as u64, 10_000, &format!("{n} PCs"));
        assert!(kept || n > 2, "{n} PCs: the memo should pay");
        stepped_aside |= !kept;
    }
    assert!(stepped_aside, "six PCs' states hardly recur");
}

#[test]
fn every_field_of_a_state_and_the_round_move_its_key() {
    let d = duel_from(&values(&[])).unwrap();
    let s = d.rounds.start();
    let k = s.key(3);
    let changes: [fn(&mut State); 13] = [
        |s| s.edges[6] = -1,
        |s| s.essence[6] = 1,
        |s| s.ladder += 1,
        |s| s.holder = 6,
        |s| s.free = 1 << 6,
        |s| s.coin = !s.coin,
        |s| s.lead = !s.lead,
        |s| s.pos = 6,
        |s| s.blocked = 1 << 6,
        |s| s.ranks[6] = 1,
        |s| s.used[6] = 1,
        |s| s.pressed = 1 << 6,
        |s| s.accel[6] = 1,
    ];
    let mut keys = vec![k, s.key(4)];
    for change in changes {
        let mut t = s;
        change(&mut t);
        keys.push(t.key(3));
    }
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 15, "keys collide");
}
