//! Where dynoscope's files live, by the XDG base-directory rules on every platform (the
//! docs/configuration.md documents these paths): `$XDG_CONFIG_HOME` else `~/.config` for the config file,
//! `$XDG_STATE_HOME` else `~/.local/state` for the log, query history and write audit.
//! A relative `XDG_*` value is ignored, as the spec says. One resolver, the `etcetera` crate's.

use std::path::PathBuf;

use etcetera::base_strategy::{BaseStrategy, Xdg};

const APP: &str = "dynoscope";

/// `…/dynoscope/config.toml`; `None` without a home directory.
pub fn config_file() -> Option<PathBuf> {
    Some(Xdg::new().ok()?.config_dir().join(APP).join("config.toml"))
}

/// The AWS shared config file: `AWS_CONFIG_FILE`, else `~/.aws/config`, as the AWS SDK reads
/// it; `None` without a home directory.
pub fn aws_config_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("AWS_CONFIG_FILE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    Some(etcetera::home_dir().ok()?.join(".aws").join("config"))
}

/// The AWS shared credentials file: `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
pub fn aws_credentials_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("AWS_SHARED_CREDENTIALS_FILE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    Some(etcetera::home_dir().ok()?.join(".aws").join("credentials"))
}

/// `…/dynoscope` under the state directory; `None` without a home directory.
pub fn state_dir() -> Option<PathBuf> {
    Some(Xdg::new().ok()?.state_dir()?.join(APP))
}
