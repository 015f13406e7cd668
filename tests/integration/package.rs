//! The crates as `cargo package --workspace` would publish them: what building and installing
//! need (the sources, the assets they include, the README, both licence files, the lock file)
//! and none of the tests, their data and snapshots, the benches or the scripts. Runs
//! `cargo package --list`, which builds nothing.

use std::path::Path;
use std::process::Command;

/// The files `cargo package` puts in `package`'s archive, relative to its folder.
fn package_list(package: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args([
            "package",
            "--list",
            "--locked",
            "--allow-dirty",
            "-p",
            package,
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo package --list failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn the_package_holds_what_the_build_needs_and_no_test_data() {
    let files = package_list("dynoscope");
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/main.rs",
        "src/lib.rs",
        // Read with include_str! by the build.
        "assets/demo-patterns.toml",
    ] {
        assert!(
            files.iter().any(|f| f == needed),
            "the package lacks {needed}: {files:?}"
        );
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources = count_rs(&root.join("src"));
    let packaged = files
        .iter()
        .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
        .count();
    assert_eq!(
        packaged, sources,
        "every source file under src/ is packaged"
    );
    let left_out = [
        "tests/",
        "benches/",
        "bench/",
        "docs/",
        "scripts/",
        "examples/",
        ".ci/",
        ".cache/",
    ];
    let stray: Vec<&String> = files
        .iter()
        .filter(|f| {
            left_out.iter().any(|d| f.starts_with(d))
                || f.ends_with(".snap")
                || f.contains("/snapshots/")
        })
        .collect();
    assert!(
        stray.is_empty(),
        "test data, benches or scripts in the package: {stray:?}"
    );
}

/// The layer crates (`crates/dynoscope-model`, `crates/dynoscope-engine`,
/// `crates/dynoscope-explorer`) package their
/// sources and what they include (the model's word list), and nothing else of the repository.
#[test]
fn the_layer_crates_package_their_sources_and_what_they_include() {
    for (package, needs) in [
        ("dynoscope-model", &["assets/reserved-words.txt"][..]),
        ("dynoscope-engine", &[][..]),
        ("dynoscope-explorer", &[][..]),
    ] {
        let files = package_list(package);
        for needed in ["Cargo.toml", "src/lib.rs"].iter().chain(needs) {
            assert!(
                files.iter().any(|f| f == needed),
                "{package}'s package lacks {needed}: {files:?}"
            );
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates")
            .join(package);
        let sources = count_rs(&root.join("src"));
        let packaged = files
            .iter()
            .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
            .count();
        assert_eq!(
            packaged, sources,
            "every source file of {package} is packaged"
        );
        let stray: Vec<&String> = files
            .iter()
            .filter(|f| f.ends_with(".snap") || f.contains("/snapshots/"))
            .collect();
        assert!(
            stray.is_empty(),
            "snapshots in {package}'s package: {stray:?}"
        );
    }
}

fn count_rs(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                count_rs(&p)
            } else {
                usize::from(p.extension().is_some_and(|e| e == "rs"))
            }
        })
        .sum()
}
