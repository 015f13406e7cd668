//! Handing the terminal to the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, on a
//! private temporary file (created 0600, never an existing file), and taking it back after.
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
    let path =
        std::env::temp_dir().join(format!("dynoscope-edit-{}-{edit}.json", std::process::id()));
    let file = TempFile(path.clone());
    write_private(&path, text).map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
    terminal::restore();
    let status = run_editor(&editor_command(), &path);
    let resumed = terminal::resume(terminal);
    let edited = match status {
        Ok(0) => fs::read_to_string(&file.0)
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

struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
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
