use super::*;
use crate::app::column_choice::file::{encode, MAX_SCOPES};

fn scope(table: &str, kind: Option<&str>) -> ColumnScope {
    ColumnScope {
        endpoint: "http://127.0.0.1:8000".into(),
        table: table.into(),
        index: None,
        kind: kind.map(String::from),
    }
}

fn hide(name: &str) -> ColumnChoice {
    ColumnChoice {
        order: vec!["total".into(), name.into()],
        hidden: vec![name.into()],
    }
}

#[test]
fn each_save_replaces_its_own_scope_privately_and_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state").join("dynoscope");
    let path = columns_path(&state);
    assert_eq!(load(&path), Ok(Book::new()), "no file: no choices");
    save(&path, scope("app", None), Some(hide("__edb_v__"))).unwrap();
    save(&path, scope("app", Some("ORDER")), Some(hide("GSI1SK"))).unwrap();
    save(&path, scope("orders", None), Some(hide("payload"))).unwrap();
    save(&path, scope("orders", None), None).unwrap();
    let book = load(&path).unwrap();
    assert_eq!(book.len(), 2);
    assert_eq!(book[&scope("app", None)], hide("__edb_v__"));
    assert_eq!(book[&scope("app", Some("ORDER"))], hide("GSI1SK"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&state), 0o700);
    }
    let names: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [COLUMNS_FILE], "no temporary file left");
}

#[test]
fn a_damaged_oversized_or_linked_file_is_one_reason_and_the_next_save_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = columns_path(dir.path());
    let cases: [(&[u8], &str); 3] = [
        (
            b"{\"version\": 1, \"choices\": [",
            "not a column choices file",
        ),
        (b"\xff\xfe not text", "not UTF-8"),
        (b"{\"version\": 7, \"choices\": []}", "version 7"),
    ];
    for (bytes, want) in cases {
        std::fs::write(&path, bytes).unwrap();
        let why = load(&path).unwrap_err();
        assert!(why.contains(want), "{why}");
        let line = warning(&path, &why);
        assert!(
            !line.contains('\n') && line.contains("columns.json"),
            "{line}"
        );
    }
    let big = vec![b' '; MAX_COLUMNS_BYTES as usize + 1];
    std::fs::write(&path, big).unwrap();
    assert!(load(&path).unwrap_err().contains("larger than"));
    save(&path, scope("app", None), Some(hide("x"))).unwrap();
    assert_eq!(load(&path).unwrap().len(), 1);

    #[cfg(unix)]
    {
        let elsewhere = dir.path().join("elsewhere.json");
        std::fs::write(&elsewhere, "{}").unwrap();
        let linked = dir.path().join("linked").join(COLUMNS_FILE);
        std::fs::create_dir(linked.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
        assert!(load(&linked).unwrap_err().contains("symlink"));
        assert!(save(&linked, scope("app", None), None).is_err());
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "{}");
    }
}

#[test]
fn past_the_cap_other_scopes_make_room_for_the_one_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = columns_path(dir.path());
    let mut book = Book::new();
    for n in 0..MAX_SCOPES {
        book.insert(scope(&format!("t{n:05}"), None), hide("x"));
    }
    std::fs::write(&path, encode(&book)).unwrap();
    // Alphabetically first of all: the one a plain cut would have dropped.
    save(&path, scope("a-new-table", None), Some(hide("y"))).unwrap();
    let book = load(&path).unwrap();
    assert_eq!(book.len(), MAX_SCOPES);
    assert_eq!(book[&scope("a-new-table", None)], hide("y"));
    assert!(!book.contains_key(&scope("t00000", None)));
}
