//! A parsed SELECT: what dynoscope translates, and nothing it cannot.

use crate::item::value::AttrValue;

/// One step of a document path: `a.b[2].c` is `[Attr a, Attr b, Index 2, Attr c]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Attr(String),
    Index(u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path(pub Vec<Step>);

impl Path {
    /// The top-level attribute the path starts at.
    pub fn root(&self) -> &str {
        match self.0.first() {
            Some(Step::Attr(name)) => name,
            _ => "",
        }
    }

    /// A path of one attribute name, as key conditions need.
    pub fn single(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Step::Attr(name)] => Some(name),
            _ => None,
        }
    }
}

/// A value in the statement: written literally, or a `?` bound from `--parameters`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Path(Path),
    Value(AttrValue),
    /// The n-th `?` (0-based).
    Param(usize),
    Size(Path),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// The same comparison with its operands swapped: `5 < a` is `a > 5`.
    pub fn flipped(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    BeginsWith,
    Contains,
    AttributeType,
}

impl Func {
    pub fn as_str(self) -> &'static str {
        match self {
            Func::BeginsWith => "begins_with",
            Func::Contains => "contains",
            Func::AttributeType => "attribute_type",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Cmp(Operand, CmpOp, Operand),
    Between(Operand, Operand, Operand),
    In(Operand, Vec<Operand>),
    /// `path IS MISSING` (`missing: true`) or `IS NOT MISSING`.
    Missing(Path, bool),
    Call(Func, Path, Operand),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Asc,
    Desc,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Select {
    /// `None` for `*`.
    pub projection: Option<Vec<Path>>,
    pub table: String,
    pub index: Option<String>,
    pub filter: Option<Expr>,
    pub order_by: Option<(Path, Direction)>,
    /// How many `?` the statement has.
    pub parameters: usize,
}

/// What a statement is, before translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    Select(Select),
    /// INSERT, UPDATE, DELETE, EXISTS or a transaction: the verb, for the refusal.
    Write(String),
}
