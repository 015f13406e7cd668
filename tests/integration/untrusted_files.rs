//! Files read at start-up are untrusted: a FIFO at the config file's path, a symlink from it to
//! `/dev/zero`, or a file past the size cap is one error line naming the path, exit 2, at once
//! (before, the FIFO hung start-up and `/dev/zero` grew memory by gigabytes); the same for
//! `--patterns FILE`. The state folder and the parents it creates are private (0700), and a
//! home directory that does not exist is never created.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{aws_env, bin, stderr};

/// Runs dynoscope with `env`, killed after 20 s (a start-up that blocks is a failure, not a
/// hung test).
fn run_briefly(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dynoscope");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "dynoscope {args:?} still running after 20 s: {}",
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// The one line `run` answers with a config file at `path`, under XDG_CONFIG_HOME `home`.
fn refused(args: &[&str], home: &Path, state: &Path) -> String {
    let out = run_briefly(
        args,
        &[
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
            ("XDG_STATE_HOME", state.to_str().unwrap()),
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn a_fifo_a_device_or_a_huge_file_at_the_config_path_is_one_line_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (home, state) = (dir.path().join("config"), dir.path().join("state"));
    let path = home.join("dynoscope").join("config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let shown = path.display().to_string();

    mkfifo(&path);
    let err = refused(&["run", "p"], &home, &state);
    assert!(
        err.contains(&format!("'{shown}'")) && err.contains("FIFO"),
        "{err}"
    );

    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let err = refused(&["run", "p"], &home, &state);
    assert!(
        err.contains(&format!("'{shown}'")) && err.contains("device"),
        "{err}"
    );

    std::fs::remove_file(&path).unwrap();
    std::fs::File::create(&path)
        .unwrap()
        .set_len(64 << 20)
        .unwrap();
    let err = refused(&["run", "p"], &home, &state);
    assert!(
        err.contains(&format!("'{shown}'")) && err.contains("larger than"),
        "{err}"
    );
}

#[test]
fn a_fifo_given_as_the_patterns_file_is_one_line_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("patterns.toml");
    mkfifo(&fifo);
    let err = refused(
        &["--patterns", fifo.to_str().unwrap(), "run", "p"],
        dir.path(),
        &dir.path().join("state"),
    );
    assert!(
        err.contains(&format!("'{}'", fifo.display())) && err.contains("FIFO"),
        "{err}"
    );
}

#[test]
fn the_state_folder_and_the_parents_it_creates_are_private_and_home_is_never_created() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("new").join("state");
    let out = run_briefly(
        &["run", "p"],
        &[
            ("XDG_STATE_HOME", state.to_str().unwrap()),
            ("XDG_CONFIG_HOME", dir.path().to_str().unwrap()),
            // The log (on here, off in the harness) is the first file of the state folder.
            ("DYNOSCOPE_LOG", ""),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(state.join("dynoscope").join("dynoscope.log").is_file());
    for created in [
        dir.path().join("new"),
        state.clone(),
        state.join("dynoscope"),
    ] {
        let mode = std::fs::metadata(&created).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{} is {mode:o}", created.display());
    }

    let home = dir.path().join("no-such-home");
    let out = run_briefly(
        &["run", "p"],
        &[
            ("HOME", home.to_str().unwrap()),
            ("XDG_STATE_HOME", ""),
            ("XDG_CONFIG_HOME", ""),
            ("DYNOSCOPE_LOG", ""),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!home.exists(), "the home directory was created");
}
