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

/// One outcome field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSpec {
    pub name: String,
    pub kind: FieldKind,
    pub doc: &'static str,
}

impl FieldSpec {
    pub fn new(name: impl Into<String>, kind: FieldKind, doc: &'static str) -> Self {
        FieldSpec {
            name: name.into(),
            kind,
            doc,
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

/// How a metric is read off one field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MetricKind {
    /// The probability that the field's value satisfies `pred`.
    Prob { field: usize, pred: Pred },
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
}

/// Fields and metrics of one mechanic (or one configuration of it). The
/// first metric is the headline that precision mode watches.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    pub fields: Vec<FieldSpec>,
    pub metrics: Vec<MetricSpec>,
}
