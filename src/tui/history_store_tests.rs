use super::*;
use crate::app::state::Field;

fn query(pk: &str) -> HistoryEntry {
    HistoryEntry {
        raw: false,
        partiql: false,
        index: 0,
        op: 0,
        descending: false,
        texts: vec![(Field::Pk, pk.to_string())],
    }
}

#[test]
fn saves_privately_and_atomically_per_table_and_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let path = history_path(&dir.path().join("dynoscope"));
    save(&path, "http://a", "app", &[query("USER#1")]).unwrap();
    save(&path, "http://b", "app", &[query("USER#2")]).unwrap();
    save(
        &path,
        "http://a",
        "app",
        &[query("USER#1"), query("USER#3")],
    )
    .unwrap();
    let book = load(&path);
    assert_eq!(book[&history_key("http://a", "app")].len(), 2);
    assert_eq!(book[&history_key("http://b", "app")], [query("USER#2")]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, [HISTORY_FILE], "no temporary file left");
}

#[cfg(unix)]
#[test]
fn never_reads_or_writes_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere.json");
    std::fs::write(&target, "precious").unwrap();
    let path = dir.path().join(HISTORY_FILE);
    std::os::unix::fs::symlink(&target, &path).unwrap();
    assert!(load(&path).is_empty());
    assert!(save(&path, "http://a", "app", &[query("USER#1")]).is_err());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn the_writer_saves_in_order_and_finishes_before_exit() {
    let dir = tempfile::tempdir().unwrap();
    let path = history_path(dir.path());
    let writer = HistoryWriter::start(path.clone());
    for n in 1..=20 {
        let entries: Vec<HistoryEntry> = (1..=n).map(|i| query(&format!("USER#{i}"))).collect();
        writer.save("http://a".into(), "app".into(), entries);
    }
    writer.finish();
    let book = load(&path);
    assert_eq!(
        book[&history_key("http://a", "app")].len(),
        20,
        "the last write won"
    );
}
