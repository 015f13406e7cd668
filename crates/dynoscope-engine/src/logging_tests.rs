//! The log file's path, filter, masking, and how it is opened and rotated.

use super::*;

#[test]
fn path_precedence() {
    let state = || Some(PathBuf::from("/s/dynoscope"));
    let p = |log, state| log_path(log, state).map(|p| p.display().to_string());
    assert_eq!(
        p(Some("/tmp/x.log"), state()).as_deref(),
        Some("/tmp/x.log")
    );
    assert_eq!(p(Some("off"), state()), None);
    assert_eq!(p(Some("OFF"), None), None);
    assert_eq!(
        p(None, state()).as_deref(),
        Some("/s/dynoscope/dynoscope.log")
    );
    assert_eq!(
        p(Some(" "), state()).as_deref(),
        Some("/s/dynoscope/dynoscope.log")
    );
    // No state directory (no home) and no DYNOSCOPE_LOG: no log.
    assert_eq!(p(None, None), None);
}

#[test]
fn other_crates_pass_only_at_warn_and_above() {
    use tracing::callsite::Identifier;
    use tracing::field::FieldSet;
    use tracing::metadata::Kind;
    struct Cs;
    impl tracing::Callsite for Cs {
        fn set_interest(&self, _: tracing::subscriber::Interest) {}
        fn metadata(&self) -> &Metadata<'_> {
            unreachable!()
        }
    }
    static CS: Cs = Cs;
    let meta = |target: &'static str, level: Level| {
        Metadata::new(
            "e",
            target,
            level,
            None,
            None,
            None,
            FieldSet::new(&[], Identifier(&CS)),
            Kind::EVENT,
        )
    };
    assert!(allowed(&meta("dynoscope::aws::read", Level::TRACE)));
    assert!(allowed(&meta("dynoscope", Level::DEBUG)));
    // The engine's and the domain's own crates are dynoscope's too.
    assert!(allowed(&meta(
        "dynoscope_engine::aws::read::segment",
        Level::DEBUG
    )));
    assert!(allowed(&meta(
        "dynoscope_model::query::partiql",
        Level::DEBUG
    )));
    assert!(!allowed(&meta("dynoscopex", Level::DEBUG)));
    assert!(!allowed(&meta("dynoscope_other", Level::DEBUG)));
    for target in [
        "aws_sigv4::http_request",
        "aws_smithy_runtime",
        "hyper",
        "h2",
    ] {
        assert!(!allowed(&meta(target, Level::TRACE)), "{target}");
        assert!(!allowed(&meta(target, Level::DEBUG)), "{target}");
        assert!(!allowed(&meta(target, Level::INFO)), "{target}");
        assert!(allowed(&meta(target, Level::WARN)), "{target}");
        assert!(allowed(&meta(target, Level::ERROR)), "{target}");
    }
}

#[test]
fn lines_are_masked_and_sanitised() {
    let sink = Sink::new(
        LogFile::unrotated(tempfile::tempfile().unwrap()),
        vec![
            "fakeSecretKeyForTest/abcdEFGH".into(),
            "dummy".into(),
            String::new(),
        ],
    );
    let out =
        sink.clean(b"a secret=fakeSecretKeyForTest/abcdEFGH here\nESC \x1b]0;pwned\x07 dummy\n");
    assert_eq!(
        out,
        "a secret=[redacted] here\nESC \\x1b]0;pwned\\x07 dummy\n"
    );
}

#[test]
fn credentials_in_a_url_are_masked() {
    let sink = Sink::new(
        LogFile::unrotated(tempfile::tempfile().unwrap()),
        Vec::new(),
    );
    let out = sink.clean(b"ListTables failed at http://admin:hunter2@127.0.0.1:8000: refused\n");
    assert_eq!(
        out,
        "ListTables failed at http://***@127.0.0.1:8000: refused\n"
    );
}

