//! A request-log row as the aws-cli command that sends the same request (`Y` in the log):
//! its body exactly as dynoscope sent it, through `--cli-input-json`, so what is pasted into a
//! ticket reproduces the request byte for byte, `ExclusiveStartKey` and `Limit` included.

use super::request_log::RequestRow;
use crate::model::text::shell::shell_word;

/// `aws dynamodb query --cli-input-json '…' --no-paginate --endpoint-url …`, or why the row
/// has no command (a data file's problem, a body not recorded).
pub fn row_command(row: &RequestRow, endpoint: &str) -> Result<String, &'static str> {
    if row.problem.is_some() {
        return Err("this row is an export file's problem, not a request");
    }
    let Some(body) = row.sent.as_deref() else {
        return Err("the request body was not recorded for this row");
    };
    let operation = row.write.unwrap_or(row.operation.as_str());
    let mut command = format!(
        "aws dynamodb {} --cli-input-json {}",
        kebab(operation),
        shell_word(body)
    );
    // One page was one request: without this aws-cli would go on to the next pages.
    if row.write.is_none() {
        command.push_str(" --no-paginate");
    }
    command.push(' ');
    command.push_str(&where_to(endpoint));
    Ok(command)
}

/// `PutItem` → `put-item`, as aws-cli names its commands.
fn kebab(operation: &str) -> String {
    let mut out = String::with_capacity(operation.len() + 4);
    for (i, c) in operation.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `--region us-east-1` for DynamoDB's own endpoint in a region, else `--endpoint-url …` (a
/// local or other endpoint the command would otherwise miss).
fn where_to(endpoint: &str) -> String {
    let host = endpoint
        .strip_prefix("https://")
        .map(|rest| rest.trim_end_matches('/'));
    let region = host
        .and_then(|h| h.strip_prefix("dynamodb."))
        .and_then(|h| {
            h.strip_suffix(".amazonaws.com")
                .or_else(|| h.strip_suffix(".amazonaws.com.cn"))
        })
        .filter(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    match region {
        Some(region) => format!("--region {region}"),
        None => format!("--endpoint-url {}", shell_word(endpoint)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::engine::Operation;
    use crate::model::traffic::capacity::Consumed;
    use std::time::Duration;

    fn read_row(operation: Operation, sent: Option<&str>) -> RequestRow {
        let mut row = RequestRow::from_write(
            1,
            "",
            1,
            Consumed::default(),
            Duration::ZERO,
            &Default::default(),
            sent.map(std::sync::Arc::from),
        );
        row.write = None;
        row.operation = operation;
        row
    }

    #[test]
    fn a_row_is_its_body_as_sent_to_the_same_endpoint() {
        // A bidi override is valid raw in JSON, and must reach the shell as the same bytes.
        let body = "{\"TableName\":\"app\",\"KeyConditionExpression\":\"#k = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"O'Brien\u{202e}\"}}}";
        let row = read_row(Operation::Query, Some(body));
        assert_eq!(
            row_command(&row, "http://127.0.0.1:8000").unwrap(),
            format!(
                "aws dynamodb query --cli-input-json {} --no-paginate --endpoint-url http://127.0.0.1:8000",
                shell_word(body)
            )
        );
        // It goes out as bash's `$'…'` escape of its bytes: the pasted command sends it, and
        // the terminal that shows the command never gets it raw.
        let command = row_command(&row, "http://x").unwrap();
        assert!(command.contains(r"O\'Brien\xe2\x80\xae"), "{command}");
        let scan = read_row(Operation::Scan, Some("{}"));
        assert_eq!(
            row_command(&scan, "https://dynamodb.eu-west-1.amazonaws.com").unwrap(),
            "aws dynamodb scan --cli-input-json '{}' --no-paginate --region eu-west-1"
        );
        let statement = read_row(Operation::Statement, Some("{}"));
        assert!(
            row_command(&statement, "https://dynamodb.us-east-1.amazonaws.com/")
                .unwrap()
                .starts_with("aws dynamodb execute-statement ")
        );
    }

    #[test]
    fn writes_keep_their_operation_and_rows_without_a_body_say_so() {
        let mut write = read_row(Operation::Query, Some("{}"));
        write.write = Some("TransactWriteItems");
        assert_eq!(
            row_command(&write, "https://dynamodb.us-east-1.amazonaws.com").unwrap(),
            "aws dynamodb transact-write-items --cli-input-json '{}' --region us-east-1"
        );
        let unrecorded = read_row(Operation::Scan, None);
        assert!(row_command(&unrecorded, "http://x")
            .unwrap_err()
            .contains("not recorded"));
        // A look-alike host is another endpoint, named as such.
        let row = read_row(Operation::Scan, Some("{}"));
        assert!(
            row_command(&row, "https://dynamodb.evil.example/x.amazonaws.com")
                .unwrap()
                .ends_with("--endpoint-url https://dynamodb.evil.example/x.amazonaws.com")
        );
    }
}
