//! The venture menu of rules §3.4 and how an action is settled once
//! both rolls are on the table: the wrench (player) first, then the
//! hammer (Exec) with what is left, each use at most once per roll.
//!
//! The settling is written once, as [`Action::settle`], over a [`Draw`]
//! for the few dice venture itself rolls ("I'm that good!" re-rolls the
//! failure dice; "Alright, time to get serious" rolls one more risk die
//! and sets one difficulty die aside, as does "It's not as bad as I
//! thought"). The sampler draws them from the generator; the exact solver
//! ([`super::exact`]) replays the settling once per branch of those draws,
//! so the two cannot disagree on the rules.
//!
//! Order of play. The 2-cost wrench uses change the dice every other use
//! is judged on (one difficulty die fewer, one risk die more), so they are
//! settled first, on the roll as it came, with the venture the cheap uses
//! this roll calls for do not need; then the 1-cost uses, cheapest
//! first; then (policy `deny`) the rest on any legal use; then the hammer.
//! A die set aside is one of the Exec's dice at random: an action counted
//! with one difficulty die fewer has exactly the law of one rolled with
//! one die fewer. "I'm that good!" re-rolls the failing dice for the
//! failure count only: the risk target stays as rolled, and a die set
//! aside after it, of those rolled failing, fails as re-rolled (each of
//! them alike).

use super::{Action, field};
use crate::dice::DiceRng;

crate::choice! {
    /// The player's wrench policy (rules §3.4).
    pub enum Wrench {
        /// Never spend.
        None = "none",
        /// Spend where a use changes the outcome, cheapest first.
        Greedy = "greedy",
        /// Greedy, then what is left on any legal wrench use, so the Exec
        /// gets as little as possible.
        Deny = "deny",
    }
}

crate::choice! {
    /// The Exec's hammer policy (rules §3.4).
    pub enum Hammer {
        /// Never spend.
        None = "none",
        /// "Can't do it!" first, then the others by cost while venture lasts.
        Always = "always",
        /// As `always`, but "Can't do it!" only when the action would
        /// otherwise succeed.
        OnlyOnSuccess = "only-on-success",
        /// Never a failure: a condition, gear, incapacitation, by cost.
        Conditions = "conditions",
    }
}

/// A use of venture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// "That was close!" (wrench, 1): +5 to the risk total.
    Close,
    /// "Gotta make it!" (wrench, 1): remove one failure.
    Gotta,
    /// "I'm that good!" (wrench, 1): the Exec re-rolls the failure dice.
    Good,
    /// "Alright, time to get serious" (wrench, 2): every code one die
    /// higher: one difficulty die fewer, one risk die more.
    Serious,
    /// "It's not as bad as I thought" (wrench, 2): an impairing condition
    /// (+1 difficulty) is removed.
    NotAsBad,
    /// "Can't do it!" (hammer, 1): one more failure.
    Cant,
    /// "It's even worse than that" (hammer, 1): a condition.
    Worse,
    /// "What? Why now!?" (hammer, 2): a piece of gear disabled.
    WhyNow,
    /// "Didn't see that coming…" (hammer, 3): incapacitated.
    DidntSee,
}

impl Use {
    /// Every use, wrench then hammer, in [`field`] order.
    pub const ALL: [Use; 9] = [
        Use::Close,
        Use::Gotta,
        Use::Good,
        Use::Serious,
        Use::NotAsBad,
        Use::Cant,
        Use::Worse,
        Use::WhyNow,
        Use::DidntSee,
    ];

    /// Venture it costs, and hours it pays (wrench) or gains (hammer).
    pub const fn cost(self) -> u32 {
        match self {
            Use::Close | Use::Gotta | Use::Good | Use::Cant | Use::Worse => 1,
            Use::Serious | Use::NotAsBad | Use::WhyNow => 2,
            Use::DidntSee => 3,
        }
    }

    /// A player's use (else the Exec's).
    pub const fn wrench(self) -> bool {
        matches!(
            self,
            Use::Close | Use::Gotta | Use::Good | Use::Serious | Use::NotAsBad
        )
    }

    /// Its outcome field (1 when used).
    pub const fn field(self) -> usize {
        field::CLOSE + self as usize
    }
}

/// What a difficulty die can show, as the rules read it: faces 1, 2 and 3
/// (failures that raise the risk by their face), a failure that raises
/// nothing (4..=5 under the half rule), a pass.
pub const CLASSES: usize = 5;
/// The class of a failure that raises nothing.
pub const FAIL_ONLY: usize = 3;
/// The class of a pass.
pub const PASS: usize = 4;

