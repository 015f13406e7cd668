//! The config file and the access patterns, read once at start-up: the one place that reads
//! them from disk. `app::config` only parses the text. Every file read at start-up is read
//! as untrusted, by [`read_start_file`]: only a regular file (a link followed), at most
//! [`MAX_START_FILE_BYTES`], else one line naming the path and the fix.

use std::path::{Path, PathBuf};

use super::args::GlobalArgs;
use super::CliError;
use crate::app::config::{self, Config, ConfigError};
use crate::local_files::{read_untrusted, Links, ReadError};
use crate::model::design::access_pattern::{error_line, parse_patterns_file, AccessPattern};
use crate::platform::dirs;

pub struct Settings {
    pub config: Config,
    /// The config file's `[[pattern]]`s, then `--patterns FILE`'s.
    pub patterns: Vec<AccessPattern>,
}

impl Settings {
    pub fn load(global: &GlobalArgs) -> Result<Settings, CliError> {
        let path = dirs::config_file();
        let (config, text) = match &path {
            Some(path) => read_config_or_default(path),
            None => Ok((Config::default(), String::new())),
        }
        .map_err(|e| CliError::bad_input(e.to_string()))?;
        let shown = path.map(|p| p.display().to_string()).unwrap_or_default();
        let mut patterns: Vec<AccessPattern> = Vec::new();
        for (i, table) in config.patterns.iter().cloned().enumerate() {
            let pattern = AccessPattern::from_toml(table, i).map_err(|e| {
                let line = error_line(&text, i, &e).map(|n| format!(", line {n}"));
                CliError::bad_input(format!(
                    "config file '{shown}'{}: {e}",
                    line.unwrap_or_default()
                ))
            })?;
            if patterns.iter().any(|p| p.name == pattern.name) {
                return Err(CliError::bad_input(format!(
                    "config file '{shown}': access pattern '{}' is declared twice; give each pattern its own name",
                    pattern.name
                )));
            }
            patterns.push(pattern);
        }
        if let Some(file) = &global.patterns {
            let file_shown = file.display().to_string();
            let text = read_start_file("patterns file", file)?.ok_or_else(|| {
                CliError::bad_input(format!(
                    "patterns file '{file_shown}': there is no file there; name an existing file with --patterns"
                ))
            })?;
            for pattern in parse_patterns_file(&text, &file_shown).map_err(CliError::bad_input)? {
                if patterns.iter().any(|p| p.name == pattern.name) {
                    return Err(CliError::bad_input(format!(
                        "patterns file '{file_shown}': access pattern '{}' is also declared in the config file '{shown}'; give each pattern its own name",
                        pattern.name
                    )));
                }
                patterns.push(pattern);
            }
        }
        Ok(Settings { config, patterns })
    }
}

/// A config, patterns or AWS file read at start-up is at most this large (a config of a
/// thousand patterns is a few hundred KB).
pub const MAX_START_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The text of the file at `path` read at start-up, `None` when there is none: a FIFO, a
/// device, a folder or a file past [`MAX_START_FILE_BYTES`] is one line naming `what` and the
/// path, exit 2, without blocking or reading it.
pub fn read_start_file(what: &str, path: &Path) -> Result<Option<String>, CliError> {
    match read_untrusted(path, MAX_START_FILE_BYTES, Links::Follow) {
        Ok(text) => Ok(Some(text)),
        Err(ReadError::Missing) => Ok(None),
        Err(e) => Err(CliError::bad_input(format!(
            "{what} '{}': {}",
            path.display(),
            e.reason()
        ))),
    }
}

/// The config at `path` and its text; no file there means the defaults.
fn read_config_or_default(path: &Path) -> Result<(Config, String), ConfigError> {
    match read_untrusted(path, MAX_START_FILE_BYTES, Links::Follow) {
        Err(ReadError::Missing) => Ok((Config::default(), String::new())),
        read => parsed(path, read),
    }
}

fn parsed(path: &Path, read: Result<String, ReadError>) -> Result<(Config, String), ConfigError> {
    let text = read.map_err(|e| ConfigError {
        path: PathBuf::from(path),
        line: None,
        message: match e {
            ReadError::Missing => "cannot read it: there is no file there".into(),
            e => e.reason(),
        },
    })?;
    Ok((config::parse(&text, path)?, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_default_file_means_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dynoscope").join("config.toml");
        assert_eq!(
            read_config_or_default(&path),
            Ok((Config::default(), String::new()))
        );
        let err = parsed(&path, Err(ReadError::Missing)).unwrap_err();
        assert!(err.to_string().contains("cannot read it"), "{err}");
        assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
        assert_eq!(err.line, None);

        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "max_items = 10\n").unwrap();
        assert_eq!(read_config_or_default(&path).unwrap().0.max_items, Some(10));
        std::fs::write(&path, "max_items = 0\n").unwrap();
        let err = read_config_or_default(&path).unwrap_err();
        assert_eq!(err.path, path);
        assert_eq!(err.line, Some(1));
    }
}
