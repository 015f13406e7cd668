//! `patterns check`'s synthetic-keys section: from the table's key sample the check read
//! anyway, the key values that concatenate attributes the same items carry and the
//! multi-attribute key that would serve the same patterns without them (see
//! [`synthetic_keys`](crate::design::synthetic_keys)). A section of its own after the
//! patterns' report, so the verdicts stay what they were; empty when there is nothing to say.

use crate::design::synthetic_keys::SyntheticKeyAdvice;
use crate::text::markdown::markdown_cell;
use crate::text::sanitize::sanitize;
use crate::text::wording::thousands;

/// How the section names its basis: every advice counts the same sample.
fn basis(advice: &[SyntheticKeyAdvice]) -> String {
    let read = advice.first().map_or(0, |a| a.read);
    format!(
        "from the {} items of the table's key sample",
        thousands(read as u64)
    )
}

/// The text section (empty without advice): a heading line, then one line each.
pub fn text(advice: &[SyntheticKeyAdvice]) -> String {
    if advice.is_empty() {
        return String::new();
    }
    let mut out = format!("\nsynthetic keys ({}):\n", basis(advice));
    for a in advice {
        out.push_str(&format!("  - {}\n", sanitize(&a.message())));
    }
    out
}

/// The Markdown section (empty without advice), each advice one escaped list item.
pub fn markdown(advice: &[SyntheticKeyAdvice]) -> String {
    if advice.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n### Synthetic keys\n\nAdvice only, {}:\n\n",
        basis(advice)
    );
    for a in advice {
        out.push_str(&format!("- {}\n", markdown_cell(&a.message())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::schema::{KeyAttr, KeySchema, KeyType};

    fn advice(shape: &str) -> SyntheticKeyAdvice {
        SyntheticKeyAdvice {
            index: Some("GSI1".into()),
            replaces: vec!["GSI1PK".into()],
            shapes: vec![shape.into()],
            key: Some(
                KeySchema::new(
                    vec![
                        KeyAttr::new("status", KeyType::S),
                        KeyAttr::new("date", KeyType::S),
                    ],
                    vec![],
                )
                .unwrap(),
            ),
            missing: vec![],
            items: 40,
            of_shape: 41,
            read: 1200,
        }
    }

    #[test]
    fn nothing_to_say_is_no_section() {
        assert_eq!(text(&[]), "");
        assert_eq!(markdown(&[]), "");
    }

    #[test]
    fn each_advice_is_one_line_naming_the_sample_and_item_text_stays_inert() {
        let hostile = advice("STATUS#{status}#{date}\u{1b}]0;x\u{7}|*[a](b)");
        let t = text(std::slice::from_ref(&hostile));
        assert!(t.starts_with("\nsynthetic keys (from the 1,200 items of the table's key sample):\n  - GSI GSI1: GSI1PK = STATUS#{status}#{date}"), "{t}");
        assert!(t.contains("a GSI keyed by status S + date S would serve the same patterns without GSI1PK (40 of the 41 items of that shape, of 1,200 read)"), "{t}");
        assert!(!t.contains('\u{1b}') && !t.contains('\u{7}'), "{t:?}");
        let m = markdown(&[hostile]);
        assert!(
            m.starts_with("\n### Synthetic keys\n\nAdvice only, from the 1,200 items"),
            "{m}"
        );
        assert_eq!(m.lines().filter(|l| l.starts_with("- ")).count(), 1, "{m}");
        assert!(m.contains("\\|\\*\\[a\\](b)"), "{m}");
        assert!(!m.contains('\u{1b}'), "{m:?}");
    }
}
