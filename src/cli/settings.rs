//! The config file and the access patterns, read once at start-up: the one place that reads
//! them from disk. `app::config` only parses the text.

use std::path::{Path, PathBuf};

use super::args::GlobalArgs;
use super::CliError;
use crate::app::config::{self, Config, ConfigError};
use crate::model::access_pattern::{parse_patterns_file, AccessPattern};
use crate::platform::dirs;

pub struct Settings {
    pub config: Config,
    /// The config file's `[[pattern]]`s, then `--patterns FILE`'s.
    pub patterns: Vec<AccessPattern>,
}

impl Settings {
    pub fn load(global: &GlobalArgs) -> Result<Settings, CliError> {
        let config = match dirs::config_file() {
            Some(path) => read_config_or_default(&path),
            None => Ok(Config::default()),
        }
        .map_err(|e| CliError::bad_input(e.to_string()))?;
        let mut patterns = Vec::new();
        for (i, table) in config.patterns.iter().cloned().enumerate() {
            patterns.push(
                AccessPattern::from_toml(table, i)
                    .map_err(|e| CliError::bad_input(format!("config file: {e}")))?,
            );
        }
        if let Some(path) = &global.patterns {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::bad_input(format!("cannot read patterns file '{shown}': {e}"))
            })?;
            patterns.extend(parse_patterns_file(&text, &shown).map_err(CliError::bad_input)?);
        }
        Ok(Settings { config, patterns })
    }
}

/// The config at `path`; no file there means the defaults.
fn read_config_or_default(path: &Path) -> Result<Config, ConfigError> {
    match std::fs::metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        _ => read_config(path),
    }
}

/// Reads the config file at `path`; a missing file is an error here.
fn read_config(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|err| ConfigError {
        path: PathBuf::from(path),
        line: None,
        message: format!("cannot read it: {err}"),
    })?;
    config::parse(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_default_file_means_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dynoscope").join("config.toml");
        assert_eq!(read_config_or_default(&path), Ok(Config::default()));
        let err = read_config(&path).unwrap_err();
        assert!(err.to_string().contains("cannot read it"), "{err}");
        assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
        assert_eq!(err.line, None);

        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "max_items = 10\n").unwrap();
        assert_eq!(read_config_or_default(&path).unwrap().max_items, Some(10));
        std::fs::write(&path, "max_items = 0\n").unwrap();
        let err = read_config_or_default(&path).unwrap_err();
        assert_eq!(err.path, path);
        assert_eq!(err.line, Some(1));
    }
}
