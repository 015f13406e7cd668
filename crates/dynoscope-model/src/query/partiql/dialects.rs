//! A plan's requests in every spelling a user may paste elsewhere: the request JSON as sent,
//! aws-cli (`query`/`scan`, `execute-statement`), boto3, the AWS SDK for JavaScript v3 and
//! aws-sdk-rust. Each snippet prints the items one DynamoDB JSON object a line.

use super::plan::{Plan, ReadKind};
use crate::formats::json::append_dynamo_json;
use crate::item::value::{AttrValue, Item};
use crate::text::shell::shell_word;

fn dynamo_json(value: &AttrValue) -> serde_json::Value {
    let mut text = String::new();
    append_dynamo_json(
        &mut text,
        &Item::from_attrs(vec![("v".into(), value.clone())]),
    );
    let parsed: serde_json::Value =
        serde_json::from_str(&text).expect("append_dynamo_json writes JSON");
    parsed["v"].clone()
}

fn operation(plan: &Plan) -> &'static str {
    match plan.kind {
        ReadKind::Query => "Query",
        ReadKind::Scan => "Scan",
    }
}

/// Each request as the DynamoDB API takes it (the JSON body of `Query` or `Scan`).
pub fn requests(plan: &Plan) -> Vec<serde_json::Value> {
    plan.request_values()
        .into_iter()
        .map(|values| {
            let mut r = serde_json::Map::new();
            r.insert("TableName".into(), plan.table.clone().into());
            if let Some(i) = &plan.index {
                r.insert("IndexName".into(), i.clone().into());
            }
            for (field, text) in [
                ("KeyConditionExpression", &plan.key_condition),
                ("FilterExpression", &plan.filter),
                ("ProjectionExpression", &plan.projection),
            ] {
                if let Some(t) = text {
                    r.insert(field.into(), t.clone().into());
                }
            }
            if !plan.names.is_empty() {
                let names = plan
                    .names
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                    .collect();
                r.insert(
                    "ExpressionAttributeNames".into(),
                    serde_json::Value::Object(names),
                );
            }
            if !values.is_empty() {
                let values = values
                    .iter()
                    .map(|(k, v)| (k.clone(), dynamo_json(v)))
                    .collect();
                r.insert(
                    "ExpressionAttributeValues".into(),
                    serde_json::Value::Object(values),
                );
            }
            if plan.descending {
                r.insert("ScanIndexForward".into(), false.into());
            }
            r.insert("ReturnConsumedCapacity".into(), "INDEXES".into());
            serde_json::Value::Object(r)
        })
        .collect()
}

/// `aws dynamodb query …` or `aws dynamodb scan …`, one line per request.
pub fn aws_cli(plan: &Plan, limit: Option<usize>) -> String {
    let verb = match plan.kind {
        ReadKind::Query => "query",
        ReadKind::Scan => "scan",
    };
    let mut lines = Vec::new();
    for request in requests(plan) {
        let mut cmd = format!("aws dynamodb {verb}");
        for (field, flag) in [
            ("TableName", "--table-name"),
            ("IndexName", "--index-name"),
            ("KeyConditionExpression", "--key-condition-expression"),
            ("FilterExpression", "--filter-expression"),
            ("ProjectionExpression", "--projection-expression"),
        ] {
            if let Some(text) = request[field].as_str() {
                cmd.push_str(&format!(" {flag} {}", shell_word(text)));
            }
        }
        for (field, flag) in [
            ("ExpressionAttributeNames", "--expression-attribute-names"),
            ("ExpressionAttributeValues", "--expression-attribute-values"),
        ] {
            if !request[field].is_null() {
                cmd.push_str(&format!(
                    " {flag} {}",
                    shell_word(&request[field].to_string())
                ));
            }
        }
        if plan.descending {
            cmd.push_str(" --no-scan-index-forward");
        }
        if let Some(n) = limit {
            cmd.push_str(&format!(" --max-items {n}"));
        }
        cmd.push_str(" --return-consumed-capacity INDEXES");
        lines.push(cmd);
    }
    lines.join("\n")
}

/// `aws dynamodb execute-statement`: the statement as DynamoDB's own PartiQL runs it.
pub fn execute_statement(statement: &str, parameters: &[AttrValue]) -> String {
    let mut cmd = format!(
        "aws dynamodb execute-statement --statement {}",
        shell_word(statement)
    );
    if !parameters.is_empty() {
        let json = serde_json::Value::Array(parameters.iter().map(dynamo_json).collect());
        cmd.push_str(&format!(" --parameters {}", shell_word(&json.to_string())));
    }
    cmd
}

