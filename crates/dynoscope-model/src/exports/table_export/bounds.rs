//! What an export's files may make a reader read, and where: every key resolves inside the
//! export's own folder (or prefix), and every read of a manifest or a line has a byte cap, so
//! a hostile `manifest-files.json` names no file outside the export and a gzip bomb is an
//! integrity line, not an out-of-memory kill.

/// DynamoDB's largest item: 400 KB of attribute names and values.
pub const ITEM_MAX_BYTES: usize = 400 * 1024;

/// The longest line a data file can hold, with its newline. Derivation: a line is one record,
/// and an incremental export's record carries two images (`NewImage`, `OldImage`) of at most
/// [`ITEM_MAX_BYTES`] each, plus `Keys` and `Metadata`. The format's worst case per byte of
/// item size is an empty string in a list, 1 byte of item size (its element overhead) written
/// as `{"S":""},` (9 bytes in DynamoDB JSON, 3 as Ion `"",`); a control character in a string
/// is 1 byte written as `\u0001` (6). So 10 bytes of line per byte of item bounds both
/// formats: 2 × 400 KB × 10 = 8,000 KiB, and 64 KiB more for keys, metadata and wrapping.
pub const LINE_MAX_BYTES: usize = 2 * ITEM_MAX_BYTES * 10 + 64 * 1024;

// Two largest items at the worst expansion fit, and a reader thread's line stays small.
const _: () = assert!(LINE_MAX_BYTES >= 2 * ITEM_MAX_BYTES * 9 + 2048);
const _: () = assert!(LINE_MAX_BYTES < 16 * 1024 * 1024);

/// The largest manifest read. `manifest-files.json` holds one line of about 250 bytes per data
/// file (DynamoDB writes files of up to a few hundred MB), so 64 MiB is over 250,000 files, a
/// table of many terabytes; `manifest-summary.json` is under 2 KB.
pub const MANIFEST_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// `relative` (a key below the export's folder, as [`super::DataFile::relative_key`] gives
/// it, or a manifest's name) when it stays inside the folder, else why not: an absolute key
/// or a `..` segment would leave it on disk, and under an S3 prefix name another one's
/// objects. Symlinks are the disk reader's to check (it sees the file system).
pub fn confined(relative: &str) -> Result<&str, String> {
    if relative.is_empty() {
        return Err("it is empty".into());
    }
    let drive = relative
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        && relative.as_bytes().get(1) == Some(&b':');
    if relative.starts_with(['/', '\\']) || drive {
        return Err("it is absolute".into());
    }
    if relative.split(['/', '\\']).any(|segment| segment == "..") {
        return Err("it climbs out with '..'".into());
    }
    if relative.contains('\0') {
        return Err("it holds a NUL byte".into());
    }
    Ok(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_leave_the_folder_are_refused() {
        assert_eq!(confined("data/a.json.gz"), Ok("data/a.json.gz"));
        assert_eq!(confined("data/..a.json.gz"), Ok("data/..a.json.gz"));
        for (key, why) in [
            ("/etc/passwd", "absolute"),
            ("\\etc", "absolute"),
            ("C:\\x", "absolute"),
            ("../x.json.gz", "'..'"),
            ("data/../../x.json.gz", "'..'"),
            ("data\\..\\..\\x", "'..'"),
            ("data/..", "'..'"),
            ("", "empty"),
            ("data/a\0b", "NUL"),
        ] {
            let err = confined(key).unwrap_err();
            assert!(err.contains(why), "{key:?}: {err}");
        }
    }
}
