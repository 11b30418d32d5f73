//! Every mechanic in the registry, checked alike (as ripgrep's tests loop
//! over its flags): declarations that hold together, a model at the
//! defaults, and, where a solver exists, an exact answer of mass 1 that
//! Monte Carlo agrees with.

use std::collections::BTreeSet;

use oddsmith::dice::DiceRng;
use oddsmith::model::{Marginals, Model, Schema, Tally, is_modelled};
use oddsmith::systems::testing::{Sample, assert_agrees, example};
use oddsmith::systems::{Lit, ParamKind, ParamMap, ParamValue, find, names, registry};

#[test]
fn names_are_unique_and_found() {
    let all = names();
    assert_eq!(all.len(), 26);
    assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len());
    for m in registry() {
        let (system, mechanic) = m.name().split_once('.').expect("system.mechanic");
        assert!(!system.is_empty() && !mechanic.is_empty(), "{}", m.name());
        assert_eq!(find(m.name()).unwrap().name(), m.name());
        assert!(!m.summary().is_empty(), "{}", m.name());
    }
}

/// Every mechanic is a `Define` (one definition: parameters, schema and a
/// checking constructor, with `Mechanic` and `Model` derived).
///
/// Told by the type of the model each mechanic prepares, not by anything
/// a mechanic declares: the blanket `Mechanic` of a `Define` always
/// builds the model crate-private to `model::define` (a trial with its
/// schema), which [`is_modelled`] recognises by its Rust type. A mechanic
/// that implemented `Mechanic` by hand would build a model of its own
/// type and land in the list below, as the hand-written model here does.
/// (A flag a mechanic sets, or a registry entry that only says "defined",
/// would pass whatever the code did.)
#[test]
fn every_mechanic_is_a_define() {
    let by_hand: Vec<(&str, &str)> = registry()
        .iter()
        .filter_map(|m| {
            let model = m
                .prepare(&example(*m))
                .unwrap_or_else(|e| panic!("{}: {e}", m.name()));
            (!is_modelled(model.as_ref())).then(|| (m.name(), model.type_name()))
        })
        .collect();
    assert!(
        by_hand.is_empty(),
        "mechanics whose model is not a Define's: {by_hand:?}"
    );

    /// A model written by hand, as a mechanic bypassing `Define` would.
    struct ByHand(Schema);
    impl Model for ByHand {
        fn schema(&self) -> &Schema {
            &self.0
        }
        fn simulate(&self, _: &mut DiceRng, trials: u64, tally: &mut Tally) {
            for _ in 0..trials {
                tally.record_outcome(&[1]);
            }
        }
        fn exact(&self) -> Option<Marginals> {
            None
        }
    }
    let schema = find("dice.roll").unwrap().schema();
    assert!(!is_modelled(&ByHand(schema)), "the test tells them apart");
}

#[test]
fn every_spec_has_a_field_and_every_field_a_spec() {
    for m in registry() {
        let fields: BTreeSet<&str> = m.param_fields().iter().copied().collect();
        let specs: BTreeSet<&str> = m.params().iter().map(|s| s.path).collect();
        let no_field: Vec<_> = specs.difference(&fields).collect();
        let no_spec: Vec<_> = fields.difference(&specs).collect();
        assert!(
            no_field.is_empty() && no_spec.is_empty(),
            "{}: specs without a field {no_field:?}, fields without a spec {no_spec:?}",
            m.name()
        );
    }
}

#[test]
fn parameters_are_declared_once_with_defaults_their_kind_accepts() {
    for m in registry() {
        let mut seen = BTreeSet::new();
        for p in m.params() {
            assert!(seen.insert(p.path), "{}: `{}` twice", m.name(), p.path);
            assert!(!p.doc.is_empty(), "{}: `{}` has no doc", m.name(), p.path);
            if let ParamKind::Choice(names) | ParamKind::Ordered(names) = p.kind {
                let unique: BTreeSet<_> = names.iter().collect();
                assert!(!names.is_empty() && unique.len() == names.len());
            }
            let default = match p.default {
                Lit::Int(v) => ParamValue::Int(v),
                Lit::Bool(v) => ParamValue::Bool(v),
                Lit::Str(v) => ParamValue::Str(v.into()),
                Lit::Absent => continue,
            };
            assert_eq!(
                p.kind.check(&default),
                Ok(()),
                "{}: the default of `{}`",
                m.name(),
                p.path
            );
        }
    }
}

