//! Profile names in an AWS shared config file (`~/.aws/config`): `[default]` and
//! `[profile NAME]` sections, in file order; `[sso-session …]` and `[services …]` sections are
//! not profiles. Pure: the command line reads the file.

/// Profile names, in the order the file first names them.
pub fn profile_names(config_text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in config_text.lines() {
        let line = line.trim();
        let Some(section) = line.strip_prefix('[').and_then(|l| l.split(']').next()) else {
            continue;
        };
        let section = section.trim();
        let name = if section == "default" {
            Some("default")
        } else {
            section
                .strip_prefix("profile")
                .filter(|rest| rest.starts_with(char::is_whitespace))
                .map(str::trim)
        };
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Regions DynamoDB runs in (commercial partition), offered by the region switcher; any other
/// name can be typed.
pub const REGIONS: [&str; 33] = [
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "af-south-1",
    "ap-east-1",
    "ap-east-2",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-7",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-south-1",
    "eu-south-2",
    "eu-north-1",
    "il-central-1",
    "me-south-1",
    "me-central-1",
    "mx-central-1",
    "sa-east-1",
];

/// Whether `name` is spelled like a region (`eu-west-1`, `us-gov-west-1`), so a typed name
/// not in [`REGIONS`] can still be used.
pub fn looks_like_region(name: &str) -> bool {
    let parts: Vec<&str> = name.split('-').collect();
    parts.len() >= 3
        && parts[..parts.len() - 1]
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase()))
        && parts[parts.len() - 1].chars().all(|c| c.is_ascii_digit())
        && !parts[parts.len() - 1].is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_from_a_config_file() {
        let text = "\
# comment
[default]
region = us-east-1

[profile prod]
region = eu-west-1
[ profile  dev ]   ; odd spacing
[sso-session corp]
sso_start_url = https://example.awsapps.com/start
[services local]
dynamodb =
  endpoint_url = http://localhost:8000
[profile prod]
[profilex]
[profile]
";
        assert_eq!(profile_names(text), ["default", "prod", "dev"]);
        assert!(profile_names("").is_empty());
    }

    #[test]
    fn region_names() {
        for ok in ["eu-west-1", "us-gov-west-1", "ap-southeast-7"] {
            assert!(looks_like_region(ok), "{ok}");
        }
        for bad in [
            "",
            "eu",
            "eu-west",
            "EU-WEST-1",
            "eu-west-x",
            "eu--1",
            "http://x",
        ] {
            assert!(!looks_like_region(bad), "{bad}");
        }
        assert!(REGIONS.iter().all(|r| looks_like_region(r)));
    }
}
