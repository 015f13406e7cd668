//! Finding a table's stream: one DescribeTable gives the table's keys and indexes (for GSI
//! attribution) and its latest stream. dynoscope never enables a stream; without one it says
//! how to.

use super::super::describe::table_info;
use super::super::error::EngineError;
use super::super::Connection;
use crate::aws::error::FromSdk;
use crate::model::design::schema::TableInfo;
use crate::model::stream::{Timeline, ViewType};

pub use crate::model::engine::stream::no_stream_message;

#[derive(Debug, Clone)]
pub struct StreamTable {
    pub info: TableInfo,
    pub stream_arn: String,
    pub view_type: Option<ViewType>,
    /// `Live` for a DynamoDB stream; a recorded window for an incremental export's changes.
    pub timeline: Timeline,
}

pub async fn stream_table(conn: &Connection, table: &str) -> Result<StreamTable, EngineError> {
    stream_table_with(&conn.client, &conn.endpoint, table).await
}

/// [`stream_table`] with a client and the endpoint its messages name (the explorer's engine).
pub async fn stream_table_with(
    client: &aws_sdk_dynamodb::Client,
    endpoint: &str,
    table: &str,
) -> Result<StreamTable, EngineError> {
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| EngineError::from_sdk(e, "DescribeTable", Some(table), endpoint))?;
    let desc = out.table.ok_or_else(|| {
        EngineError::service(format!("DescribeTable for '{table}' returned no table"))
    })?;
    let enabled = desc
        .stream_specification
        .as_ref()
        .is_some_and(|s| s.stream_enabled);
    let view_type = desc
        .stream_specification
        .as_ref()
        .and_then(|s| s.stream_view_type.as_ref())
        .and_then(|v| ViewType::parse(v.as_str()));
    let stream_arn = desc.latest_stream_arn.clone().filter(|_| enabled);
    let info = table_info(desc, None).map_err(EngineError::service)?;
    let Some(stream_arn) = stream_arn else {
        return Err(EngineError::bad_input(no_stream_message(&info.name)));
    };
    Ok(StreamTable {
        info,
        stream_arn,
        view_type,
        timeline: Timeline::Live,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_exact_command_on_one_line() {
        let m = no_stream_message("app");
        assert!(!m.contains('\n'));
        assert!(m.ends_with("aws dynamodb update-table --table-name app --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"), "{m}");
    }
}