/// The class of face `face` when faces up to `highest_failing` fail.
#[inline(always)]
pub fn class_of(face: u32, highest_failing: u32) -> usize {
    if face <= 3 {
        face as usize - 1
    } else if face <= highest_failing {
        FAIL_ONLY
    } else {
        PASS
    }
}

/// The law of one difficulty die's class.
pub fn class_law(highest_failing: u32) -> [f64; CLASSES] {
    let h = highest_failing as f64;
    [0.1, 0.1, 0.1, (h - 3.0) / 10.0, 1.0 - h / 10.0]
}

/// The Exec's dice as they lie, counted by class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExecDice(pub [u32; CLASSES]);

impl ExecDice {
    pub fn dice(self) -> u32 {
        self.0.iter().sum()
    }

    /// Dice showing a failure.
    pub fn failing(self) -> u32 {
        self.0[..PASS].iter().sum()
    }

    /// What they add to the risk target: the faces 1..3.
    pub fn raise(self) -> i64 {
        (self.0[0] + 2 * self.0[1] + 3 * self.0[2]) as i64
    }
}

/// The two rolls as they came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rolled {
    pub dice: ExecDice,
    /// Venture (6s) and total of the risk roll (0 and 0 with no risk).
    pub venture: u32,
    pub total: i64,
}

/// The dice venture itself rolls.
pub trait Draw {
    /// "I'm that good!": how many of `n` re-rolled dice fail again, each
    /// with probability `q` (faces up to `highest`).
    fn refails(&mut self, n: u32, highest: u32) -> u32;
    /// The class of the die set aside: one of `dice` at random.
    fn set_aside(&mut self, dice: &ExecDice) -> usize;
    /// One more risk d6.
    fn d6(&mut self) -> u32;
    /// Whether a die set aside from the failing faces, after "I'm that
    /// good!" re-rolled them, fails as it lies now: `failing` of the `of`
    /// dice rolled failing still do.
    fn still_fails(&mut self, failing: u32, of: u32) -> bool;
}

/// Draws from a generator.
pub struct RngDraw<'a>(pub &'a mut DiceRng);

impl Draw for RngDraw<'_> {
    #[inline]
    fn refails(&mut self, n: u32, highest: u32) -> u32 {
        (0..n).filter(|_| self.0.die(10) <= highest).count() as u32
    }

    #[inline]
    fn set_aside(&mut self, dice: &ExecDice) -> usize {
        let mut i = self.0.die(dice.dice()) - 1;
        for (c, &n) in dice.0.iter().enumerate() {
            if i < n {
                return c;
            }
            i -= n;
        }
        unreachable!("a die of {dice:?}")
    }

    #[inline]
    fn d6(&mut self) -> u32 {
        self.0.die(6)
    }

    #[inline]
    fn still_fails(&mut self, failing: u32, of: u32) -> bool {
        self.0.die(of) <= failing
    }
}

/// Where the settling stands: what the dice and the uses so far have
/// left. Best play (`super::best`) decides the wrench over it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    dice: ExecDice,
    /// Failing dice (after any re-roll).
    failing: u32,
    /// Failures removed ("Gotta make it!") and added ("Can't do it!").
    removed: u32,
    added: u32,
    raise: i64,
    total: i64,
    close: bool,
    left: u32,
    /// Dice set aside so far.
    aside: u32,
    used: [bool; 9],
    wrench_spent: u32,
    hammer_spent: u32,
}

impl Board {
    /// Failures as they stand.
    pub fn failures(&self) -> u32 {
        (self.failing + self.added).saturating_sub(self.removed)
    }

    fn spend(&mut self, u: Use) {
        debug_assert!(!self.used[u as usize] && self.left >= u.cost());
        self.used[u as usize] = true;
        self.left -= u.cost();
        if u.wrench() {
            self.wrench_spent += u.cost();
        } else {
            self.hammer_spent += u.cost();
        }
    }

    fn can(&self, u: Use) -> bool {
        !self.used[u as usize] && self.left >= u.cost()
    }

    /// Venture not spent yet.
    pub fn left(&self) -> u32 {
        self.left
    }

    /// Difficulty dice lying on the table.
    pub fn dice(&self) -> u32 {
        self.dice.dice()
    }

    /// Whether `u` is spent this roll.
    pub fn spent(&self, u: Use) -> bool {
        self.used[u as usize]
    }

    /// Uses spent so far, either side's: one more with every use.
    pub fn uses(&self) -> u32 {
        self.used.iter().filter(|&&u| u).count() as u32
    }
}

impl Action {
    fn target(&self, b: &Board) -> i64 {
        self.base_target() + b.raise
    }