#[test]
fn every_mechanic_prepares_at_its_defaults_with_a_schema_that_holds() {
    for m in registry() {
        let model = m
            .prepare(&example(*m))
            .unwrap_or_else(|e| panic!("{}: {e}", m.name()));
        for schema in [m.schema(), model.schema().clone()] {
            assert!(!schema.fields.is_empty(), "{}", m.name());
            assert!(!schema.metrics.is_empty(), "{}: no headline", m.name());
            for metric in &schema.metrics {
                for field in metric.kind.fields() {
                    assert!(
                        field < schema.fields.len(),
                        "{}: {} reads field {field}",
                        m.name(),
                        metric.name
                    );
                }
            }
        }
        // One schema: a model reports the mechanic's own, except where the
        // names come from the parameters (a scene's players, the PCs of an
        // ensemble, a tension scene's explorers) or a metric exists only
        // for some expressions (`p_true` for a comparison).
        if ![
            "cgg.tension",
            "statements.scene",
            "statements.campaign",
            "gateway.ensemble",
            "gateway.skirmish",
            "dice.roll",
        ]
        .contains(&m.name())
        {
            assert_eq!(model.schema(), &m.schema(), "{}", m.name());
        }
        assert_eq!(
            m.has_exact(),
            model.exact().is_some(),
            "{}: has_exact says {}",
            m.name(),
            m.has_exact()
        );
    }
    // The one parameter that must be set says so.
    let scene = find("statements.scene").unwrap();
    let err = scene.check(&ParamMap::new()).err().unwrap();
    assert_eq!(err.key, "players");
    assert!(err.message.contains("is required"), "{err}");
}

#[test]
fn exact_defaults_have_mass_one_and_monte_carlo_agrees() {
    let mut solved = 0;
    for (i, m) in registry().iter().enumerate() {
        let model = m.prepare(&example(*m)).unwrap();
        let Some(exact) = model.exact() else {
            continue;
        };
        // A metric over two fields is read off whole outcomes: the
        // solver must give every probability as one.
        assert!(
            !model.schema().needs_joint() || exact.joint().is_some(),
            "{}: a metric reads two fields, but the solver gave fields alone",
            m.name()
        );
        let sample = Sample::seed(2026).config(i).trials(200_000);
        assert_agrees(model.as_ref(), sample, m.name());
        solved += 1;
    }
    assert_eq!(solved, 22);
}

#[test]
fn every_name_of_every_choice_is_read() {
    for m in registry() {
        for p in m.params() {
            let (ParamKind::Choice(names) | ParamKind::Ordered(names)) = p.kind else {
                continue;
            };
            for name in names {
                let mut values = example(*m);
                values.set(p.path, ParamValue::Str(name.to_string()));
                // A name may be refused for what it means (a wagered
                // sequence against a "simple" resistance has no AP), never
                // as unknown.
                if let Err(e) = m.check(&values) {
                    assert!(
                        !e.message.contains("not a known name"),
                        "{}: `{}` = \"{name}\": {e}",
                        m.name(),
                        p.path
                    );
                }
            }
            let mut values = example(*m);
            values.set(p.path, ParamValue::Str("no-such-name".into()));
            let err = m.check(&values).err().unwrap();
            assert_eq!(err.key, p.path, "{}", m.name());
        }
    }
}

#[test]
fn custom_values_are_parsed_and_refused_when_wrong() {
    // Custom values are checked by the mechanic's own parse, not by the
    // declared kind: a value of the wrong type must still be refused.
    for m in registry() {
        for p in m.params() {
            let ParamKind::Custom { expects } = p.kind else {
                continue;
            };
            assert!(!expects.is_empty());
            let mut values = example(*m);
            values.set(p.path, ParamValue::Bool(true));
            assert!(
                m.check(&values).is_err(),
                "{}: `{}` = true was accepted",
                m.name(),
                p.path
            );
        }
    }
}
