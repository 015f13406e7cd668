//! The two examples every subcommand's long help (`--help`) ends with, as aws-cli's and
//! ripgrep's do: the common case, then one that shows a guard or a less obvious flag.

pub const TABLES: &str = "Examples:
  dynoscope tables
  dynoscope --profile prod --region eu-west-1 tables";
pub const DESCRIBE: &str = "Examples:
  dynoscope describe orders
  dynoscope describe orders | jq '.indexes[].name'
  dynoscope describe orders --sample --max-rcu 5 | jq '.synthetic_keys'";
pub const QUERY: &str = "Examples:
  dynoscope query orders --pk USER#123 --sk-begins ORDER# --desc --limit 10
  dynoscope query orders --index GSI1 --pk STATUS#SHIPPED --max-rcu 50 --stats";
pub const SCAN: &str = "Examples:
  dynoscope scan orders --segments 4 --max-rcu 500 --rcu-per-second 50 > items.jsonl
  dynoscope scan --export s3://bucket/exports/AWSDynamoDB/0123-abcd/ --output csv > items.csv";
pub const PARTIQL: &str = "Examples:
  dynoscope partiql \"SELECT * FROM orders WHERE PK = 'USER#123'\" --explain
  dynoscope --allow-writes partiql \"UPDATE orders SET flagged = true WHERE PK = 'USER#123'\" --yes --max-wcu 20";
pub const CLONE: &str = "Examples:
  dynoscope clone orders --query USER#123 --to-endpoint http://localhost:8000
  dynoscope clone orders --sample 500 --max-rcu 100 --to-endpoint http://localhost:8000 --to-table orders-copy";
pub const UNDO: &str = "Examples:
  dynoscope undo ~/.local/state/dynoscope/journals/orders-20261207T101500.jsonl
  dynoscope --allow-writes undo ~/.local/state/dynoscope/journals/orders-20261207T101500.jsonl --yes --max-wcu 50";
pub const HOTKEYS: &str = "Examples:
  dynoscope hotkeys orders --index GSI1 --segments 4 --max-rcu 200 --output table
  dynoscope hotkeys orders --writes --for 60s";
pub const METRICS: &str = "Examples:
  dynoscope metrics orders --since 3h
  dynoscope metrics orders --since 2d --period 3600 --output json";
pub const INSIGHTS: &str = "Examples:
  dynoscope insights orders
  dynoscope insights orders --since 30m --output json";
pub const MCP: &str = "Examples:
  dynoscope --profile readonly mcp --max-rcu 200 --max-rcu-per-call 25
  dynoscope mcp --export s3://bucket/exports/AWSDynamoDB/0123-abcd/";
pub const DIAGNOSE: &str = "Examples:
  dynoscope diagnose orders
  dynoscope diagnose orders --since 30m --sample-keys --max-rcu 25";
pub const EXPORT_START: &str = "Examples:
  dynoscope export-start orders --s3-bucket my-exports
  dynoscope export-start orders --s3-bucket my-exports --s3-prefix daily/ --yes";
pub const TAIL: &str = "Examples:
  dynoscope tail orders --output table
  dynoscope tail orders --follow-key USER#123 --until 5m";
pub const RUN: &str = "Examples:
  dynoscope run orders-of-user --param userId=123
  dynoscope --patterns patterns.toml run orders-by-status --param status=SHIPPED --limit 20";
pub const PATTERNS: &str = "Examples:
  dynoscope patterns check orders
  dynoscope patterns check orders --model model.json --max-rcu 50 --output markdown";
pub const PATTERNS_CHECK: &str = PATTERNS;
pub const SEED: &str = "Examples:
  dynoscope --endpoint-url http://localhost:8000 seed --table app --users 200
  dynoscope --endpoint-url http://localhost:8000 seed --model model.json";
pub const DEMO: &str = "Examples:
  dynoscope demo
  dynoscope demo --users 200";
pub const MODEL: &str = "Examples:
  dynoscope model import model.json
  dynoscope model import model.json --write";
pub const MODEL_IMPORT: &str = MODEL;
pub const MODEL_EXPORT: &str = "Examples:
  dynoscope model export app -o app-model.json
  dynoscope model export app --output markdown --max-rcu 10 -o DESIGN.md
  dynoscope model export app --output json | jq '.kinds[].name'";
pub const COMPLETIONS: &str = "Examples:
  dynoscope completions bash > ~/.local/share/bash-completion/completions/dynoscope
  dynoscope completions zsh > ~/.zfunc/_dynoscope";
pub const MAN: &str = "Examples:
  dynoscope man > dynoscope.1
  dynoscope man | man -l -";
