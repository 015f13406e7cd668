//! ItemFilter and projection expressions evaluated here, on items already read: what a Scan does on
//! the server, done for items that come from elsewhere (an S3 export's files). The semantics
//! follow DynamoDB's documentation: comparisons only between values of one type (numbers by
//! value, strings and binary by their bytes), `<>` true for a missing attribute or another
//! type, sets compared as sets, and the functions of the condition grammar.

use std::cmp::Ordering;

use super::evaluate_parse::Parser;
use super::tokenizer::{tokenize, Cmp, Tok};
use crate::item::number::compare_numbers;
use crate::item::value::{same_value, AttrValue, Item};

/// A compiled FilterExpression.
#[derive(Debug, Clone)]
pub struct ItemFilter {
    condition: Condition,
}

/// A compiled ProjectionExpression: its paths as a tree, so `a.b, a.c` share `a` and a
/// list's projected elements come back in index order, as DynamoDB returns them.
#[derive(Debug, Clone, Default)]
pub struct ItemProjection {
    root: Node,
}

#[derive(Debug, Clone, Default)]
struct Node {
    /// The whole value below here is projected.
    whole: bool,
    children: std::collections::BTreeMap<StepKey, Node>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum StepKey {
    Index(usize),
    Name(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Name(String),
    Index(usize),
}

#[derive(Debug, Clone)]
pub(super) enum Operand {
    Path(Vec<Step>),
    Value(AttrValue),
    Size(Vec<Step>),
}

#[derive(Debug, Clone)]
pub(super) enum Condition {
    Or(Box<Condition>, Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Not(Box<Condition>),
    Compare(Operand, Cmp, Operand),
    Between(Operand, Operand, Operand),
    In(Operand, Vec<Operand>),
    Exists(Vec<Step>),
    NotExists(Vec<Step>),
    Type(Vec<Step>, Operand),
    BeginsWith(Vec<Step>, Operand),
    Contains(Vec<Step>, Operand),
}

pub(super) type Names<'a> = &'a [(String, String)];
pub(super) type Values<'a> = &'a [(String, AttrValue)];

impl ItemFilter {
    pub fn compile(expr: &str, names: Names, values: Values) -> Result<ItemFilter, String> {
        let tokens = tokenize("filter", expr).map_err(|e| e.to_string())?;
        let mut p = Parser {
            tokens: &tokens,
            at: 0,
            names,
            values,
        };
        let condition = p.or()?;
        if p.at != tokens.len() {
            return Err(format!("filter: unexpected '{}'", tokens[p.at].text));
        }
        Ok(ItemFilter { condition })
    }

    pub fn matches(&self, item: &Item) -> bool {
        holds(&self.condition, item)
    }
}

impl ItemProjection {
    pub fn compile(expr: &str, names: Names) -> Result<ItemProjection, String> {
        let tokens = tokenize("projection", expr).map_err(|e| e.to_string())?;
        let mut p = Parser {
            tokens: &tokens,
            at: 0,
            names,
            values: &[],
        };
        let mut projection = ItemProjection::default();
        loop {
            let mut node = &mut projection.root;
            for step in p.path()? {
                let key = match step {
                    Step::Name(n) => StepKey::Name(n),
                    Step::Index(i) => StepKey::Index(i),
                };
                node = node.children.entry(key).or_default();
            }
            node.whole = true;
            if !p.eat(&Tok::Comma) {
                break;
            }
        }
        if p.at != tokens.len() {
            return Err(format!("projection: unexpected '{}'", tokens[p.at].text));
        }
        Ok(projection)
    }

    /// The top-level attributes the projection names (whole, or a path into them).
    pub fn attributes(&self) -> impl Iterator<Item = &str> {
        self.root.children.keys().filter_map(|key| match key {
            StepKey::Name(name) => Some(name.as_str()),
            StepKey::Index(_) => None,
        })
    }

    /// The item with only the projected paths (an item with none of them becomes empty, as
    /// DynamoDB returns it).
    pub fn apply(&self, item: &Item) -> Item {
        let mut out = Vec::new();
        for (key, node) in &self.root.children {
            if let StepKey::Name(name) = key {
                if let Some(v) = item.get(name).and_then(|v| project(node, v)) {
                    out.push((name.clone(), v));
                }
            }
        }
        Item::from_attrs(out)
    }
}

fn project(node: &Node, value: &AttrValue) -> Option<AttrValue> {
    if node.whole {
        return Some(value.clone());
    }
    match value {
        AttrValue::M(map) => {
            let attrs: Vec<_> = node
                .children
                .iter()
                .filter_map(|(key, child)| match key {
                    StepKey::Name(n) => map
                        .get(n)
                        .and_then(|v| project(child, v))
                        .map(|v| (n.clone(), v)),
                    StepKey::Index(_) => None,
                })
                .collect();
            (!attrs.is_empty()).then(|| AttrValue::M(Item::from_attrs(attrs)))
        }
        AttrValue::L(list) => {
            let values: Vec<_> = node
                .children
                .iter()
                .filter_map(|(key, child)| match key {
                    StepKey::Index(i) => list.get(*i).and_then(|v| project(child, v)),
                    StepKey::Name(_) => None,
                })
                .collect();
            (!values.is_empty()).then_some(AttrValue::L(values))
        }
        _ => None,
    }
}

fn resolve<'a>(item: &'a Item, path: &[Step]) -> Option<&'a AttrValue> {
    let Some(Step::Name(first)) = path.first() else {
        return None;
    };
    let mut at = item.get(first)?;
    for step in &path[1..] {
        at = match (step, at) {
            (Step::Name(n), AttrValue::M(m)) => m.get(n)?,
            (Step::Index(i), AttrValue::L(l)) => l.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

fn operand<'a>(op: &'a Operand, item: &'a Item) -> Option<std::borrow::Cow<'a, AttrValue>> {
    use std::borrow::Cow;
    match op {
        Operand::Path(p) => resolve(item, p).map(Cow::Borrowed),
        Operand::Value(v) => Some(Cow::Borrowed(v)),
        Operand::Size(p) => {
            let size = match resolve(item, p)? {
                AttrValue::S(s) => s.len(),
                AttrValue::B(b) => b.len(),
                AttrValue::Ss(v) | AttrValue::Ns(v) => v.len(),
                AttrValue::Bs(v) => v.len(),
                AttrValue::L(v) => v.len(),
                AttrValue::M(m) => m.len(),
                _ => return None,
            };
            Some(Cow::Owned(AttrValue::N(size.to_string())))
        }
    }
}

/// Order of two values of one scalar type; `None` across types or for other types.
fn order(a: &AttrValue, b: &AttrValue) -> Option<Ordering> {
    match (a, b) {
        (AttrValue::N(x), AttrValue::N(y)) => Some(compare_numbers(x, y)),
        (AttrValue::S(x), AttrValue::S(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (AttrValue::B(x), AttrValue::B(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

fn compare(a: Option<&AttrValue>, cmp: Cmp, b: Option<&AttrValue>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return cmp == Cmp::Ne;
    };
    match cmp {
        Cmp::Eq => same_value(a, b),
        Cmp::Ne => !same_value(a, b),
        Cmp::Lt => order(a, b) == Some(Ordering::Less),
        Cmp::Le => matches!(order(a, b), Some(Ordering::Less | Ordering::Equal)),
        Cmp::Gt => order(a, b) == Some(Ordering::Greater),
        Cmp::Ge => matches!(order(a, b), Some(Ordering::Greater | Ordering::Equal)),
    }
}

fn holds(c: &Condition, item: &Item) -> bool {
    fn get<'a>(op: &'a Operand, item: &'a Item) -> Option<std::borrow::Cow<'a, AttrValue>> {
        operand(op, item)
    }
    match c {
        Condition::Or(a, b) => holds(a, item) || holds(b, item),
        Condition::And(a, b) => holds(a, item) && holds(b, item),
        Condition::Not(a) => !holds(a, item),
        Condition::Compare(a, cmp, b) => {
            compare(get(a, item).as_deref(), *cmp, get(b, item).as_deref())
        }
        Condition::Between(x, low, high) => {
            let (Some(x), Some(low), Some(high)) = (get(x, item), get(low, item), get(high, item))
            else {
                return false;
            };
            matches!(order(&x, &low), Some(Ordering::Greater | Ordering::Equal))
                && matches!(order(&x, &high), Some(Ordering::Less | Ordering::Equal))
        }
        Condition::In(x, list) => {
            let Some(x) = get(x, item) else { return false };
            list.iter()
                .any(|v| get(v, item).is_some_and(|v| same_value(&x, &v)))
        }
        Condition::Exists(p) => resolve(item, p).is_some(),
        Condition::NotExists(p) => resolve(item, p).is_none(),
        Condition::Type(p, t) => match (resolve(item, p), get(t, item).as_deref()) {
            (Some(v), Some(AttrValue::S(name))) => v.type_name() == name,
            _ => false,
        },
        Condition::BeginsWith(p, prefix) => {
            match (resolve(item, p), get(prefix, item).as_deref()) {
                (Some(AttrValue::S(s)), Some(AttrValue::S(x))) => s.starts_with(x.as_str()),
                (Some(AttrValue::B(b)), Some(AttrValue::B(x))) => b.starts_with(x),
                _ => false,
            }
        }
        Condition::Contains(p, needle) => match (resolve(item, p), get(needle, item).as_deref()) {
            (Some(AttrValue::S(s)), Some(AttrValue::S(x))) => s.contains(x.as_str()),
            (Some(AttrValue::B(b)), Some(AttrValue::B(x))) => {
                x.is_empty() || b.windows(x.len()).any(|w| w == x.as_slice())
            }
            (Some(AttrValue::Ss(set)), Some(AttrValue::S(x))) => set.contains(x),
            (Some(AttrValue::Ns(set)), Some(AttrValue::N(x))) => {
                set.iter().any(|n| compare_numbers(n, x).is_eq())
            }
            (Some(AttrValue::Bs(set)), Some(AttrValue::B(x))) => set.contains(x),
            (Some(AttrValue::L(list)), Some(x)) => list.iter().any(|v| same_value(v, x)),
            _ => false,
        },
    }
}

#[cfg(test)]
#[path = "evaluate_tests.rs"]
mod tests;
