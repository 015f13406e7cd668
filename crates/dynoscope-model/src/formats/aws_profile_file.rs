//! The syntax of the AWS shared config and credentials files, checked the way the SDK's
//! parser reads them (aws-runtime `env_config/parse.rs`): the SDK drops a file it cannot
//! parse without a word, so a typo in `~/.aws/config` silently switched profiles off. Pure:
//! the engine reads the files.

/// Which of the two files: their sections name profiles differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileFileKind {
    /// `~/.aws/config`: `[default]` and `[profile NAME]`.
    Config,
    /// `~/.aws/credentials`: `[NAME]`.
    Credentials,
}

/// Where a file stops being one the SDK reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileSyntaxError {
    /// 1-based.
    pub line: usize,
    pub message: &'static str,
}

const COMMENT: &[char] = &['#', ';'];
const WHITESPACE: &[char] = &[' ', '\t'];

/// The profile names a file defines, or the first line the SDK's parser refuses.
pub fn profiles_in(text: &str, kind: ProfileFileKind) -> Result<Vec<String>, ProfileSyntaxError> {
    let mut names: Vec<String> = Vec::new();
    // (in a section, a property seen in it)
    let mut state: Option<bool> = None;
    for (n, line) in text.lines().enumerate() {
        let fail = |message| {
            Err(ProfileSyntaxError {
                line: n + 1,
                message,
            })
        };
        if line.trim_matches(WHITESPACE).is_empty() || line.starts_with(COMMENT) {
            continue;
        }
        if line.starts_with('[') {
            let Some(section) = strip_comment(line, false)
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
            else {
                return fail("a section header must end with ']'");
            };
            state = Some(false);
            if let Some(name) = profile_of(section.trim_matches(WHITESPACE), kind) {
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
        } else if line.starts_with(WHITESPACE) {
            match state {
                None => return fail("a line before the first [section]"),
                Some(false) => return fail("an indented line continues no property"),
                Some(true) => {}
            }
        } else {
            if state.is_none() {
                return fail("a property before the first [section]");
            }
            let Some((name, _)) = strip_comment(line, true).split_once('=') else {
                return fail("a property line without '=' (expected name = value)");
            };
            if name.trim_matches(WHITESPACE).is_empty() {
                return fail("a property without a name");
            }
            state = Some(true);
        }
    }
    Ok(names)
}

fn profile_of(section: &str, kind: ProfileFileKind) -> Option<&str> {
    let name = match kind {
        ProfileFileKind::Credentials => section,
        ProfileFileKind::Config if section == "default" => section,
        ProfileFileKind::Config => section
            .strip_prefix("profile")
            .filter(|rest| rest.starts_with(WHITESPACE))?
            .trim_matches(WHITESPACE),
    };
    Some(name).filter(|n| !n.is_empty())
}

/// The line without a trailing comment (in a property, `#` or `;` after whitespace only).
fn strip_comment(line: &str, comments_need_whitespace: bool) -> &str {
    let line = line.trim_matches(WHITESPACE);
    let mut prev_whitespace = false;
    for (i, c) in line.char_indices() {
        if COMMENT.contains(&c) && (prev_whitespace || !comments_need_whitespace) {
            return line[..i].trim_matches(WHITESPACE);
        }
        prev_whitespace = c.is_whitespace();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProfileFileKind::{Config, Credentials};

    #[test]
    fn profiles_of_valid_files() {
        let config = "# c\n[default]\nregion = us-east-1 # here\n[profile prod] ; x\n\
            region=eu-west-1\n[sso-session corp]\nsso_start_url = https://x\n\
            [services local]\ndynamodb =\n  endpoint_url = http://localhost:8000\n[other]\n";
        assert_eq!(profiles_in(config, Config).unwrap(), ["default", "prod"]);
        let creds = "[default]\naws_access_key_id = a\n[ci]\naws_access_key_id = b\n";
        assert_eq!(profiles_in(creds, Credentials).unwrap(), ["default", "ci"]);
        assert!(profiles_in("", Config).unwrap().is_empty());
    }

    #[test]
    fn the_first_line_the_sdk_refuses() {
        let err = |text, line| {
            let e = profiles_in(text, Config).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e:?}");
            e.message
        };
        assert!(err("[default\nregion = x\n", 1).contains("']'"));
        assert!(err("region = x\n[default]\n", 1).contains("before the first"));
        assert!(err("[default]\nregion us-east-1\n", 2).contains("'='"));
        assert!(err("[default]\n = x\n", 2).contains("continues no property"));
        assert!(err("[default]\n= x\n", 2).contains("without a name"));
        assert!(err("\n\n[profile a]\nk = v\n  sub = 1\n[b\n", 6).contains("']'"));
    }
}
