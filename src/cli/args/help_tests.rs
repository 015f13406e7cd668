//! `--help` reads like aws-cli's and ripgrep's: every option of every subcommand says in one
//! line what it does, and the global options stand under their own heading, after the
//! subcommand's own.

use clap::CommandFactory;

use super::Cli;

/// Every subcommand, nested ones too, with its path (`patterns check`).
fn commands() -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands() {
            let path = format!("{prefix} {}", sub.get_name()).trim().to_string();
            out.push((path.clone(), sub.clone()));
            walk(&path, sub, out);
        }
    }
    let mut cli = Cli::command();
    cli.build();
    let mut out = vec![("dynoscope".to_string(), cli.clone())];
    walk("", &cli, &mut out);
    out
}

#[test]
fn no_option_of_any_subcommand_lacks_a_description() {
    let mut missing = Vec::new();
    for (path, cmd) in commands() {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if arg.is_hide_set() || id == "help" || id == "version" {
                continue;
            }
            let said = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            if said.trim().is_empty() {
                missing.push(format!("{path}: {id}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "options without a description:\n{}",
        missing.join("\n")
    );
}

#[test]
fn global_options_stand_under_their_own_heading_after_the_subcommands_own() {
    for (path, cmd) in commands() {
        // clap's own `help` subcommands take no options.
        if path == "dynoscope" || path.split(' ').any(|word| word == "help") {
            continue;
        }
        let mut cmd = cmd.clone();
        let help = cmd.render_help().to_string();
        let Some(global) = help.find("Global options:") else {
            panic!("{path}: no Global options heading:\n{help}");
        };
        for flag in ["--profile", "--region", "--endpoint-url", "--allow-writes"] {
            let at = help
                .find(&format!("{flag} "))
                .or_else(|| help.find(&format!("{flag}\n")));
            assert!(
                at.is_some_and(|at| at > global),
                "{path}: {flag} before the heading:\n{help}"
            );
        }
    }
}

#[test]
fn every_subcommands_long_help_ends_with_two_examples() {
    for (path, cmd) in commands() {
        if path == "dynoscope" || path.split(' ').any(|word| word == "help") {
            continue;
        }
        let mut cmd = cmd.clone();
        let help = cmd.render_long_help().to_string();
        let examples = help
            .split_once("Examples:\n")
            .unwrap_or_else(|| panic!("{path}: no examples:\n{help}"))
            .1;
        let lines: Vec<&str> = examples
            .lines()
            .filter(|l| l.starts_with("  dynoscope "))
            .collect();
        assert!(lines.len() >= 2, "{path}: {examples}");
        // Each example names this subcommand.
        let name = path.rsplit(' ').next().unwrap();
        assert!(
            lines.iter().all(|l| l.split(' ').any(|w| w == name)),
            "{path}: {examples}"
        );
    }
}
