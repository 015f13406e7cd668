//! Names DynamoDB and the SDK accept, checked before anything is sent, so a mistake is a
//! one-line refusal naming the value instead of SDK internals (`table_name was missing`) or a
//! failure blamed on something else (an empty region reported as a bad endpoint).

/// DynamoDB's `TableName`: 3 to 255 of `[a-zA-Z0-9_.-]`, or a table ARN (up to 1024 chars).
pub fn check_table_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(
            "the table name is empty; pass a table name ('dynoscope tables' lists them)".into(),
        );
    }
    if name.starts_with("arn:") {
        return if name.len() <= 1024 && name.contains(":table/") {
            Ok(())
        } else {
            Err("not a table ARN DynamoDB accepts (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME, at most 1024 characters)".into())
        };
    }
    if is_resource_name(name) {
        return Ok(());
    }
    Err("not a table name DynamoDB accepts: use 3 to 255 letters, digits, '_', '-' or '.' (or the table's ARN); 'dynoscope tables' lists the names".into())
}

/// DynamoDB's rule for table and index names: 3 to 255 of `[a-zA-Z0-9_.-]`. One rule for every
/// name dynoscope checks or creates (`--table`, a model's tables and indexes), so a name that
/// passes here is not refused by DynamoDB after something else was already sent.
pub fn is_resource_name(name: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    (3..=255).contains(&name.len()) && name.chars().all(allowed)
}

/// An AWS region as the SDK takes it: a host label (letters, digits, '-'), e.g. `us-east-1`.
pub fn check_region(region: &str) -> Result<(), String> {
    if region.is_empty() {
        return Err("the region is empty; pass one such as --region us-east-1".into());
    }
    let label = region.len() <= 63
        && region
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !region.starts_with('-')
        && !region.ends_with('-');
    if label {
        Ok(())
    } else {
        Err(
            "not a region name (letters, digits and '-'); pass one such as --region us-east-1"
                .into(),
        )
    }
}

/// `--columns a,b,c` as attribute names; none at all is refused.
pub fn parse_columns(text: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = text
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    if names.is_empty() {
        return Err(
            "names no attribute; pass attribute names separated by commas, e.g. --columns PK,SK,status"
                .into(),
        );
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_follow_dynamodb() {
        for ok in [
            "app",
            "a.b-c_d",
            &"x".repeat(255),
            "arn:aws:dynamodb:us-east-1:123456789012:table/app",
        ] {
            assert_eq!(check_table_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "a b",
            "tab\u{1b}le",
            &"x".repeat(256),
            "app/x",
            "arn:aws:s3:::b",
        ] {
            assert!(check_table_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_table_name("").unwrap_err().contains("empty"));
    }

    #[test]
    fn regions_are_host_labels() {
        assert_eq!(check_region("us-east-1"), Ok(()));
        assert_eq!(check_region("local"), Ok(()));
        for bad in ["", " us-east-1", "us_east_1", "-x", "eu.west"] {
            assert!(check_region(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn columns_need_a_name() {
        assert_eq!(parse_columns(" PK , ,SK").unwrap(), ["PK", "SK"]);
        assert!(parse_columns("").is_err());
        assert!(parse_columns(" , ").is_err());
    }
}