    fn avoided(&self, b: &Board) -> bool {
        self.risk_code.is_none()
            || self.rules.comparison.meets(
                b.total + if b.close { super::CLOSE_BONUS } else { 0 },
                self.target(b),
            )
    }

    /// How much the risk total must still rise for the risk to be
    /// avoided: 0 when it is (or there is no risk roll).
    pub fn short(&self, b: &Board) -> i64 {
        let total = b.total + if b.close { super::CLOSE_BONUS } else { 0 };
        (0..)
            .find(|&n| self.avoided(b) || self.rules.comparison.meets(total + n, self.target(b)))
            .expect("a total high enough")
    }

    /// The risk is missed and "That was close!" cannot save it.
    fn beyond_close(&self, b: &Board) -> bool {
        !self.avoided(b)
            && (b.close
                || !self
                    .rules
                    .comparison
                    .meets(b.total + super::CLOSE_BONUS, self.target(b)))
    }

    /// Venture the cheap uses this roll calls for would take: "That was
    /// close!" when it saves the risk, "Gotta make it!" for one failure,
    /// "I'm that good!" and "Gotta make it!" for more.
    fn reserve(&self, b: &Board) -> u32 {
        let close = !self.avoided(b) && !self.beyond_close(b);
        close as u32 + b.failures().min(2)
    }

    /// Set one difficulty die aside if the difficulty, one die lower,
    /// leaves fewer dice than lie on the table (it may not, past six).
    fn lower_difficulty<D: Draw>(&self, b: &mut Board, draw: &mut D) {
        b.aside += 1;
        if self.dice_after(b.aside) < b.dice.dice() {
            let c = draw.set_aside(&b.dice);
            // The dice keep the faces they were rolled with (the risk
            // target stays as rolled); once "I'm that good!" has re-rolled
            // them, only `failing` of those rolled failing still fail, and
            // the one set aside is any of them.
            let of = b.dice.failing();
            let fails = c != PASS
                && (b.failing == of || (b.failing > 0 && draw.still_fails(b.failing, of)));
            b.dice.0[c] -= 1;
            b.failing -= fails as u32;
            b.raise -= if c < FAIL_ONLY { c as i64 + 1 } else { 0 };
        }
    }

    /// Whether lowering the difficulty once more would set a die aside.
    fn would_drop(&self, b: &Board) -> bool {
        self.dice_after(b.aside + 1) < b.dice.dice()
    }

    /// The 2-cost uses, on the roll as it came: only with the venture the
    /// cheap uses do not need; greedy only where the cheap uses cannot
    /// settle the roll (two or more failures, or a risk "That was close!"
    /// cannot save), deny wherever legal.
    fn two_cost<D: Draw>(&self, named: Wrench, b: &mut Board, draw: &mut D) {
        let deny = named == Wrench::Deny;
        for u in [Use::Serious, Use::NotAsBad] {
            let spare = b.left.saturating_sub(self.reserve(b));
            if spare < u.cost() || b.used[u as usize] {
                continue;
            }
            let drops = self.would_drop(b);
            let wanted = match u {
                Use::Serious => (b.failures() >= 2 && drops) || self.beyond_close(b),
                _ => self.impaired && drops && (b.failures() >= 2 || self.beyond_close(b)),
            };
            let legal = u == Use::Serious || self.impaired;
            if legal && (wanted || deny) {
                self.wrench_use(b, u, draw);
            }
        }
    }

    /// The 1-cost uses where they change the outcome.
    fn cheap<D: Draw>(&self, b: &mut Board, draw: &mut D) {
        if b.can(Use::Close) && !self.avoided(b) && !self.beyond_close(b) {
            self.wrench_use(b, Use::Close, draw);
        }
        if b.failures() >= 2 && b.can(Use::Good) {
            self.wrench_use(b, Use::Good, draw);
        }
        if b.failures() >= 1 && b.can(Use::Gotta) {
            self.wrench_use(b, Use::Gotta, draw);
        }
    }

    /// Whether the player may spend on `u` now: venture enough, not used
    /// yet this roll, and something for it to act on ("That was close!"
    /// needs a risk roll, "Gotta make it!" and "I'm that good!" a
    /// failure, "It's not as bad as I thought" an impairing condition).
    pub fn may_wrench(&self, b: &Board, u: Use) -> bool {
        u.wrench()
            && b.can(u)
            && match u {
                Use::Close => self.risk_code.is_some(),
                Use::Gotta | Use::Good => b.failures() >= 1,
                Use::NotAsBad => self.impaired,
                _ => true,
            }
    }

