//! ListTables and DescribeTable, turned into the model's `TableInfo`.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, KeySchemaElement, KeyType as SdkKeyType, ProjectionType,
    ScalarAttributeType, TableDescription,
};

use std::collections::HashSet;
use std::future::Future;

use aws_sdk_dynamodb::error::ProvideErrorMetadata;

use super::error::EngineError;
use super::Engine;
use crate::aws::error::FromSdk;
use crate::model::design::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo, Throughput,
};
use crate::model::engine::permission::{is_access_denied, Denied};
use crate::model::text::sanitize::sanitize;

impl Engine {
    /// Every table name, following `LastEvaluatedTableName` through all pages.
    pub async fn list_tables(&self) -> Result<Vec<String>, EngineError> {
        all_table_names(&self.endpoint, |start| async move {
            let out = self
                .client
                .list_tables()
                .set_exclusive_start_table_name(start)
                .send()
                .await
                .map_err(|e| EngineError::from_sdk(e, "ListTables", None, &self.endpoint))?;
            Ok((
                out.table_names.unwrap_or_default(),
                out.last_evaluated_table_name,
            ))
        })
        .await
    }

    pub async fn describe_table(&self, table: &str) -> Result<TableInfo, EngineError> {
        self.describe_table_noting(table)
            .await
            .map(|(info, _)| info)
    }

    /// DescribeTable's answer as the SDK gives it (for what `TableInfo` leaves out, such as
    /// the table's ARN).
    pub(super) async fn table_description(
        &self,
        table: &str,
    ) -> Result<Option<aws_sdk_dynamodb::types::TableDescription>, EngineError> {
        let out = self
            .client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| EngineError::from_sdk(e, "DescribeTable", Some(table), &self.endpoint))?;
        Ok(out.table)
    }

    /// [`describe_table`](Self::describe_table), and the permission whose denial cost the
    /// TTL attribute, if one did (TTL lives behind its own API; a missing permission for it
    /// must not hide the table).
    pub async fn describe_table_noting(
        &self,
        table: &str,
    ) -> Result<(TableInfo, Option<Denied>), EngineError> {
        let desc = self.table_description(table).await?.ok_or_else(|| {
            EngineError::service(format!("DescribeTable for '{table}' returned no table"))
        })?;
        let mut denied = None;
        let ttl = match self
            .client
            .describe_time_to_live()
            .table_name(table)
            .send()
            .await
        {
            Ok(o) => o.time_to_live_description,
            Err(e) => {
                if e.as_service_error()
                    .and_then(|s| s.code())
                    .is_some_and(is_access_denied)
                {
                    denied = Some(Denied::new(
                        "dynamodb:DescribeTimeToLive",
                        "the TTL attribute",
                    ));
                }
                None
            }
        }
        .filter(|d| d.time_to_live_status.as_ref().map(|s| s.as_str()) == Some("ENABLED"))
        .and_then(|d| d.attribute_name);
        let info = table_info(desc, ttl).map_err(EngineError::service)?;
        Ok((info, denied))
    }
}

/// Follows `LastEvaluatedTableName` from page to page (`page` fetches the names after a start
/// and the next start). A server that gives a start it gave before, the same name again or a
/// cycle, would be followed forever: that is a service error instead.
async fn all_table_names<F, Fut>(endpoint: &str, mut page: F) -> Result<Vec<String>, EngineError>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(Vec<String>, Option<String>), EngineError>>,
{
    let mut names = Vec::new();
    let mut starts = HashSet::new();
    let mut start = None;
    loop {
        let (page_names, next) = page(start.take()).await?;
        names.extend(page_names);
        match next {
            None => return Ok(names),
            Some(next) if starts.contains(&next) => {
                return Err(EngineError::service(format!(
                    "ListTables at {endpoint} returned LastEvaluatedTableName '{}' a second time; stopped after {} names instead of asking forever",
                    sanitize(&next),
                    names.len()
                )))
            }
            Some(next) => {
                starts.insert(next.clone());
                start = Some(next);
            }
        }
    }
}

pub(super) fn table_info(
    desc: TableDescription,
    ttl_attribute: Option<String>,
) -> Result<TableInfo, String> {
    let name = desc.table_name.clone().unwrap_or_default();
    let defs = desc.attribute_definitions.clone().unwrap_or_default();
    let keys = key_schema(desc.key_schema.as_deref().unwrap_or_default(), &defs)
        .ok_or_else(|| format!("table '{name}' has no readable key schema"))?;
    let mut indexes = Vec::new();
    for gsi in desc.global_secondary_indexes.unwrap_or_default() {
        let Some(keys) = key_schema(gsi.key_schema.as_deref().unwrap_or_default(), &defs) else {
            continue;
        };
        indexes.push(IndexInfo {
            name: gsi.index_name.unwrap_or_default(),
            kind: IndexKind::Gsi,
            keys,
            projection: projection(gsi.projection.as_ref()),
            provisioned: gsi.provisioned_throughput.as_ref().and_then(throughput),
            item_count: gsi.item_count,
            size_bytes: gsi.index_size_bytes,
        });
    }
    for lsi in desc.local_secondary_indexes.unwrap_or_default() {
        let Some(keys) = key_schema(lsi.key_schema.as_deref().unwrap_or_default(), &defs) else {
            continue;
        };
        indexes.push(IndexInfo {
            name: lsi.index_name.unwrap_or_default(),
            kind: IndexKind::Lsi,
            keys,
            projection: projection(lsi.projection.as_ref()),
            provisioned: None,
            item_count: lsi.item_count,
            size_bytes: lsi.index_size_bytes,
        });
    }
    let billing_mode = desc
        .billing_mode_summary
        .as_ref()
        .and_then(|b| b.billing_mode.as_ref())
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| "PROVISIONED".to_string());
    let provisioned = desc.provisioned_throughput.as_ref().and_then(throughput);
    let stream = desc.stream_specification.as_ref().and_then(|s| {
        s.stream_enabled.then(|| {
            s.stream_view_type
                .as_ref()
                .map(|v| v.as_str().to_string())
                .unwrap_or_default()
        })
    });
    let on_demand_max = desc
        .on_demand_throughput
        .as_ref()
        .filter(|_| billing_mode == "PAY_PER_REQUEST")
        .and_then(|o| {
            crate::model::design::schema::OnDemandMax::of(
                o.max_read_request_units,
                o.max_write_request_units,
            )
        });
    Ok(TableInfo {
        name,
        status: desc
            .table_status
            .map(|s| s.as_str().to_string())
            .unwrap_or_default(),
        keys,
        indexes,
        provisioned: provisioned.filter(|_| billing_mode == "PROVISIONED"),
        billing_mode,
        item_count: desc.item_count.unwrap_or(0),
        size_bytes: desc.table_size_bytes.unwrap_or(0),
        ttl_attribute,
        stream,
        on_demand_max,
    })
}

