//! Handing the terminal to the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, on a
//! private temporary file, and taking it back after. The file lives in a directory of its own
//! with an unpredictable name (`dynoscope-edit-XXXXXX`, mode 0700, made by `tempfile`), so no
//! other local user can plant, block or read it; the directory and only what is in it (the
//! file, an editor's swap file) are removed after.
//! The explorer leaves raw mode and the alternate screen first and redraws everything after,
//! as after a suspension.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::terminal::{self, Term};

/// The editor command, as a shell would run it: it may carry arguments (`code -w`).
pub fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_string())
}

/// Runs the editor on `text` and returns the text it saved. Errors are one line.
pub fn edit(terminal: &mut Term, edit: u64, text: &str) -> Result<String, String> {
    let file = EditFile::create(edit, text)?;
    terminal::restore();
    let status = run_editor(&editor_command(), &file.path);
    let resumed = terminal::resume(terminal);
    let edited = match status {
        Ok(0) => fs::read_to_string(&file.path)
            .map_err(|e| format!("cannot read the edited file back: {e}; the edit was dropped")),
        Ok(code) => Err(format!(
            "the editor '{}' exited with status {code}; the edit was dropped",
            editor_command()
        )),
        Err(e) => Err(format!(
            "cannot run the editor '{}': {e}; set $VISUAL or $EDITOR",
            editor_command()
        )),
    };
    resumed.map_err(|e| format!("cannot take the terminal back: {e}"))?;
    edited
}

/// The file being edited, in a private directory that goes (with what is in it) on drop.
struct EditFile {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl EditFile {
    fn create(edit: u64, text: &str) -> Result<EditFile, String> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("dynoscope-edit-");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o700));
        }
        let dir = builder.tempdir().map_err(|e| {
            format!(
                "cannot create a private directory in '{}': {e}",
                std::env::temp_dir().display()
            )
        })?;
        let path = dir.path().join(format!("item-{edit}.json"));
        write_private(&path, text)
            .map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
        Ok(EditFile { path, _dir: dir })
    }
}

fn write_private(path: &Path, text: &str) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// Runs `editor "$path"` through `sh` and waits. If the editor is stopped (Ctrl-Z in it),
/// the explorer stops too, so the shell sees the job stopped; `fg` continues both.
fn run_editor(editor: &str, path: &Path) -> io::Result<i32> {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(path)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes one int through a valid pointer.
        let rc = unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED) };
        if rc < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if libc::WIFSTOPPED(status) {
            // SAFETY: kill takes no pointers.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGSTOP);
                libc::kill(pid, libc::SIGCONT);
            }
            continue;
        }
        if libc::WIFEXITED(status) {
            return Ok(libc::WEXITSTATUS(status));
        }
        if libc::WIFSIGNALED(status) {
            return Ok(128 + libc::WTERMSIG(status));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_edit_file_is_private_unpredictable_and_only_it_is_removed() {
        // Another user's file at the name the explorer once used is neither a block nor lost.
        let old_name =
            std::env::temp_dir().join(format!("dynoscope-edit-{}-7.json", std::process::id()));
        fs::write(&old_name, "someone else's").unwrap();
        let first = EditFile::create(7, "{\"a\":1}").unwrap();
        let second = EditFile::create(7, "{}").unwrap();
        let dir = first.path.parent().unwrap().to_path_buf();
        assert_ne!(dir, second.path.parent().unwrap());
        assert!(dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("dynoscope-edit-"));
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&first.path), 0o600);
        assert_eq!(fs::read_to_string(&first.path).unwrap(), "{\"a\":1}");
        // An editor's swap file beside it goes with the directory.
        fs::write(dir.join(".item-7.json.swp"), "").unwrap();
        drop(first);
        assert!(!dir.exists());
        assert_eq!(fs::read_to_string(&old_name).unwrap(), "someone else's");
        fs::remove_file(&old_name).unwrap();
    }
}
