//! The fuzz targets: each takes one input and panics only on a bug.

use std::path::Path;
use std::str::FromStr;

use oddsmith::dice::DiceRng;
use oddsmith::scenario::{Scenario, ScenarioError};
use oddsmith::sim::Tally;
use oddsmith::systems::gateway::notation;
use oddsmith::systems::{self, ParamMap, ParamValue, cgg, cortex, questworlds};
use proptest::sample::Index;

// ---------------------------------------------------------------------
// Targets: each takes one input and panics only on a bug.

/// The scenario parser on `text`; a scenario it accepts must also run.
/// Whether it was accepted.
pub(crate) fn scenario_target(text: &str) -> bool {
    match Scenario::parse(Path::new("fuzz.toml"), text) {
        Ok(s) => {
            let n = s.config_count();
            assert!((1..=oddsmith::scenario::MAX_CONFIGS).contains(&n));
            // A checked model cannot fail: a few trials of the first and
            // last config.
            let models = s.models().expect("models were checked at parse");
            for (config, model) in [models.first(), models.last()].into_iter().flatten() {
                let mut tally = Tally::new(model.schema().fields.len());
                let mut rng = DiceRng::for_chunk(1, config.index as u64, 0);
                model.simulate(&mut rng, 8, &mut tally);
                assert_eq!(tally.trials(), 8);
            }
            true
        }
        Err(e) => {
            for p in e.all() {
                let msg = p.to_string();
                assert!(msg.starts_with("fuzz.toml"), "{msg}");
                if let ScenarioError::Toml { line, .. } | ScenarioError::Invalid { line, .. } = p {
                    assert!(
                        *line >= 1 && *line <= text.lines().count().max(1) + 1,
                        "{msg}"
                    );
                }
            }
            false
        }
    }
}

/// Every string notation on `s`; what parses prints back to itself.
/// Whether any parser took it.
pub(crate) fn notation_target(s: &str) -> bool {
    let mut took = false;
    if let Ok(pool) = cortex::Pool::from_str(s) {
        took = true;
        let again = cortex::Pool::from_str(&pool.to_string()).expect("a printed pool parses");
        assert_eq!(again, pool, "{s:?}");
    }
    if let Ok(code) = cgg::DieCode::from_str(s) {
        took = true;
        let again = cgg::DieCode::from_str(&code.to_string()).expect("a printed code parses");
        assert_eq!(again, code, "{s:?}");
    }
    if let Ok(r) = questworlds::Rating::from_str(s) {
        took = true;
        if questworlds::rating::rating_of(&ParamValue::Str(s.into())).is_ok() {
            let again = questworlds::Rating::from_str(&r.to_string()).expect("prints back");
            assert_eq!(again, r, "{s:?}");
        }
    }
    let _ = questworlds::rating::rating_of(&ParamValue::Str(s.into()));
    if let Ok(pool) = notation::parse_pool(s) {
        took = true;
        assert!((1..=notation::MAX_DICE).contains(&pool.dice), "{s:?}");
        assert!(pool.bonus.abs() <= notation::MAX_BONUS, "{s:?}");
    }
    if let Ok(raises) = notation::parse_raises(s) {
        took = true;
        assert!(!raises.is_empty() && raises.iter().all(|&r| r <= notation::MAX_RAISES));
    }
    took
}

/// Every parameter check of every mechanic on `v` (custom values, the
/// statements scene's players and conflicts among them, are parsed by the
/// check), and its constructor when the check passed. Whether the
/// mechanic took it.
pub(crate) fn value_target(v: &ParamValue, mechanic: Index, param: Index) -> bool {
    let m = systems::registry()[mechanic.index(systems::registry().len())];
    let spec = &m.params()[param.index(m.params().len())];
    let accepted = spec.kind.check(v).is_ok();
    let values = ParamMap::from_pairs(&[(spec.path, v.clone())]);
    match m.check(&values) {
        Ok(_) => {
            assert!(accepted, "{} accepted {v} for {}", m.name(), spec.path);
            let model = m.prepare(&values).expect("a build of checked values");
            let mut tally = Tally::new(model.schema().fields.len());
            model.simulate(&mut DiceRng::from_u64(7), 4, &mut tally);
            true
        }
        Err(e) => {
            assert!(!e.key.is_empty() && !e.message.is_empty());
            false
        }
    }
}
