//! Outcome schemas: the named fields one trial produces, and the headline
//! metrics read off their distributions.

/// How the integer values of a field are read.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// 0 = false, 1 = true.
    Bool,
    /// A plain integer.
    Int,
    /// Value `i` means `labels[i]`.
    Category(Vec<&'static str>),
}

impl FieldKind {
    /// Whether "at least" and "at most" a value mean something: for an
    /// integer, yes; for a category (victory, tie, defeat) the order of
    /// its labels is only their listing, and a yes/no's tails are its
    /// two values again.
    pub fn is_ordered(&self) -> bool {
        matches!(self, FieldKind::Int)
    }
}

/// One outcome field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSpec {
    pub name: String,
    pub kind: FieldKind,
    pub doc: &'static str,
    /// For an integer field the rules bound: its least and greatest value
    /// in this configuration (both can happen or not; no value lies
    /// outside). A merge refuses a shard's value outside it.
    pub range: Option<(i64, i64)>,
}

impl FieldSpec {
    pub fn new(name: impl Into<String>, kind: FieldKind, doc: &'static str) -> Self {
        FieldSpec {
            name: name.into(),
            kind,
            doc,
            range: None,
        }
    }

    /// This field, declared to lie within `lo..=hi` (integer fields).
    pub fn within(mut self, lo: i64, hi: i64) -> Self {
        debug_assert!(lo <= hi, "{}: range {lo}..={hi}", self.name);
        self.range = Some((lo, hi));
        self
    }

    /// The least and greatest value the field can take, as far as its
    /// kind and declared range say.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        match &self.kind {
            FieldKind::Bool => Some((0, 1)),
            FieldKind::Category(labels) => Some((0, labels.len() as i64 - 1)),
            FieldKind::Int => self.range,
        }
    }

    /// An integer field.
    pub fn int(name: impl Into<String>, doc: &'static str) -> Self {
        FieldSpec::new(name, FieldKind::Int, doc)
    }

    /// A true/false field.
    pub fn bool(name: impl Into<String>, doc: &'static str) -> Self {
        FieldSpec::new(name, FieldKind::Bool, doc)
    }

    /// The human label of a value of this field.
    pub fn label(&self, value: i64) -> String {
        match &self.kind {
            FieldKind::Bool => (value != 0).to_string(),
            FieldKind::Int => value.to_string(),
            FieldKind::Category(labels) => usize::try_from(value)
                .ok()
                .and_then(|i| labels.get(i))
                .map(|s| s.to_string())
                .unwrap_or_else(|| value.to_string()),
        }
    }
}

/// Which values of a field an event covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pred {
    Eq(i64),
    Ge(i64),
    Le(i64),
}

impl Pred {
    #[inline]
    pub fn holds(self, v: i64) -> bool {
        match self {
            Pred::Eq(x) => v == x,
            Pred::Ge(x) => v >= x,
            Pred::Le(x) => v <= x,
        }
    }
}

/// How a metric is read off the outcome fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MetricKind {
    /// The probability that the field's value satisfies `pred`.
    Prob { field: usize, pred: Pred },
    /// The probability that two fields satisfy their predicates in the
    /// same trial ("A climaxes within 5 rounds"): read off the joint
    /// outcome, which per-field marginals cannot answer.
    Both {
        first: (usize, Pred),
        second: (usize, Pred),
    },
    /// The mean of the field.
    Mean { field: usize },
    /// The standard deviation of the field.
    Sd { field: usize },
}

/// A headline metric.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricSpec {
    pub name: String,
    pub kind: MetricKind,
    pub doc: &'static str,
}

impl MetricSpec {
    pub fn new(name: impl Into<String>, kind: MetricKind, doc: &'static str) -> Self {
        MetricSpec {
            name: name.into(),
            kind,
            doc,
        }
    }

    /// The probability that field `field` satisfies `pred`.
    pub fn prob(name: impl Into<String>, field: usize, pred: Pred, doc: &'static str) -> Self {
        MetricSpec::new(name, MetricKind::Prob { field, pred }, doc)
    }

