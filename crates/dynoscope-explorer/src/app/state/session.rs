//! The connection the explorer uses: its region and profile (shown in the title), the profiles
//! `~/.aws/config` names, and the switcher `R` and `A` open to change them without a restart.

use super::ListCursor;
use crate::model::formats::aws_profiles::REGIONS;

/// Rows of choices the switcher shows; the list scrolls past them.
pub const SWITCHER_ROWS: usize = 12;

/// What a new connection should use; `None` leaves it to the AWS configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConnectTarget {
    pub region: Option<String>,
    pub profile: Option<String>,
}

/// What a connection turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionInfo {
    /// As shown in titles: where requests go.
    pub endpoint: String,
    pub region: String,
    pub profile: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwitchKind {
    Region,
    Profile,
}

/// The list `R` or `A` opens: choices filtered as the user types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switcher {
    pub kind: SwitchKind,
    pub filter: String,
    pub list: ListCursor,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    pub region: String,
    pub profile: String,
    /// The region was chosen (`--region` or `R`): switching profile keeps it.
    pub region_chosen: bool,
    /// The profile was chosen (`--profile` or `A`): switching region keeps it.
    pub profile_chosen: bool,
    /// Profiles in `~/.aws/config` (or `AWS_CONFIG_FILE`), read at start-up.
    pub profiles: Vec<String>,
    /// The connection being made: its generation and what it is to.
    pub connecting: Option<(u64, String)>,
    /// Numbers connections, so a late answer for an older one is ignored.
    pub generation: u64,
    /// `--export`: the explorer reads an S3 export's files, named thus in the title
    /// ("export <id> of <table> at <time>"); nothing can be written to it.
    pub export: Option<String>,
    /// The export's data files as the last whole read found them, when some were missing,
    /// cut short or damaged: the title says the export is incomplete while this is set.
    pub export_damage: Option<crate::model::exports::table_export::IntegrityReport>,
}

impl Session {
    /// The switcher's choices matching its filter.
    pub fn choices(&self, s: &Switcher) -> Vec<&str> {
        let all: Vec<&str> = match s.kind {
            SwitchKind::Region => REGIONS.to_vec(),
            SwitchKind::Profile => self.profiles.iter().map(String::as_str).collect(),
        };
        let needle = s.filter.to_lowercase();
        all.into_iter()
            .filter(|c| c.to_lowercase().contains(&needle))
            .collect()
    }
}
