//! Relationships between item collections, read from the keys themselves.
//!
//! Single-table designs store relationships as keys: a user's collection holds
//! `ORDER#2026-08-27#456`, and the order's own collection is `ORDER#456`; a status GSI holds
//! the same order under `STATUS#SHIPPED`. For one item, [`related_collections`] lists the
//! collections its values name, each with the evidence:
//!
//! 1. **Configured** (`[[relation]]`): a value matching `from` names `to`, always.
//! 2. **Key part**: a value with a segment that is a partition-key prefix seen in the table
//!    (`ORDER` in `ORDER#2026-08-27#456`, or in a GSI sort key `2026-08-27#ORDER#456`) names
//!    `ORDER#<part>` when that collection was seen, or when the part has the shape of the
//!    parts seen after that prefix (`456` like `123`, not `2026-08-27`) and as many parts.
//! 3. **Key**: a whole value that is a collection key seen in some target (a GSI sort key
//!    `PRODUCT#p1` that is also a table partition key).
//! 4. **Value**: a bare value (no separator) names `PREFIX#value` only when that collection
//!    was seen: `userId = u1` links to `USER#u1` once `USER#u1` has been loaded, and a bare
//!    number (`qty = 3`) never links to a collection that was not.
//! 5. **Own key**: the item's own partition key in each target (its GSI collections; its table
//!    collection when reading an index). On a GSI keyed by several partition attributes the
//!    collection is the tuple of the item's values (`WINTER2024 · EU-WEST`), and this is the only
//!    rule that names one: rules 2 to 4 read one value, and one value is never a whole tuple.
//!
//! Rules 2 to 4 are inference and can be turned off (`infer_relations = false`); the collection
//! being viewed is never offered as a link to itself.

mod infer;
mod knowledge;
mod rule;
mod shape;

pub use infer::{related_collections, Evidence, RelatedCollection, RelationInputs, MAX_RELATED};
pub use knowledge::{KeyKnowledge, KindProfile, TargetKeys, MAX_REMEMBERED_KEYS};
pub use rule::{KeyTemplate, RelationRule, RuleError};
pub use shape::shape;