/// The key as DescribeTable lists it: every `HASH` element, then every `RANGE` element, each in
/// the order given (a multi-attribute GSI lists up to four of each). `None` when an element's
/// type is not among the attribute definitions or the list is not a key DynamoDB would hold.
fn key_schema(elements: &[KeySchemaElement], defs: &[AttributeDefinition]) -> Option<KeySchema> {
    let attrs = |wanted: SdkKeyType| -> Option<Vec<KeyAttr>> {
        elements
            .iter()
            .filter(|e| e.key_type == wanted)
            .map(|e| {
                let name = e.attribute_name.clone();
                let key_type = match defs
                    .iter()
                    .find(|d| d.attribute_name == name)?
                    .attribute_type
                {
                    ScalarAttributeType::N => KeyType::N,
                    ScalarAttributeType::B => KeyType::B,
                    _ => KeyType::S,
                };
                Some(KeyAttr { name, key_type })
            })
            .collect()
    };
    KeySchema::new(attrs(SdkKeyType::Hash)?, attrs(SdkKeyType::Range)?).ok()
}

fn projection(p: Option<&aws_sdk_dynamodb::types::Projection>) -> Projection {
    Projection {
        projection_type: p
            .and_then(|p| p.projection_type.as_ref())
            .unwrap_or(&ProjectionType::All)
            .as_str()
            .to_string(),
        non_key_attributes: p
            .and_then(|p| p.non_key_attributes.clone())
            .unwrap_or_default(),
    }
}

fn throughput(t: &aws_sdk_dynamodb::types::ProvisionedThroughputDescription) -> Option<Throughput> {
    let (r, w) = (
        t.read_capacity_units.unwrap_or(0),
        t.write_capacity_units.unwrap_or(0),
    );
    // On-demand tables report 0/0 here.
    (r > 0 || w > 0).then_some(Throughput {
        read_capacity_units: r,
        write_capacity_units: w,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One page: its names and the next start.
    type Page<'a> = (&'a [&'a str], Option<&'a str>);

    /// Pages answered in order; empty once they run out.
    async fn list(pages: &[Page<'_>]) -> (Result<Vec<String>, EngineError>, usize) {
        let mut asked = 0;
        let result = all_table_names("http://127.0.0.1:8000", |_start| {
            let answer = pages.get(asked).map(|(names, next)| {
                (
                    names.iter().map(|n| n.to_string()).collect(),
                    next.map(str::to_string),
                )
            });
            asked += 1;
            async move { Ok(answer.unwrap_or_default()) }
        })
        .await;
        (result, asked)
    }

    #[tokio::test]
    async fn pages_are_followed_to_the_end() {
        let (names, asked) =
            list(&[(&["a", "b"], Some("b")), (&["c"], Some("c")), (&[], None)]).await;
        assert_eq!(names.unwrap(), ["a", "b", "c"]);
        assert_eq!(asked, 3);
    }

    #[tokio::test]
    async fn a_start_given_twice_is_an_error_not_a_loop() {
        // (pages, requests until the repeat is seen)
        let cases: [(&[Page], usize); 3] = [
            // The same last name every time.
            (
                &[
                    (&["a"], Some("a")),
                    (&["a"], Some("a")),
                    (&["a"], Some("a")),
                ],
                2,
            ),
            // A cycle.
            (
                &[
                    (&["a"], Some("a")),
                    (&["b"], Some("b")),
                    (&["a"], Some("a")),
                ],
                3,
            ),
            // An escape sequence in the repeated name is shown escaped.
            (
                &[
                    (&[], Some("x\u{1b}]0;t\u{7}")),
                    (&[], Some("x\u{1b}]0;t\u{7}")),
                ],
                2,
            ),
        ];
        for (pages, requests) in cases {
            let (result, asked) = list(pages).await;
            let err = result.unwrap_err();
            assert_eq!(err.class, crate::aws::ErrorClass::Service);
            assert!(err.message.contains("a second time"), "{err:?}");
            assert!(!err.message.contains('\u{1b}'), "{err:?}");
            assert_eq!(asked, requests, "stopped at the repeat");
        }
    }
}
