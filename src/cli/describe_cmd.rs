//! `describe TABLE [--sample [--max-rcu N]]`: DescribeTable as JSON; with `--sample`, also the
//! synthetic-key advice (which multi-attribute GSI key would replace key values that
//! concatenate attributes the items carry) from the pattern check's spread key sample, priced
//! and said before it is sent, every request reserved under `--max-rcu` by the session guard.
//! Without `--sample` nothing but DescribeTable is sent: describe reads no items to help itself.

use super::args::GlobalArgs;
use super::read_spec::check_guard_flags;
use super::{connect, CliError};
use crate::aws::pattern_check::reader::{Outcome, Reader};
use crate::aws::read::reservation::SessionGuard;
use crate::aws::Engine;
use crate::model::design::synthetic_keys::synthetic_keys;
use crate::model::formats::json::to_safe_json;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

/// `--max-rcu` when not given: a sample is a few pages, not the table.
const DEFAULT_MAX_RCU: f64 = 10.0;

pub async fn run(
    global: &GlobalArgs,
    table: &str,
    sample: bool,
    max_rcu: Option<f64>,
) -> Result<(), CliError> {
    let max_rcu = max_rcu.unwrap_or(DEFAULT_MAX_RCU);
    let guard = match sample {
        true => {
            check_guard_flags(Some(max_rcu), None)?;
            Some(SessionGuard::new(Some(max_rcu), None).expect("a budget is set"))
        }
        false => None,
    };
    let engine = Engine::new(&connect(global).await?).with_session_guard(guard.clone());
    let (info, denied) = engine.describe_table_noting(table).await?;
    if let Some(d) = denied {
        super::say::say(&d.line());
    }
    let Some(guard) = guard else {
        // Names come from the service: escaped like everything else that does.
        println!("{}", to_safe_json(&info, true));
        return Ok(());
    };
    let say = |line: &str| say!("{line}");
    let mut reader = Reader::new(&engine, &info, &say);
    reader.max_rcu = Some(max_rcu);
    let items = match tokio::select! {
        sample = reader.sample(None) => sample?,
        _ = tokio::signal::ctrl_c() => return Err(CliError::new(130, "describe interrupted")),
    } {
        Outcome::Done(sample) => sample.items,
        Outcome::BudgetSpent => {
            return Err(CliError::new(
                2,
                format!(
                    "--max-rcu {} was spent before one item of '{}' was read; raise it",
                    format_units(max_rcu),
                    sanitize(table)
                ),
            ))
        }
    };
    say!(
        "note: read a sample of {} items of '{}' for {} RCU",
        items.len(),
        sanitize(table),
        format_units(guard.spent())
    );
    let advice = synthetic_keys(&info, &items);
    for one in &advice {
        say!("advice: {}", sanitize(&one.message()));
    }
    let mut described =
        serde_json::to_value(&info).map_err(|e| CliError::service(e.to_string()))?;
    described["synthetic_keys"] =
        serde_json::to_value(&advice).map_err(|e| CliError::service(e.to_string()))?;
    println!("{}", to_safe_json(&described, true));
    Ok(())
}
