//! The one mechanism for dynoscope's own files on disk, every one of which another local user
//! or a stray link could have put in the way: a file is opened without blocking on a FIFO
//! (O_NONBLOCK) and judged on the opened handle, so only a regular file is read or written (a
//! FIFO would hang start-up, `/dev/zero` would fill memory); a file read is read through
//! `take(cap + 1)`, so one past its cap is refused without being held; a folder dynoscope
//! creates is private (0700, as XDG asks of the state folder), and the home directory itself is
//! never created. The log, the audit file, the query history, the bulk journals, the config and
//! patterns files all come through here.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Whether a symlink at the path is followed: the config and patterns files a person points
/// at may be links; the files dynoscope writes (the log, the history) never are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Follow,
    Refuse,
}

/// Opens `path` with `options`, without blocking on a FIFO and (with [`Links::Refuse`]) not
/// through a symlink, and hands back the file only when the handle is a regular file.
pub fn open_regular(options: &mut OpenOptions, path: &Path, links: Links) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = match links {
            Links::Follow => 0,
            Links::Refuse => libc::O_NOFOLLOW,
        };
        options.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_name(kind)),
        ));
    }
    Ok(file)
}

/// What a file that is no regular file is, in words.
fn kind_name(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "something other than a file"
    }
}

/// Why an untrusted file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing at the path.
    Missing,
    /// Larger than the cap, in bytes.
    TooLarge(u64),
    /// Not a regular file, a link refused, not UTF-8, or an error of the system: in words.
    Other(String),
}

impl ReadError {
    /// The error as a line's reason, with the fix.
    pub fn reason(&self) -> String {
        match self {
            ReadError::Missing => "there is no file there".into(),
            ReadError::TooLarge(cap) => format!(
                "it is larger than {} bytes, the most dynoscope reads of it; give a smaller file",
                cap
            ),
            ReadError::Other(why) => why.clone(),
        }
    }
}

/// The text of the regular file at `path`, at most `cap` bytes of it.
pub fn read_untrusted(path: &Path, cap: u64, links: Links) -> Result<String, ReadError> {
    let file =
        open_regular(OpenOptions::new().read(true), path, links).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => ReadError::Missing,
            io::ErrorKind::InvalidInput => ReadError::Other(format!("{e}; make it a regular file")),
            _ if links == Links::Refuse && is_link(path) => ReadError::Other(
                "it is a symlink, which dynoscope does not follow here; put a regular file there"
                    .into(),
            ),
            _ => ReadError::Other(format!("cannot read it: {e}")),
        })?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Other(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    String::from_utf8(bytes)
        .map_err(|e| ReadError::Other(format!("it is not UTF-8 text ({e}); save it as UTF-8")))
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Creates `dir` and its missing parents, each private (0700). A missing home directory is
/// not created: a path under `$HOME` when `$HOME` does not exist (a root run with
/// `HOME=/nonexistent`) is an error instead.
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        let home = Path::new(&home);
        if home.is_absolute() && dir.starts_with(home) && !home.exists() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "the home directory '{}' does not exist, and dynoscope does not create it; set HOME (or XDG_STATE_HOME) to a folder that exists",
                    home.display()
                ),
            ));
        }
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Puts `bytes` at `path` whole or not at all: written to a new private (0600) file beside it,
/// synced, then renamed over it, so a crash leaves the old file or the new one, never half of
/// one. Never through a symlink, nor over anything but a regular file; the folder is created
/// private (0700) when missing.
pub fn replace_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(io::Error::other(format!(
            "'{}' is a symlink or not a regular file; dynoscope does not write through it",
            path.display()
        )));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    create_private_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let written = open_regular(&mut options, &temp, Links::Refuse).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}

#[cfg(test)]
#[path = "local_files_tests.rs"]
mod tests;
