use std::os::unix::fs::PermissionsExt;

use super::*;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn a_fifo_and_a_device_are_refused_without_blocking_or_reading() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let err = read_untrusted(&fifo, 1024, Links::Follow)
        .unwrap_err()
        .reason();
    assert!(err.contains("a FIFO, not a regular file"), "{err}");
    let zero = dir.path().join("zero");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let err = read_untrusted(&zero, 1024, Links::Follow)
        .unwrap_err()
        .reason();
    assert!(err.contains("a device, not a regular file"), "{err}");
    let err = read_untrusted(dir.path(), 1024, Links::Follow)
        .unwrap_err()
        .reason();
    assert!(err.contains("a folder"), "{err}");
}

#[test]
fn a_file_is_read_up_to_its_cap_and_refused_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, "x".repeat(10)).unwrap();
    assert_eq!(read_untrusted(&path, 10, Links::Follow).unwrap().len(), 10);
    assert!(matches!(
        read_untrusted(&path, 9, Links::Follow),
        Err(ReadError::TooLarge(9))
    ));
    assert!(matches!(
        read_untrusted(&dir.path().join("none"), 9, Links::Follow),
        Err(ReadError::Missing)
    ));
}

#[test]
fn a_link_is_followed_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::write(&real, "a = 1").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert_eq!(read_untrusted(&link, 100, Links::Follow).unwrap(), "a = 1");
    let err = read_untrusted(&link, 100, Links::Refuse)
        .unwrap_err()
        .reason();
    assert!(err.contains("symlink"), "{err}");
}

#[test]
fn created_folders_are_private_each_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a").join("b").join("c");
    create_private_dir_all(&deep).unwrap();
    for created in [dir.path().join("a"), dir.path().join("a/b"), deep] {
        let mode = std::fs::metadata(&created).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", created.display());
    }
}