/// The requests as JSON a Python or JavaScript program can embed: no `'` (escaped as \u0027)
/// and no line separators, so it fits a raw string literal of either language.
fn embedded_requests(plan: &Plan) -> String {
    serde_json::Value::Array(requests(plan))
        .to_string()
        .replace('\'', "\\u0027")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

pub fn boto3(plan: &Plan) -> String {
    let method = operation(plan).to_ascii_lowercase();
    format!(
        r#"import json
import boto3

client = boto3.client("dynamodb")
requests = json.loads(r'{requests}')
# Several requests are one Query per key value; dynoscope merges them in sort-key order.
for request in requests:
    for page in client.get_paginator("{method}").paginate(**request):
        for item in page["Items"]:
            print(json.dumps(item))
"#,
        requests = embedded_requests(plan)
    )
}

pub fn javascript(plan: &Plan) -> String {
    let op = operation(plan);
    format!(
        r#"import {{ DynamoDBClient, paginate{op} }} from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({{}});
const requests = JSON.parse(String.raw`{requests}`);
// Several requests are one Query per key value; dynoscope merges them in sort-key order.
for (const request of requests) {{
  for await (const page of paginate{op}({{ client }}, request)) {{
    for (const item of page.Items ?? []) console.log(JSON.stringify(item));
  }}
}}
"#,
        requests = embedded_requests(plan)
            .replace('`', "\\u0060")
            .replace("${", "$\\u007b")
    )
}

fn rust_value(value: &AttrValue) -> String {
    let strings = |items: &[String]| {
        let inner: Vec<String> = items.iter().map(|s| format!("{s:?}.to_string()")).collect();
        format!("vec![{}]", inner.join(", "))
    };
    let blob = |b: &[u8]| format!("Blob::new(vec!{b:?})");
    match value {
        AttrValue::S(s) => format!("AttributeValue::S({s:?}.into())"),
        AttrValue::N(n) => format!("AttributeValue::N({n:?}.into())"),
        AttrValue::B(b) => format!("AttributeValue::B({})", blob(b)),
        AttrValue::Ss(items) => format!("AttributeValue::Ss({})", strings(items)),
        AttrValue::Ns(items) => format!("AttributeValue::Ns({})", strings(items)),
        AttrValue::Bs(items) => format!(
            "AttributeValue::Bs(vec![{}])",
            items.iter().map(|b| blob(b)).collect::<Vec<_>>().join(", ")
        ),
        AttrValue::Bool(b) => format!("AttributeValue::Bool({b})"),
        AttrValue::Null => "AttributeValue::Null(true)".into(),
        AttrValue::L(items) => format!(
            "AttributeValue::L(vec![{}])",
            items.iter().map(rust_value).collect::<Vec<_>>().join(", ")
        ),
        AttrValue::M(item) => format!(
            "AttributeValue::M(HashMap::from([{}]))",
            item.iter()
                .map(|(k, v)| format!("({k:?}.to_string(), {})", rust_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn rust(plan: &Plan) -> String {
    let method = operation(plan).to_ascii_lowercase();
    let mut out = String::from(
        "use aws_sdk_dynamodb::primitives::Blob;\nuse aws_sdk_dynamodb::types::AttributeValue;\nuse std::collections::HashMap;\n\n",
    );
    for values in plan.request_values() {
        out.push_str(&format!("let mut items = client\n    .{method}()\n"));
        out.push_str(&format!("    .table_name({:?})\n", plan.table));
        if let Some(i) = &plan.index {
            out.push_str(&format!("    .index_name({i:?})\n"));
        }
        for (setter, text) in [
            ("key_condition_expression", &plan.key_condition),
            ("filter_expression", &plan.filter),
            ("projection_expression", &plan.projection),
        ] {
            if let Some(t) = text {
                out.push_str(&format!("    .{setter}({t:?})\n"));
            }
        }
        for (k, v) in &plan.names {
            out.push_str(&format!("    .expression_attribute_names({k:?}, {v:?})\n"));
        }
        for (k, v) in &values {
            out.push_str(&format!(
                "    .expression_attribute_values({k:?}, {})\n",
                rust_value(v)
            ));
        }
        if plan.descending {
            out.push_str("    .scan_index_forward(false)\n");
        }
        out.push_str(
            "    .return_consumed_capacity(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Indexes)\n    .into_paginator()\n    .items()\n    .send();\nwhile let Some(item) = items.next().await {\n    println!(\"{:?}\", item?);\n}\n",
        );
    }
    out
}
