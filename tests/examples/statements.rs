//! Statements ("Stating your agenda"): every worked example of the text
//! (which repeats its rules twice over; each example counts once).

use crate::fixed;
use oddsmith::systems::statements::experience::setback_cost;
use oddsmith::systems::statements::{Rolls, Statement};
use oddsmith::systems::{Define, ParamMap, ParamValue};

/// Will 4 + Charismatic 3 against Acuity 5 + Shrewd 4, as the text sets
/// it (named factors, summed).
fn will_and_charisma() -> oddsmith::systems::statements::statement::Resolution {
    let named = |pairs: &[(&str, i64)]| {
        ParamValue::Table(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), ParamValue::Int(*v)))
                .collect(),
        )
    };
    Statement
        .trial(&ParamMap::from_pairs(&[
            ("favouring", named(&[("will", 4), ("charismatic", 3)])),
            ("opposing", named(&[("acuity", 5), ("shrewd", 4)])),
        ]))
        .unwrap()
}

/// Statements, "How Resolution is Performed": "Will 4 plus Charismatic 3
/// versus Acuity 5 plus Shrewd 4, the sum of factors would be 7 vs. 9, and
/// the likelihood of success would be 7 out of 16 … The GM would roll a
/// 16-sided die, and grant a success if the result were 7 or less."
#[test]
fn statements_7_against_9_is_a_d16_succeeding_on_7_or_less() {
    let st = will_and_charisma();
    assert_eq!((st.roll.favour, st.roll.sides), (7, 16));
    // The faces: 7 succeeds, 8 does not.
    assert_eq!(fixed::statements(&st.roll, Rolls::Three, &[7, 8, 16]), 1);
    assert_eq!(fixed::statements(&st.roll, Rolls::Three, &[1, 7, 8]), 2);
    // The exact law: each roll succeeds 7 times in 16. Over the three
    // rolls, s successes in C(3, s) 7^s 9^(3−s) of the 16³ sequences.
    let counts = st.roll.success_counts(Rolls::Three);
    assert_eq!(counts, [729, 1701, 1323, 343]);
    assert_eq!(counts.iter().sum::<u128>(), 16 * 16 * 16);
    // The first roll alone (until-failure stops on a failure): it fails
    // in 9 × 16 × 16 of the 16³ sequences, 9 in 16.
    let first = st.roll.success_counts(Rolls::UntilFailure);
    assert_eq!(first[0], 9 * 16 * 16);
}

/// Statements, "How Resolution is Performed": "The number of successes
/// times the sum of favouring factors is the Weight … (In the previous
/// example, 2 successes would give the Statement a Weight of 14.)"
#[test]
fn statements_two_successes_times_7_weigh_14() {
    let st = will_and_charisma();
    // Rolls of 3, 12 and 7: two successes.
    let successes = fixed::statements(&st.roll, st.rolls, &[3, 12, 7]);
    assert_eq!(successes, 2);
    let [s, failures, weight, comes_true] = st.outcome(successes);
    assert_eq!((s, failures, weight, comes_true), (2, 1, 14, 1));
}

/// Statements, "Setbacks": "generating 8 failures during resolution would
/// allow the GM to permanently reduce Acuity by 1". A reduction of 1,
/// lasting indefinitely (×2), to an attribute (×2), permanent (×2): 8.
#[test]
fn statements_setback_permanent_acuity_minus_1_costs_8() {
    assert_eq!(setback_cost(1, true, true, true), 8);
}

/// Statements, "Setbacks": the same 8 failures would allow the GM to
/// "temporarily reduce a single Trait by 4 points". Read as the normal
/// setback that wears off after the next scene, oddsmith prices it at its
/// penalty, 4 failures, not the 8 the example pairs it with; read as a
/// setback that lasts until recovered (×2), it costs the example's 8.
#[test]
fn statements_setback_temporary_trait_minus_4_differs_costs_4() {
    assert_eq!(setback_cost(4, false, false, false), 4);
    // The reading that reproduces the example: indefinite, not permanent.
    assert_eq!(setback_cost(4, true, false, false), 8);
}
