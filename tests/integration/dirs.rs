//! Where dynoscope looks for its config file, by the XDG rules docs/configuration.md states: the file's
//! own error message names the path it read.

use crate::common;

use common::*;

/// Writes a config with a bad value under `dir` and returns where it is.
fn bad_config_in(dir: &std::path::Path) -> String {
    let path = dir.join("dynoscope").join("config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "max_items = 0\n").unwrap();
    path.display().to_string()
}

/// `run` reads the config before anything else; the error names the file it read.
fn config_error(env: &[(&str, &str)]) -> String {
    let out = run_raw(&["run", "no-such-pattern"], env);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    stderr(&out)
}

#[test]
fn the_config_file_follows_xdg_config_home_then_home() {
    let xdg = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let in_xdg = bad_config_in(xdg.path());
    let in_home = bad_config_in(&home.path().join(".config"));
    let (xdg_s, home_s) = (xdg.path().to_str().unwrap(), home.path().to_str().unwrap());

    let err = config_error(&[("XDG_CONFIG_HOME", xdg_s), ("HOME", home_s)]);
    assert!(err.contains(&format!("config file '{in_xdg}'")), "{err}");
    // Empty or relative (the spec says to ignore it): ~/.config.
    for xdg_value in ["", "relative/dir"] {
        let err = config_error(&[("XDG_CONFIG_HOME", xdg_value), ("HOME", home_s)]);
        assert!(
            err.contains(&format!("config file '{in_home}'")),
            "XDG_CONFIG_HOME={xdg_value:?}: {err}"
        );
    }
}

#[path = "untrusted_files.rs"]
mod untrusted_files;
