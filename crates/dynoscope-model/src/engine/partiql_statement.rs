//! A PartiQL SELECT a read sends as it is (`ExecuteStatement`): its text and the values of its
//! `?`s travel together, as neither means anything without the other.

use crate::item::value::AttrValue;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartiqlStatement {
    pub text: String,
    /// The values of the text's `?`s, in order.
    pub parameters: Vec<AttrValue>,
}
