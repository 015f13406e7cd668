//! The AWS shared config and credentials files, checked before connecting. The SDK drops a
//! file it cannot parse and ignores a profile that does not exist, and then takes credentials
//! from the environment: `--profile prod-typo` would run against another account without a
//! word. Both are refused here, naming the files.

use std::path::{Path, PathBuf};

use super::CliError;
use crate::model::formats::aws_profile_file::{profiles_in, ProfileFileKind};
use crate::platform::dirs::{aws_config_file, aws_credentials_file};

/// Checks both files (a missing one is fine), and that `profile` (from `--profile`, else a
/// non-empty `AWS_PROFILE`) is defined in one of them.
pub fn check(flag: Option<&str>) -> Result<(), CliError> {
    let env = std::env::var("AWS_PROFILE").ok().filter(|p| !p.is_empty());
    let chosen = match (flag, env.as_deref()) {
        (Some(p), _) => Some(("--profile", p.to_string())),
        (None, Some(p)) => Some(("AWS_PROFILE", p.to_string())),
        (None, None) => None,
    };
    let files = [
        (aws_config_file(), ProfileFileKind::Config),
        (aws_credentials_file(), ProfileFileKind::Credentials),
    ];
    check_files(chosen, &files)
}

fn check_files(
    chosen: Option<(&str, String)>,
    files: &[(Option<PathBuf>, ProfileFileKind)],
) -> Result<(), CliError> {
    let mut defined: Vec<String> = Vec::new();
    let mut looked: Vec<String> = Vec::new();
    for (path, kind) in files {
        let Some(path) = path else { continue };
        looked.push(format!("'{}'", path.display()));
        let Some(text) = read(path)? else { continue };
        let names = profiles_in(&text, *kind).map_err(|e| {
            CliError::bad_input(format!(
                "AWS {} file '{}', line {}: {}; the AWS SDK ignores a file it cannot read, so fix that line",
                match kind {
                    ProfileFileKind::Config => "config",
                    ProfileFileKind::Credentials => "credentials",
                },
                path.display(),
                e.line,
                e.message
            ))
        })?;
        defined.extend(names);
    }
    match chosen {
        Some((source, profile)) if !defined.contains(&profile) => {
            Err(CliError::bad_input(format!(
                "{source} '{profile}' names no profile in {}; {}",
                if looked.is_empty() {
                    "any AWS config file (no home directory)".to_string()
                } else {
                    looked.join(" or ")
                },
                if defined.is_empty() {
                    "define it there (aws configure --profile NAME)".to_string()
                } else {
                    format!("defined: {}", defined.join(", "))
                }
            )))
        }
        _ => Ok(()),
    }
}

/// The file's text; `None` when there is no file.
fn read(path: &Path) -> Result<Option<String>, CliError> {
    super::settings::read_start_file("the AWS file", path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_looked_up_in_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        let creds = dir.path().join("credentials");
        std::fs::write(&config, "[profile prod]\nregion = eu-west-1\n").unwrap();
        std::fs::write(&creds, "[ci]\naws_access_key_id = x\n").unwrap();
        let files = [
            (Some(config.clone()), ProfileFileKind::Config),
            (Some(creds.clone()), ProfileFileKind::Credentials),
        ];
        for ok in ["prod", "ci"] {
            assert!(check_files(Some(("--profile", ok.into())), &files).is_ok());
        }
        assert!(check_files(None, &files).is_ok());
        let err = check_files(Some(("--profile", "nope".into())), &files).unwrap_err();
        assert_eq!(err.code, 2);
        assert_eq!(
            err.message,
            format!(
                "--profile 'nope' names no profile in '{}' or '{}'; defined: prod, ci",
                config.display(),
                creds.display()
            )
        );
        std::fs::write(&config, "[profile prod\nregion = eu-west-1\n").unwrap();
        let err = check_files(None, &files).unwrap_err();
        assert!(
            err.message.starts_with(&format!(
                "AWS config file '{}', line 1: a section header must end with ']'",
                config.display()
            )),
            "{}",
            err.message
        );
    }
}