    /// The mean of field `field`.
    pub fn mean(name: impl Into<String>, field: usize, doc: &'static str) -> Self {
        MetricSpec::new(name, MetricKind::Mean { field }, doc)
    }

    /// The probability that both `(field, pred)` hold in one trial.
    pub fn both(
        name: impl Into<String>,
        first: (usize, Pred),
        second: (usize, Pred),
        doc: &'static str,
    ) -> Self {
        MetricSpec::new(name, MetricKind::Both { first, second }, doc)
    }
}

impl MetricKind {
    /// Whether it needs the joint outcome, not just each field's marginal.
    pub fn is_joint(&self) -> bool {
        matches!(self, MetricKind::Both { .. })
    }

    /// Whether it is a probability (of one field's event, or two at once).
    pub fn is_probability(&self) -> bool {
        matches!(self, MetricKind::Prob { .. } | MetricKind::Both { .. })
    }

    /// The fields it reads.
    pub fn fields(&self) -> Vec<usize> {
        match *self {
            MetricKind::Prob { field, .. }
            | MetricKind::Mean { field }
            | MetricKind::Sd { field } => {
                vec![field]
            }
            MetricKind::Both { first, second } => vec![first.0, second.0],
        }
    }
}

/// Fields and metrics of one mechanic (or one configuration of it). The
/// first metric is the headline that precision mode watches.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    pub fields: Vec<FieldSpec>,
    pub metrics: Vec<MetricSpec>,
}

/// A metric read as one minus another: the probability that a yes/no
/// outcome does not happen (`p_fail` for `p_success`). Derived where it
/// is asked for (odds, `[[expect]]`, charts), so the shipped tables keep
/// their columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Complement {
    /// `p_fail`, `p_false` or `p_not_<what>`.
    pub name: String,
    /// The metric it complements.
    pub of: String,
}

/// The complement's name for a metric `p_<what>`: `p_fail` for
/// `p_success` (the rules' word), `p_false` for `p_true`, else
/// `p_not_<what>`.
pub fn complement_name(metric: &str) -> Option<String> {
    let what = metric.strip_prefix("p_")?;
    Some(match what {
        "success" => "p_fail".into(),
        "true" => "p_false".into(),
        _ => format!("p_not_{what}"),
    })
}

impl Schema {
    /// The complements of this schema's yes/no metrics: every probability
    /// that a true/false field is true (or false). Not for a category
    /// field's value (`p_a_wins` is not "B wins" when scenes can end in
    /// a stalemate) nor for a joint event, whose complement is not one
    /// event of the outcome.
    pub fn complements(&self) -> Vec<Complement> {
        self.metrics
            .iter()
            .filter_map(|m| {
                let MetricKind::Prob { field, pred } = m.kind else {
                    return None;
                };
                let yes_no = matches!(self.fields.get(field)?.kind, FieldKind::Bool)
                    && matches!(pred, Pred::Eq(0 | 1) | Pred::Ge(1) | Pred::Le(0));
                let name = complement_name(&m.name)?;
                let taken = self.metrics.iter().any(|x| x.name == name);
                (yes_no && !taken).then(|| Complement {
                    name,
                    of: m.name.clone(),
                })
            })
            .collect()
    }

    /// The metric a complement is derived from, when `name` is one.
    pub fn complement_of(&self, name: &str) -> Option<String> {
        self.complements()
            .into_iter()
            .find(|c| c.name == name)
            .map(|c| c.of)
    }

    /// Every metric name a scenario may use: the schema's, then the
    /// complements.
    pub fn metric_names(&self) -> Vec<String> {
        self.metrics
            .iter()
            .map(|m| m.name.clone())
            .chain(self.complements().into_iter().map(|c| c.name))
            .collect()
    }

    /// Whether a metric needs the joint outcome, so tallies must keep it.
    pub fn needs_joint(&self) -> bool {
        self.metrics.iter().any(|m| m.kind.is_joint())
    }
}