    /// One wrench use and what it does (the dice it rolls on `draw`).
    pub fn wrench_use<D: Draw>(&self, b: &mut Board, u: Use, draw: &mut D) {
        debug_assert!(self.may_wrench(b, u), "{u:?} on {b:?}");
        b.spend(u);
        match u {
            Use::Close => b.close = true,
            Use::Gotta => b.removed += 1,
            Use::Good => {
                b.failing = draw.refails(b.failing, self.rules.failure.highest_failing());
            }
            Use::Serious | Use::NotAsBad => {
                self.lower_difficulty(b, draw);
                if u == Use::Serious && self.risk_code.is_some() {
                    match draw.d6() {
                        6 => b.left += 1,
                        face => b.total += face as i64,
                    }
                }
            }
            _ => unreachable!("{u:?} is the Exec's"),
        }
    }

    /// `deny`: whatever is left on the legal 1-cost uses.
    fn burn<D: Draw>(&self, b: &mut Board, draw: &mut D) {
        for u in [Use::Close, Use::Good, Use::Gotta] {
            if self.may_wrench(b, u) {
                self.wrench_use(b, u, draw);
            }
        }
    }

    /// The Exec's uses of what is left. No use adds a failure to an action
    /// left with no difficulty dice: the explorer "succeeds handily".
    fn hammer(&self, b: &mut Board) {
        let policy = self.rules.hammer;
        let cant = match policy {
            Hammer::None | Hammer::Conditions => false,
            Hammer::Always => true,
            Hammer::OnlyOnSuccess => b.failures() == 0,
        };
        if cant && b.dice.dice() > 0 && b.can(Use::Cant) {
            b.spend(Use::Cant);
            b.added += 1;
        }
        if policy != Hammer::None {
            for u in [Use::Worse, Use::WhyNow, Use::DidntSee] {
                if b.can(u) {
                    b.spend(u);
                }
            }
        }
    }

    /// Settle the action on the two rolls: every venture use, in order.
    pub fn settle<D: Draw>(&self, rolled: &Rolled, draw: &mut D) -> super::Outcome {
        let mut b = self.board(rolled);
        self.wrench(&mut b, draw);
        self.finish(b)
    }

    /// The board as the two rolls leave it, before any venture is spent.
    pub fn board(&self, rolled: &Rolled) -> Board {
        Board {
            dice: rolled.dice,
            failing: rolled.dice.failing(),
            removed: 0,
            added: 0,
            raise: rolled.dice.raise(),
            total: rolled.total,
            close: false,
            left: rolled.venture,
            aside: 0,
            used: [false; 9],
            wrench_spent: 0,
            hammer_spent: 0,
        }
    }

    /// A named wrench policy from `b` on (uses already spent stay spent);
    /// [`Action::wrench`] plays either kind.
    pub fn named_wrench<D: Draw>(&self, named: Wrench, b: &mut Board, draw: &mut D) {
        if named != Wrench::None && b.left > 0 {
            self.two_cost(named, b, draw);
            self.cheap(b, draw);
            if named == Wrench::Deny {
                self.burn(b, draw);
            }
        }
    }

    /// The wrench is over: the Exec's hammer with what is left, and the
    /// outcome.
    pub fn finish(&self, mut b: Board) -> super::Outcome {
        let to_hammer = b.left;
        self.hammer(&mut b);
        let failures = b.failures();
        let avoided = self.avoided(&b);
        let success = failures == 0;
        let uses = |wrench: bool| {
            Use::ALL
                .iter()
                .filter(|u| u.wrench() == wrench && b.used[**u as usize])
                .count() as i64
        };
        let mut o = [0i64; field::COUNT];
        o[field::FAILURES] = failures as i64;
        o[field::SUCCESS] = success as i64;
        o[field::AVOIDED] = avoided as i64;
        o[field::CLEAN] = (success && avoided) as i64;
        o[field::VENTURE] = (b.wrench_spent + b.hammer_spent + b.left) as i64;
        o[field::VENTURE_LEFT] = b.left as i64;
        o[field::WRENCH_USED] = uses(true);
        o[field::HAMMER_USED] = uses(false);
        o[field::HOURS_PAID] = (self.hours_before + b.wrench_spent) as i64;
        o[field::HOURS_GAINED] = b.hammer_spent as i64;
        o[field::WRENCH_SPENT] = b.wrench_spent as i64;
        o[field::HAMMER_SPENT] = b.hammer_spent as i64;
        o[field::TO_HAMMER] = to_hammer as i64;
        for u in Use::ALL {
            o[u.field()] = b.used[u as usize] as i64;
        }
        o
    }
}
