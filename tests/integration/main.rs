//! The integration tests: one binary, so the dependency graph is linked once and one DynamoDB
//! Local (and one moto S3 server, when a test asks) serves every test (`common/`). The layer
//! check and the two long-run memory tests, which count this process's heap with a global
//! allocator of their own, are binaries of their own beside this folder.

mod common;

mod athena_duckdb;
mod bulk_journal;
mod bulk_writes;
mod capacity_contract;
mod cli_docs;
mod cli_endpoints;
mod cli_errors;
mod cli_export;
mod cli_export_start;
mod cli_hotkeys;
mod cli_hotkeys_shards;
mod cli_metrics;
mod cli_model;
mod cli_model_export;
mod cli_partiql;
mod cli_patterns;
mod cli_patterns_check;
mod cli_patterns_check_corpus;
mod cli_patterns_check_spread;
mod cli_query;
mod cli_scan;
mod clone;
mod corpus_designs;
mod corpus_explorer;
mod diagnose_writes;
mod dirs;
mod e2e_bulk_dialog;
mod e2e_export;
mod e2e_export_source;
mod e2e_hostile;
mod e2e_live;
mod e2e_logs;
mod e2e_pty;
mod e2e_signals;
mod e2e_throttle_storm;
mod e2e_walk;
mod e2e_writes;
mod export_hostile;
mod faults;
mod fuzz_expressions;
mod honest_capacity;
mod hostile_cloudwatch;
mod hostile_server;
mod hostile_text;
mod https;
mod live_export;
mod mcp;
mod mcp_capacity;
mod multi_attribute;
mod package;
mod partiql_oracle;
mod partiql_snippets;
mod read_only_partiql;
mod session_guard;
mod table_export;
mod table_export_s3;
mod tail;
mod tail_faults;
mod throttle_reasons;
mod triage;
mod writes;
