//! `model import FILE [--write]` and `seed --model FILE`: NoSQL Workbench models.

use std::io::Write as _;
use std::path::Path;

use super::args::GlobalArgs;
use super::settings::read_start_file;
use super::{connect_options, CliError};
use crate::app::config;
use crate::aws;
use crate::model::design::access_pattern::AccessPattern;
use crate::model::formats::workbench::{
    imported_config, parse_model, ImportedConfig, WorkbenchModel,
};
use crate::model::text::sanitize::sanitize;
use crate::platform::dirs;

pub(super) fn read_model(file: &Path) -> Result<WorkbenchModel, CliError> {
    let shown = file.display().to_string();
    let text = read_start_file("model file", file)
        .map_err(|e| CliError::bad_input(sanitize(&e.message)))?
        .ok_or_else(|| {
            CliError::bad_input(format!(
                "cannot read model file '{}': there is no file there",
                sanitize(&shown)
            ))
        })?;
    parse_model(&text, &shown).map_err(|e| CliError::bad_input(sanitize(&e.to_string())))
}

/// The config text a model implies, as `model import` prints it.
fn import_text(file: &Path) -> Result<(ImportedConfig, String), CliError> {
    let model = read_model(file)?;
    let imported = imported_config(&model);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = imported.to_toml(model.name.as_deref(), &name);
    Ok((imported, text))
}

pub fn import(file: &Path, write: bool) -> Result<(), CliError> {
    let (imported, text) = import_text(file)?;
    print!("{text}");
    let _ = std::io::stdout().flush();
    if !write {
        return Ok(());
    }
    let path = dirs::config_file().ok_or_else(|| {
        CliError::bad_input("no home directory for the config file; set XDG_CONFIG_HOME or HOME")
    })?;
    let shown = path.display().to_string();
    let existing = read_start_file("config file", &path)
        .map_err(|e| CliError::bad_input(format!("{}; nothing was appended", e.message)))?
        .unwrap_or_default();
    check_duplicates(&existing, &imported, &shown)?;
    let mut combined = existing.clone();
    if !combined.is_empty() && !combined.ends_with('\n') {
        combined.push('\n');
    }
    if !combined.is_empty() {
        combined.push('\n');
    }
    combined.push_str(&text);
    // The file as it would be after appending must still be a config dynoscope accepts.
    let parsed = config::parse(&combined, &path)
        .map_err(|e| CliError::bad_input(format!("{e}; nothing was appended")))?;
    for (i, t) in parsed.patterns.iter().cloned().enumerate() {
        AccessPattern::from_toml(t, i).map_err(|e| {
            CliError::bad_input(format!("config file '{shown}': {e}; nothing was appended"))
        })?;
    }
    if let Some(dir) = path.parent() {
        crate::local_files::create_private_dir_all(dir)
            .map_err(|e| CliError::bad_input(format!("cannot create '{}': {e}", dir.display())))?;
    }
    let appended = &combined[existing.len()..];
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(appended.as_bytes()))
        .map_err(|e| CliError::bad_input(format!("cannot write config file '{shown}': {e}")))?;
    say!(
        "appended {} [[entity]] and {} [[pattern]] entries to '{shown}'",
        imported.entities.len(),
        imported.patterns.len()
    );
    Ok(())
}

/// Refuses entries the config file already has: the same template for the same table, or a
/// pattern of the same name (patterns are run by name).
fn check_duplicates(
    existing: &str,
    imported: &ImportedConfig,
    shown: &str,
) -> Result<(), CliError> {
    if existing.trim().is_empty() {
        return Ok(());
    }
    let raw: toml::Table = toml::from_str(existing).map_err(|e| {
        CliError::bad_input(format!(
            "config file '{shown}' is not valid TOML ({}); fix it first, nothing was appended",
            e.message()
        ))
    })?;
    let tables = |key: &str| -> Vec<toml::Table> {
        raw.get(key)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_table().cloned()).collect())
            .unwrap_or_default()
    };
    let text = |t: &toml::Table, k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let mut duplicates = Vec::new();
    for e in tables("entity") {
        let (table, pattern) = (text(&e, "table"), text(&e, "pattern"));
        if imported.entities.iter().any(|i| {
            Some(&i.template) == pattern.as_ref() && table.as_ref().is_none_or(|t| *t == i.table)
        }) {
            duplicates.push(format!("[[entity]] '{}'", pattern.unwrap_or_default()));
        }
    }
    for p in tables("pattern") {
        let name = text(&p, "name");
        if imported
            .patterns
            .iter()
            .any(|i| Some(&i.name) == name.as_ref())
        {
            duplicates.push(format!("[[pattern]] '{}'", name.unwrap_or_default()));
        }
    }
    match duplicates.as_slice() {
        [] => Ok(()),
        [first, rest @ ..] => Err(CliError::bad_input(format!(
            "config file '{shown}' already has {first}{}; nothing was appended (remove those entries to import again)",
            if rest.is_empty() {
                String::new()
            } else {
                format!(" and {} more", rest.len())
            }
        ))),
    }
}

pub async fn seed(global: &GlobalArgs, file: &Path) -> Result<(), CliError> {
    // The file is checked before anything is sent.
    let model = read_model(file)?;
    let mut options = connect_options(global)?;
    options.local_only = Some("seed");
    let conn = aws::connect(&options).await?;
    aws::seed::ensure_local(&conn, "seed")?;
    let tables: Vec<_> = model
        .tables
        .iter()
        .map(|t| (t.table_info(), t.items.clone()))
        .collect();
    let loaded = aws::seed_model::seed_tables(&conn, &tables).await?;
    for (table, n) in model.tables.iter().zip(loaded) {
        say!(
            "loaded {n} items into '{}' at {}",
            sanitize(&table.name),
            conn.endpoint
        );
    }
    Ok(())
}
