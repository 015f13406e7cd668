//! What reading an export's data files found, worded once: one line per file with a problem,
//! naming it, and a closing line with the shortfall against `manifest-files.json`.

use crate::text::wording::{noun, thousands};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    Missing,
    Unreadable(String),
    /// Its key leaves the export's folder or prefix (absolute, `..`, a symlink out): it was
    /// not opened. The text says how.
    Outside(String),
    /// The gzip stream broke off or is damaged; the records before it were read.
    Corrupt(String),
    /// Lines that are not records of the export's format: how many, and the first one.
    BadLines {
        count: u64,
        first_line: u64,
        why: String,
    },
    /// The MD5 of the file as read differs from `md5Checksum` (both base64).
    Checksum {
        listed: String,
        actual: String,
    },
    /// The file holds another number of records than `itemCount` says.
    Count {
        listed: u64,
        read: u64,
    },
}

/// One data file as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReport {
    /// As `manifest-files.json` names it.
    pub key: String,
    pub listed: u64,
    pub read: u64,
    pub problems: Vec<FileProblem>,
}

impl FileReport {
    /// The file's line for stderr (every problem it had); `None` when it was read as listed.
    pub fn message(&self) -> Option<String> {
        if self.problems.is_empty() {
            return None;
        }
        let phrases: Vec<String> = self.problems.iter().map(|p| self.phrase(p)).collect();
        Some(format!(
            "data file '{}' {}",
            self.key,
            phrases.join("; it also ")
        ))
    }

    fn phrase(&self, problem: &FileProblem) -> String {
        let items = |n: u64| format!("{} {}", thousands(n), noun(n, "item"));
        let short = self.listed.saturating_sub(self.read);
        match problem {
            FileProblem::Missing => format!(
                "is missing; its {} are not in the results",
                items(self.listed)
            ),
            FileProblem::Unreadable(why) => format!(
                "cannot be read ({why}); its {} are not in the results",
                items(self.listed)
            ),
            FileProblem::Outside(why) => format!(
                "is outside the export's folder ({why}), so it was not read; its {} are not in the results; check manifest-files.json",
                items(self.listed)
            ),
            FileProblem::Corrupt(why) => format!(
                "is corrupt after {} of its {} ({why}); {} are not in the results",
                thousands(self.read),
                items(self.listed),
                thousands(short)
            ),
            FileProblem::BadLines {
                count,
                first_line,
                why,
            } => format!(
                "has {} {}, the first at line {first_line}: {why}",
                thousands(*count),
                match count {
                    1 => "line that is not a record",
                    _ => "lines that are not records",
                }
            ),
            FileProblem::Checksum { listed, actual } => format!(
                "has MD5 '{actual}' but manifest-files.json lists '{listed}': its {} were read but may not be the export's; download it again",
                items(self.read)
            ),
            FileProblem::Count { listed, read } => format!(
                "holds {} but manifest-files.json lists {}",
                items(*read),
                thousands(*listed)
            ),
        }
    }
}

/// Every data file's report, in the manifest's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntegrityReport {
    pub files: Vec<FileReport>,
}

impl IntegrityReport {
    pub fn items_listed(&self) -> u64 {
        self.files.iter().map(|f| f.listed).sum()
    }

    pub fn items_read(&self) -> u64 {
        self.files.iter().map(|f| f.read).sum()
    }

    pub fn troubled(&self) -> impl Iterator<Item = &FileReport> {
        self.files.iter().filter(|f| !f.problems.is_empty())
    }

    pub fn is_complete(&self) -> bool {
        self.troubled().next().is_none()
    }

    /// The closing line when something was wrong: how much of the export the results cover.
    pub fn shortfall(&self) -> Option<String> {
        let troubled = self.troubled().count();
        if troubled == 0 {
            return None;
        }
        let (listed, read) = (self.items_listed(), self.items_read());
        let gap = if read < listed {
            format!(" ({} short)", thousands(listed - read))
        } else {
            String::new()
        };
        Some(format!(
            "export incomplete: {} of the {} {} manifest-files.json lists were read{gap}; {troubled} of {} data {} had a problem (above)",
            thousands(read),
            thousands(listed),
            noun(listed, "item"),
            self.files.len(),
            noun(self.files.len() as u64, "file")
        ))
    }
}
