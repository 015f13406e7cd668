//! The query form's fields and the sort-key operators it offers.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Index,
    Pk,
    /// The n-th partition attribute of a multi-attribute key (a one-and-one key has `Pk`).
    PkAt(u8),
    /// The n-th sort attribute of a multi-attribute key, an equality unless it is the last
    /// filled one and `Op` chose a range for it.
    SkAt(u8),
    Op,
    Sk,
    SkHigh,
    Order,
    Limit,
    Filter,
    Projection,
    RawKey,
    RawNames,
    RawValues,
    /// The PartiQL statement (PartiQL mode).
    Statement,
    /// The values of the statement's `?` (PartiQL mode): a JSON array, as `--parameters`.
    Parameters,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Index => "index",
            Field::Pk => "partition key",
            Field::PkAt(_) => "partition attr",
            Field::SkAt(_) => "sort attr",
            Field::Op => "sort key op",
            Field::Sk => "sort key",
            Field::SkHigh => "… and",
            Field::Order => "order",
            Field::Limit => "limit",
            Field::Filter => "filter",
            Field::Projection => "projection",
            Field::RawKey => "key condition",
            Field::RawNames => "names (JSON)",
            Field::RawValues => "values (DDB JSON)",
            Field::Statement => "statement",
            Field::Parameters => "parameters",
        }
    }

    /// Choices cycled with ←/→ rather than typed.
    pub fn is_selector(self) -> bool {
        matches!(self, Field::Index | Field::Op | Field::Order)
    }
}

/// Sort-key operators in the order ←/→ cycles them; index 0 means no sort condition.
pub const SORT_OPS: [&str; 8] = [
    "(none)",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "between",
    "begins_with",
];
