//! The oracle's two ways of running a statement (dynoscope's Query or Scan, and DynamoDB's own
//! ExecuteStatement) and how their answers are compared.

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use dynoscope::aws::convert::{item_from_sdk, value_to_sdk};
use dynoscope::model::design::collection::dynamo_cmp;
use dynoscope::model::formats::json::append_dynamo_json;
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::query::partiql::{Plan, ReadKind};
use std::collections::HashMap;

fn sdk_values(values: &[(String, AttrValue)]) -> Option<HashMap<String, AttributeValue>> {
    (!values.is_empty()).then(|| {
        values
            .iter()
            .map(|(k, v)| (k.clone(), value_to_sdk(v)))
            .collect()
    })
}

pub struct Read {
    pub items: Vec<Item>,
    pub scanned: u64,
}

pub async fn run_plan(c: &Client, plan: &Plan) -> Result<Read, String> {
    let names: HashMap<String, String> = plan.names.iter().cloned().collect();
    let names = (!names.is_empty()).then_some(names);
    let mut per_request = Vec::new();
    let mut scanned = 0;
    for values in plan.request_values() {
        let mut items = Vec::new();
        let mut start = None;
        loop {
            let page = match plan.kind {
                ReadKind::Query => {
                    let out = c
                        .query()
                        .table_name(&plan.table)
                        .set_index_name(plan.index.clone())
                        .set_key_condition_expression(plan.key_condition.clone())
                        .set_filter_expression(plan.filter.clone())
                        .set_projection_expression(plan.projection.clone())
                        .set_expression_attribute_names(names.clone())
                        .set_expression_attribute_values(sdk_values(&values))
                        .scan_index_forward(!plan.descending)
                        .set_exclusive_start_key(start.take())
                        .send()
                        .await
                        .map_err(|e| format!("{:?}", e.into_service_error()))?;
                    (out.items, out.scanned_count, out.last_evaluated_key)
                }
                ReadKind::Scan => {
                    let out = c
                        .scan()
                        .table_name(&plan.table)
                        .set_index_name(plan.index.clone())
                        .set_filter_expression(plan.filter.clone())
                        .set_projection_expression(plan.projection.clone())
                        .set_expression_attribute_names(names.clone())
                        .set_expression_attribute_values(sdk_values(&values))
                        .set_exclusive_start_key(start.take())
                        .send()
                        .await
                        .map_err(|e| format!("{:?}", e.into_service_error()))?;
                    (out.items, out.scanned_count, out.last_evaluated_key)
                }
            };
            items.extend(page.0.unwrap_or_default().into_iter().map(item_from_sdk));
            scanned += page.1 as u64;
            match page.2 {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => break,
            }
        }
        per_request.push(items);
    }
    Ok(Read {
        items: plan.merge(per_request),
        scanned,
    })
}

/// ExecuteStatement to its end; with `limit`, the number of pages it took instead.
pub async fn execute(
    c: &Client,
    text: &str,
    parameters: &[AttrValue],
    limit: Option<i32>,
) -> Result<(Vec<Item>, usize), String> {
    let mut items = Vec::new();
    let mut token = None;
    let mut pages = 0;
    loop {
        let out = c
            .execute_statement()
            .statement(text)
            .set_parameters(
                (!parameters.is_empty()).then(|| parameters.iter().map(value_to_sdk).collect()),
            )
            .set_limit(limit)
            .set_next_token(token.take())
            .send()
            .await
            .map_err(|e| format!("{:?}", e.into_service_error()))?;
        pages += 1;
        items.extend(out.items.unwrap_or_default().into_iter().map(item_from_sdk));
        match out.next_token {
            Some(t) => token = Some(t),
            None => return Ok((items, pages)),
        }
    }
}

/// Items compared as DynamoDB JSON, with sets in a fixed order (a set has none).
pub fn canonical(item: &Item) -> String {
    fn norm(v: &AttrValue) -> AttrValue {
        match v {
            AttrValue::Ss(x) => AttrValue::Ss({
                let mut x = x.clone();
                x.sort();
                x
            }),
            AttrValue::Ns(x) => AttrValue::Ns({
                let mut x = x.clone();
                x.sort();
                x
            }),
            AttrValue::L(x) => AttrValue::L(x.iter().map(norm).collect()),
            AttrValue::M(m) => AttrValue::M(Item::from_attrs(
                m.iter().map(|(k, v)| (k.to_string(), norm(v))).collect(),
            )),
            other => other.clone(),
        }
    }
    let mut out = String::new();
    append_dynamo_json(
        &mut out,
        &Item::from_attrs(item.iter().map(|(k, v)| (k.to_string(), norm(v))).collect()),
    );
    out
}

pub fn sorted(items: &[Item]) -> Vec<String> {
    let mut all: Vec<String> = items.iter().map(canonical).collect();
    all.sort();
    all
}

/// The order an ORDER BY asks for. One Query: DynamoDB's own order, key for key. Several
/// (an IN or an OR of partition keys): DynamoDB returns them partition by partition, dynoscope
/// merges them in sort-key order as sharded reads are; so each partition's items come in
/// DynamoDB's order, and the whole is in sort-key order (ascending, or descending with DESC).
pub fn in_order(plan: &Plan, ours: &[Item], theirs: &[Item]) -> Result<(), String> {
    let keys = plan.keys.names();
    let key_of = |i: &Item| keys.iter().map(|k| i.get(k).cloned()).collect::<Vec<_>>();
    let pk = &plan.keys.partition_key().name;
    let mut partitions: Vec<Option<AttrValue>> = Vec::new();
    for p in theirs.iter().map(|i| i.get(pk).cloned()) {
        if !partitions.contains(&p) {
            partitions.push(p);
        }
    }
    for p in &partitions {
        let within = |items: &[Item]| {
            items
                .iter()
                .filter(|i| i.get(pk).cloned() == *p)
                .map(key_of)
                .collect::<Vec<_>>()
        };
        if within(ours) != within(theirs) {
            return Err(format!(
                "partition {p:?}: same items in a different sort-key order"
            ));
        }
    }
    let sk = plan.keys.sort_key().map_or("", |k| k.name.as_str());
    let sorted = ours.windows(2).all(|w| {
        let ord = match (w[0].get(sk), w[1].get(sk)) {
            (Some(a), Some(b)) => dynamo_cmp(a, b),
            _ => std::cmp::Ordering::Equal,
        };
        if plan.descending {
            ord != std::cmp::Ordering::Less
        } else {
            ord != std::cmp::Ordering::Greater
        }
    });
    if !sorted {
        return Err(format!(
            "the merged Queries are not in sort-key order: {:?}",
            ours.iter().map(key_of).collect::<Vec<_>>()
        ));
    }
    Ok(())
}