#[test]
fn events_reach_the_file_through_the_filter() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dynoscope.log");
    let file = LogFile::open(&path, MAX_LOG_BYTES).unwrap();
    let sink = Sink::new(file, vec!["SuperSecretValue123".into()]);
    let subscriber = tracing_subscriber::registry().with(layer(sink, Some("trace")));
    tracing::subscriber::with_default(subscriber, || {
        tracing::info!(target: "dynoscope::aws::read", table = "t\u{1b}[2J", "page");
        tracing::debug!(target: "aws_sigv4::http_request", "canonical request SuperSecretValue123");
        tracing::warn!(target: "hyper", "warned");
        tracing::info!(target: "dynoscope", "leaked SuperSecretValue123");
    });
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("page"), "{text}");
    assert!(!text.contains("canonical request"), "{text}");
    assert!(text.contains("warned"), "{text}");
    assert!(text.contains("leaked [redacted]"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(!text.contains("SuperSecretValue123"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_symlink_is_refused_and_its_target_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere");
    std::fs::write(&target, "precious\n").unwrap();
    let path = dir.path().join("dynoscope.log");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    assert!(LogFile::open(&path, MAX_LOG_BYTES).is_err());
    // A dangling link is refused too: following it would create the target.
    let dangling = dir.path().join("dangling.log");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
    assert!(LogFile::open(&dangling, MAX_LOG_BYTES).is_err());
    assert!(!dir.path().join("nowhere").exists());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    // So is a directory or a FIFO in its place.
    let fifo = dir.path().join("fifo.log");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    assert!(LogFile::open(&fifo, MAX_LOG_BYTES).is_err());
    assert!(LogFile::open(dir.path(), MAX_LOG_BYTES).is_err());
}

#[cfg(unix)]
#[test]
fn the_file_is_private_whatever_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let fresh = dir.path().join("new/dynoscope.log");
    LogFile::open(&fresh, MAX_LOG_BYTES).unwrap();
    assert_eq!(mode(&fresh), 0o600);
    let old = dir.path().join("old.log");
    std::fs::write(&old, "kept\n").unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
    LogFile::open(&old, MAX_LOG_BYTES).unwrap();
    assert_eq!(mode(&old), 0o600);
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept\n");
}

#[test]
fn the_log_rotates_at_start_and_while_running() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dynoscope.log");
    let rotated = dir.path().join("dynoscope.log.1");
    std::fs::write(&path, "x".repeat(150)).unwrap();
    let mut log = LogFile::open(&path, 100).unwrap();
    assert_eq!(std::fs::read_to_string(&rotated).unwrap().len(), 150);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    log.append(&[b'a'; 60]);
    log.append(&[b'b'; 60]);
    // Past 100 bytes: the 120 written are now the rotated file (the 150 are gone).
    assert_eq!(
        std::fs::read_to_string(&rotated).unwrap(),
        format!("{}{}", "a".repeat(60), "b".repeat(60))
    );
    log.append(b"c\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "c\n");
    // Under the size nothing moves.
    drop(log);
    LogFile::open(&path, 100).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "c\n");
}

#[cfg(unix)]
#[test]
fn the_private_opener_appends_at_0600_and_refuses_links_and_non_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let path = dir.path().join("state/audit.jsonl");
    open_private_append(&path)
        .unwrap()
        .write_all(b"one\n")
        .unwrap();
    assert_eq!(mode(&path), 0o600);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Appends, whatever the writer's offset: a second open never truncates or overwrites.
    let mut second = open_private_append(&path).unwrap();
    let mut third = open_private_append(&path).unwrap();
    second.write_all(b"two\n").unwrap();
    third.write_all(b"three\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\nthree\n");
    assert_eq!(mode(&path), 0o600);
    let target = dir.path().join("elsewhere");
    std::fs::write(&target, "precious\n").unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert!(open_private_append(&link).is_err());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    assert!(open_private_append(dir.path()).is_err());
}
