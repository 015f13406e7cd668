//! ElectroDB's key grammar. ElectroDB writes every key itself, so its keys say what they hold:
//!
//! - partition keys `$<service>#<attr>_<value>#<attr>_<value>…` (`$task-manager#employee_4c78`);
//! - sort keys `$<entity>_<version>#<attr>_<value>…` (`$task_1#project_552-79#employee_8016`),
//!   or, for an entity in a collection, `$<collection>#<entity>_<version>#<attr>_<value>…`;
//!   a collection's own record is the bare `$<entity>_<version>`.
//!
//! Attribute names and values are lower-cased by default (ElectroDB's `casing: "lower"`), so a
//! key names an attribute `firstname` where the item says `firstName`.

use super::decode::{DecodedKey, KeyRole};

/// The key decoded with ElectroDB's grammar, when it is one: a leading `$`, `#` separators,
/// and every segment after the head an `attr_value` pair.
pub fn decode_electrodb(value: &str, role: KeyRole) -> Option<DecodedKey<'_>> {
    let body = value.strip_prefix('$')?;
    let mut segments = body.split('#');
    let head = segments.next().filter(|h| is_name(h))?;
    let rest: Vec<&str> = segments.collect();
    let (kind, composites) = match role {
        KeyRole::Sort => match entity_version(head) {
            Some(entity) => (Some(entity), &rest[..]),
            // `$collection#entity_version#…`
            None => (
                Some(rest.first().and_then(|s| entity_version(s))?),
                &rest[1..],
            ),
        },
        // `$service#…`: the partition key names the service, not the entity.
        KeyRole::Partition => (None, &rest[..]),
    };
    let mut parts = Vec::with_capacity(composites.len());
    let mut names = Vec::with_capacity(composites.len());
    for segment in composites {
        let (name, part) = segment.split_once('_')?;
        if !is_name(name) {
            return None;
        }
        names.push(name);
        parts.push(part);
    }
    Some(DecodedKey { kind, parts, names })
}

/// `task_1` → `task`: an entity name and a numeric version.
fn entity_version(segment: &str) -> Option<&str> {
    let (entity, version) = segment.rsplit_once('_')?;
    (is_name(entity) && !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()))
        .then_some(entity)
}

/// Service, collection, entity and attribute names: identifier-like, starting with a letter.
fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The text before a one-part ElectroDB partition key's value (`$task-manager#employee_` of
/// `$task-manager#employee_4c78`): what a bare `employee` value needs to name that collection.
pub fn electrodb_value_prefix(value: &str) -> Option<&str> {
    let decoded = decode_electrodb(value, KeyRole::Partition)?;
    let [part] = decoded.parts[..] else {
        return None;
    };
    Some(&value[..value.len() - part.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(value: &str, role: KeyRole) -> Option<(Option<&str>, Vec<&str>, Vec<&str>)> {
        decode_electrodb(value, role).map(|d| (d.kind, d.names, d.parts))
    }

    #[test]
    fn reads_the_library_s_keys() {
        use KeyRole::{Partition, Sort};
        assert_eq!(
            decoded("$task_1#project_552-79#employee_8016", Sort),
            Some((
                Some("task"),
                vec!["project", "employee"],
                vec!["552-79", "8016"]
            ))
        );
        assert_eq!(
            decoded("$employee_1", Sort),
            Some((Some("employee"), vec![], vec![]))
        );
        assert_eq!(
            decoded("$workplaces#employee_1#team_red#firstname_ann", Sort),
            Some((
                Some("employee"),
                vec!["team", "firstname"],
                vec!["red", "ann"]
            ))
        );
        assert_eq!(
            decoded("$task-manager#employee_4c78-ab", Partition),
            Some((None, vec!["employee"], vec!["4c78-ab"]))
        );
        // Values may hold `_`: the name ends at the first one.
        assert_eq!(
            decoded("$taskapp#task_t_1", Partition),
            Some((None, vec!["task"], vec!["t_1"]))
        );
        assert_eq!(
            decoded("$taskapp#datehired_2020-01-02t03:04:05z", Partition),
            Some((None, vec!["datehired"], vec!["2020-01-02t03:04:05z"]))
        );
    }

    #[test]
    fn other_keys_are_not_electrodb_s() {
        use KeyRole::{Partition, Sort};
        for value in [
            "USER#1",
            "$",
            "$#x_1",
            "$svc#novalue",
            "$1abc#x_1",
            "price$5",
            "$svc#_x",
        ] {
            assert_eq!(decoded(value, Partition), None, "{value:?}");
        }
        // A sort key names its entity and version.
        assert_eq!(decoded("$svc#employee_x", Sort), None);
        assert_eq!(decoded("$collection", Sort), None);
    }

    #[test]
    fn the_value_prefix_of_a_one_part_partition_key() {
        assert_eq!(
            electrodb_value_prefix("$task-manager#employee_b2ec"),
            Some("$task-manager#employee_")
        );
        assert_eq!(electrodb_value_prefix("$svc#a_1#b_2"), None);
        assert_eq!(electrodb_value_prefix("USER#1"), None);
    }
}
