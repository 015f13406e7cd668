//! Files other programs write that dynoscope reads or writes: items in their two JSON spellings,
//! NoSQL Workbench data models (and the config they imply), and the AWS shared config and
//! credentials files.

pub mod aws_profile_file;
pub mod aws_profiles;
pub mod json;
pub mod workbench;
