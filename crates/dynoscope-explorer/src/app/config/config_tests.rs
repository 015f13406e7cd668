//! The config parser: good files, every kind of mistake on one line, key overrides.

use super::*;
use crate::app::keymap::Action;
use std::path::Path;

const PATH: &str = "/home/u/.config/dynoscope/config.toml";

fn parse_ok(text: &str) -> Config {
    parse(text, Path::new(PATH)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn parses_a_good_config() {
    let text = r#"
price_per_million_reads = 0.25    # USD per million read request units (on-demand)
max_items = 2000000
[keys]
quit = ["q", "ctrl-q"]
copy = "c"
[[entity]]
table = "app"
pattern = "ORDER#{date}#{orderId}"
[[entity]]
pattern = "USER#{id}"
[[pattern]]
table = "app"
name = "orders-by-status"
index = "GSI1"
"#;
    let config = parse_ok(text);
    assert_eq!(config.price_per_million_reads, 0.25);
    assert_eq!(config.max_items, Some(2_000_000));
    let want_keys: BTreeMap<String, Vec<String>> = [
        ("copy".to_owned(), vec!["c".to_owned()]),
        ("quit".to_owned(), vec!["q".to_owned(), "ctrl-q".to_owned()]),
    ]
    .into();
    assert_eq!(config.keys, want_keys);
    assert_eq!(
        config.entities,
        vec![
            EntityConfig {
                table: Some("app".into()),
                pattern: EntityPattern::parse("ORDER#{date}#{orderId}").unwrap(),
            },
            EntityConfig {
                table: None,
                pattern: EntityPattern::parse("USER#{id}").unwrap(),
            },
        ]
    );
    assert_eq!(config.patterns.len(), 1);
    assert_eq!(
        config.patterns[0].get("name").and_then(|v| v.as_str()),
        Some("orders-by-status")
    );
    let kinds = |table: &str| -> Vec<String> {
        config
            .entity_patterns_for(table)
            .iter()
            .map(|p| p.kind().to_owned())
            .collect()
    };
    assert_eq!(kinds("app"), ["ORDER", "USER"]);
    assert_eq!(kinds("other"), ["USER"]);

    // An integer price is accepted too, and the empty file is the defaults.
    assert_eq!(
        parse_ok("price_per_million_reads = 1").price_per_million_reads,
        1.0
    );
    assert_eq!(
        parse_ok("price_per_gb_export = 0.11").price_per_gb_export,
        0.11
    );
    assert_eq!(Config::default().price_per_gb_export, 0.10);
    assert_eq!(parse_ok("live_tail_changes = 5000").live_tail_changes, 5000);
    assert_eq!(parse_ok(""), Config::default());
    assert_eq!(
        Config::default().price_per_million_reads,
        DEFAULT_PRICE_PER_MILLION_READS
    );
}

#[test]
fn module_doc_example_parses() {
    let doc: String = include_str!("mod.rs")
        .lines()
        .skip_while(|l| !l.starts_with("//! ```toml"))
        .skip(1)
        .take_while(|l| !l.starts_with("//! ```"))
        .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
        .collect();
    let config = parse_ok(&doc);
    assert_eq!(config.price_per_million_reads, 0.125);
    assert_eq!(config.entities.len(), 1);
    assert_eq!(config.patterns.len(), 1);
}

#[test]
fn bad_configs_name_file_line_and_culprit() {
    // (config text, line, fragments the one-line message must contain)
    let cases: &[(&str, usize, &[&str])] = &[
        (
            "max_items = 5\n\ncolour = \"red\"\n",
            3,
            &[
                "unknown key 'colour'",
                "expected one of price_per_million_reads, price_per_gb_export, max_items, confirm_scan_rcu, live_tail_changes, keys, entity, pattern",
            ],
        ),
        (
            "[colour]\nx = 1\n",
            1,
            &["unknown key 'colour'", "expected one of"],
        ),
        (
            "\nprice_per_million_reads = -1\n",
            2,
            &["price_per_million_reads must be a number, more than 0, up to 1000 USD, got -1"],
        ),
        (
            "price_per_million_reads = \"cheap\"\n",
            1,
            &["price_per_million_reads", "got \"cheap\""],
        ),
        ("price_per_million_reads = 0\n", 1, &["more than 0", "got 0"]),
        ("price_per_million_reads = 1e300\n", 1, &["up to 1000 USD", "got 1e300"]),
        (
            "price_per_gb_export = 0\n",
            1,
            &["price_per_gb_export must be a number, more than 0, up to 1000 USD, got 0; an export costs 0.10 USD per GB in us-east-1"],
        ),
        ("price_per_gb_export = \"free\"\n", 1, &["price_per_gb_export", "got \"free\""]),
        ("confirm_scan_rcu = -1\n", 1, &["0 to 1000000000000 read units", "got -1"]),
        ("confirm_scan_rcu = nan\n", 1, &["confirm_scan_rcu", "got nan"]),
        ("max_items = 99999999999\n", 1, &["1 to 1000000000 items", "got 99999999999"]),
        (
            "max_items = -5\n",
            1,
            &["max_items must be a whole number, 1 to 1000000000 items, got -5"],
        ),
        ("max_items = 1.5\n", 1, &["max_items", "got 1.5"]),
        (
            "live_tail_changes = 0\n",
            1,
            &["live_tail_changes must be a whole number, 1 to 100000 changes, got 0"],
        ),
        ("live_tail_changes = \"all\"\n", 1, &["live_tail_changes", "got \"all\""]),
        (
            "[keys]\nquit = [\"q\"]\n\n\njump = [\"x\"]\n",
            5,
            &[
                "unknown action 'jump' in [keys]",
                "actions are quit, help, up",
                "tables",
            ],
        ),
        (
            "# keys\n\n\n\n\n[keys]\nquit = [\"q\", \"ctrl-\"]\n",
            7,
            &[
                "bad key 'ctrl-' for action 'quit'",
                "write keys like 'q', 'ctrl-c', 'pagedown'",
            ],
        ),
        (
            "[keys]\nquit = [\n  \"q\",\n  \"hyper-q\",\n]\n",
            4,
            &["bad key 'hyper-q' for action 'quit'"],
        ),
        (
            "[keys]\nquit = [\"q\", 5]\n",
            2,
            &["keys for action 'quit' must be strings", "got 5"],
        ),
        (
            "[keys]\nquit = 5\n",
            2,
            &["quit must be a list of keys like [\"q\", \"ctrl-c\"], got integer `5`"],
        ),
        (
            "[keys]\ncopy = [\"x\"]\nquit = [\"q\", \"x\"]\n",
            3,
            &["key 'x' is bound to both 'copy' and 'quit'"],
        ),
        (
            "[[entity]]\ntable = \"app\"\n\n\n\n\n\n\npattern = \"ORDER#{date\"\n",
            9,
            &["entity pattern 'ORDER#{date' has an unclosed '{'"],
        ),
        (
            "[[entity]]\npattern = \"{tenant}#USER\"\n",
            2,
            &["entity pattern '{tenant}#USER'", "literal kind"],
        ),
        (
            "[[entity]]\npattern = \"ORDER#{id}#{id}\"\n",
            2,
            &["'{id}' twice"],
        ),
        (
            "[[entity]]\npattern = \"USER#{id}\"\ntabel = \"app\"\n",
            3,
            &[
                "unknown key 'tabel' in [[entity]]",
                "expected one of table, pattern",
            ],
        ),
        ("\n[[entity]]\ntable = \"app\"\n", 2, &["missing 'pattern'"]),
        (
            "[[entity]]\npattern = \"USER#{id}\"\n\n[[table]]\nversion_attribute = \"v\"\n",
            4,
            &["[[table]] is missing 'name'; add name = \"...\""],
        ),
        (
            "max_items = 1\nprice_per_million_reads = \n",
            2,
            &["price_per_million_reads ="],
        ),
        ("[keys\nquit = [\"q\"]\n", 1, &["[keys"]),
        ("max_items = 1\nmax_items = 2\n", 2, &["max_items"]),
    ];
    for (text, line, fragments) in cases {
        let err = parse(text, Path::new(PATH)).unwrap_err();
        let shown = err.to_string();
        assert!(!shown.contains('\n'), "multi-line message: {shown:?}");
        let prefix = format!("config file '{PATH}', line {line}: ");
        assert!(shown.starts_with(&prefix), "{text:?}: {shown}");
        assert_eq!(err.line, Some(*line), "{text:?}: {shown}");
        for fragment in *fragments {
            assert!(
                shown.contains(fragment),
                "{text:?}: {shown} lacks {fragment:?}"
            );
        }
    }
}

#[test]
fn key_override_replaces_keys() {
    let config = parse_ok("[keys]\nquit = [\"Q\"]\nload_more = \"j\"\n");
    let keymap = config.keymap().unwrap();
    assert_eq!(keymap.keys_for(Action::Quit), "Q");
    assert_eq!(keymap.keys_for(Action::LoadMore), "j");
    assert_eq!(keymap.keys_for(Action::Down), "down");
    let rows = keymap.help_rows();
    let quit = rows.iter().find(|r| r.action == "quit").unwrap();
    assert_eq!(quit.keys, "Q");
    assert_eq!(quit.help, "Quit dynoscope");
    assert_eq!(Config::default().keymap().unwrap(), Keymap::default());
}

#[test]
fn help_rows_come_from_the_keymap() {
    let rows = parse_ok("").keymap().unwrap().help_rows();
    assert_eq!(rows.len(), Action::ALL.len());
    let back = rows.iter().find(|r| r.action == "back").unwrap();
    assert_eq!(back.keys, "esc");
    assert_eq!(back.help, "Close / go back / cancel the running request");
    let bottom = rows.iter().find(|r| r.action == "bottom").unwrap();
    assert_eq!(bottom.keys, "G, end");
}

#[test]
fn writes_are_allowed_per_profile_or_endpoint_and_tables_name_their_version() {
    let config = parse_ok(
        r#"
[profile.dev]
allow_writes = true
[profile.prod]
allow_writes = false
[endpoint."http://localhost:8000"]
allow_writes = true
[[table]]
name = "app"
version_attribute = "version"
"#,
    );
    assert!(config.allows_writes(Some("dev"), "https://dynamodb.eu-west-1.amazonaws.com"));
    assert!(!config.allows_writes(Some("prod"), "https://dynamodb.eu-west-1.amazonaws.com"));
    assert!(config.allows_writes(None, "http://localhost:8000/"));
    assert!(!config.allows_writes(None, "http://localhost:8001"));
    assert_eq!(config.version_attribute("app"), Some("version"));
    assert_eq!(config.version_attribute("other"), None);
    assert!(!Config::default().allows_writes(Some("dev"), "http://localhost:8000"));
    let err = parse("[profile.dev]\nallow_write = true\n", Path::new(PATH)).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
}

/// The TOML readers (the config file, `--patterns`) stop deep nesting through the toml crate's
/// own recursion limit: one error, never a stack overflow, even on a 2 MB stack (a tokio
/// worker's) in a debug build.
#[test]
fn deeply_nested_toml_is_an_error_not_a_crash() {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            for text in [
                format!("x = {}", "[".repeat(100_000)),
                format!("x = {}", "{a = ".repeat(100_000)),
            ] {
                assert!(parse(&text, std::path::Path::new("config.toml")).is_err());
                assert!(
                    crate::model::design::access_pattern::parse_patterns_file(&text, "p.toml")
                        .is_err()
                );
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
