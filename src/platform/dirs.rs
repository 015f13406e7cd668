//! Where dynoscope's files live, by the XDG base-directory rules on every platform (the
//! README documents these paths): `$XDG_CONFIG_HOME` else `~/.config` for the config file,
//! `$XDG_STATE_HOME` else `~/.local/state` for the log, query history and write audit.
//! A relative `XDG_*` value is ignored, as the spec says. One resolver, the `etcetera` crate's.

use std::path::PathBuf;

use etcetera::base_strategy::{BaseStrategy, Xdg};

const APP: &str = "dynoscope";

/// `…/dynoscope/config.toml`; `None` without a home directory.
pub fn config_file() -> Option<PathBuf> {
    Some(Xdg::new().ok()?.config_dir().join(APP).join("config.toml"))
}

/// `…/dynoscope` under the state directory; `None` without a home directory.
pub fn state_dir() -> Option<PathBuf> {
    Some(Xdg::new().ok()?.state_dir()?.join(APP))
}
