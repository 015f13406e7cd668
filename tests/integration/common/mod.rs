//! Test harness: one in-memory DynamoDB Local per test binary on a free port, and helpers to run
//! the real `dynoscope` binary against it with dummy credentials and no instance metadata.

pub mod cloudwatch;
pub mod corpus;
pub mod corpus_indexes;
pub mod database_relay;
pub mod export_fixture;
pub mod fake_dynamo;
pub mod fault_proxy;
pub mod moto;
pub mod peak_memory;
pub mod pty;
pub mod pyfork;
pub mod server;
pub mod stream_writes;
pub mod table_export;
pub mod tables;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::Client;

pub struct Local {
    pub endpoint: String,
    /// The JVM's process id: `benches/pty_latency.rs` lowers its priority. No test reads it.
    #[allow(dead_code)]
    pub pid: u32,
}

pub fn dynamodb_local_dir() -> PathBuf {
    match std::env::var_os("DYNAMODB_LOCAL_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".cache/dynamodb-local"),
    }
}

/// The JVM's settings for a test's DynamoDB Local. Each lives minutes and sees a few thousand
/// requests, over which the C2 compiler's work costs more CPU than its faster code saves, and the
/// concurrent collector's threads compete with the tests for two cores: C1 only, the serial
/// collector and a young generation that rarely fills take less of the JVM's CPU for the same
/// requests (docs/benchmarks.md §17.6). The product's `demo` keeps the JVM's defaults.
const TEST_JVM_FLAGS: [&str; 4] = [
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xms1g",
    "-Xmn700m",
];

/// What every child process gets ([`aws_env`], the pty sessions) for the DynamoDB Local that
/// `dynoscope demo` starts: the same settings as `JAVA_TOOL_OPTIONS`, so that it costs what the
/// harness's own do (the JVM's notice that it picked them up goes to the demo's discarded
/// stderr), and with the class archive, its folder as `DYNAMODB_LOCAL_DIR`.
pub fn demo_jvm_env() -> Vec<(&'static str, std::ffi::OsString)> {
    let mut flags = TEST_JVM_FLAGS.join(" ");
    let archive = class_archive();
    if let Some(archive) = archive {
        flags.push(' ');
        flags.push_str(&archive.flag());
    }
    let mut env = vec![("JAVA_TOOL_OPTIONS", flags.into())];
    env.extend(archive.map(|a| ("DYNAMODB_LOCAL_DIR", a.dir.clone().into_os_string())));
    env
}

/// DynamoDB Local's class-data archive, which `scripts/install-dynamodb-local.sh` makes in the
/// `cds` folder of its install (`scripts/dynamodb-local-class-archive.sh`): a copy of the jar
/// whose class path is jars only, beside a link to its library folder, and the archive of the
/// classes one run loaded. A JVM started from it maps them, about 0.9 s less CPU for each of the
/// twenty a run starts (docs/benchmarks.md §17.16). Without it, the official jar as before.
struct ClassArchive {
    /// The folder with the jar and the link, a `DYNAMODB_LOCAL_DIR` of its own.
    dir: PathBuf,
}

impl ClassArchive {
    fn flag(&self) -> String {
        format!(
            "-XX:SharedArchiveFile={}",
            self.dir.join("dynamodb-local.jsa").display()
        )
    }
}

fn class_archive() -> Option<&'static ClassArchive> {
    static ARCHIVE: OnceLock<Option<ClassArchive>> = OnceLock::new();
    ARCHIVE
        .get_or_init(|| {
            let dir = dynamodb_local_dir().join("cds");
            dir.join("complete")
                .is_file()
                .then_some(ClassArchive { dir })
        })
        .as_ref()
}

/// How many DynamoDB Locals the tests share. DynamoDB Local looks up a stream's shards on
/// every write to a table with a stream, with a query that reads every stream record of the
/// database, of every table, kept 24 hours even after DeleteTable. So in one database a write
/// costs more with every item written before it (a 370-item seed: 0.4 s of the JVM's CPU in a
/// fresh one, 5.5 s in one that served the suite), and the suite's writes cost the square of
/// their number. Each test module therefore has a database of its own
/// ([`database_relay`]), in one of these instances, which share out the JVMs' fixed costs and
/// run their SQLite threads side by side (docs/benchmarks.md §17.9).
pub const SHARED_LOCALS: usize = 3;

/// The DynamoDB Local of the calling test's module: its own database in one of the
/// [`SHARED_LOCALS`], reached through a [`database_relay`], both started on first use. A
/// module's tests all get the same one, chosen by the module's name (libtest names each test's
/// thread after the test), so a table one test creates, or a module seeds once for its tests,
/// is where the others look, whatever credentials and region they sign with. Each JVM is
/// spawned from a thread that never exits, with PR_SET_PDEATHSIG, so it dies with the test
/// process instead of leaking.
pub fn local() -> &'static Local {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static MODULES: OnceMap<String, Local> = Mutex::new(BTreeMap::new());
    let module = test_module();
    once_for(&MODULES, module.clone()).get_or_init(|| {
        let hash = fnv1a(&module);
        let jvm =
            shared_jvms()[(hash % SHARED_LOCALS as u64) as usize].get_or_init(|| start_jvm(false));
        Local {
            endpoint: database_relay::start(&jvm.endpoint, &format!("test{hash:016x}")),
            pid: jvm.pid,
        }
    })
}

/// The [`SHARED_LOCALS`], each started on first use.
fn shared_jvms() -> &'static [OnceLock<Local>; SHARED_LOCALS] {
    static JVMS: [OnceLock<Local>; SHARED_LOCALS] = [const { OnceLock::new() }; SHARED_LOCALS];
    &JVMS
}

/// Values made once per key and kept for the whole test process: see [`once_for`].
pub type OnceMap<K, T> = std::sync::Mutex<std::collections::BTreeMap<K, &'static OnceLock<T>>>;

/// The cell of `key` in `map`, made empty on first use. The caller fills it with `get_or_init`
/// outside the map's lock, so a slow first use (a JVM's start, a seed) of one key does not hold
/// up the others, and callers of the same key wait for that one.
pub fn once_for<K: Ord, T>(map: &OnceMap<K, T>, key: K) -> &'static OnceLock<T> {
    map.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())))
}

/// The calling test's module: the first part of its thread's name, which libtest sets to the
/// test's path. A thread without a test's name (one a test spawns, a bench's main thread) gets
/// `""`, a module of its own: a test's threads are handed what they need (an endpoint, a
/// table) by the test's thread, and do not call [`local`] themselves.
pub fn test_module() -> String {
    std::thread::current()
        .name()
        .and_then(|name| name.split_once("::"))
        .map_or("", |(module, _)| module)
        .to_owned()
}

/// FNV-1a: the same in every run and build, so a module's instance and database are too.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The DynamoDB Local of the tests that hold [`attempt_timeouts`] (`faults`, `tail_faults`), apart
/// from the shared ones: their fault-free attempts must answer within a 1 or 2 s timeout, and in
/// the shared JVM a request can wait behind another test's seed or scan of the same in-memory
/// database. Started on first use; it dies with the test process.
pub fn timeouts_local() -> &'static Local {
    static LOCAL: OnceLock<Local> = OnceLock::new();
    LOCAL.get_or_init(|| start_jvm(true))
}

/// A database of the calling test's alone, in a DynamoDB Local no other test uses while it is
/// held: for the few tests that measure writes per second or rates, which must not share the
/// JVM with other tests' seeds and scans. They take turns in one JVM, each in a fresh database
/// (its own key through a [`database_relay`]), instead of starting a JVM each: a start is about
/// 2 s of CPU before the first request (docs/benchmarks.md §17.15).
pub struct OwnLocal {
    pub endpoint: String,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// Waits for the turn of [`OwnLocal`]'s JVM (started on first use; it dies with the test
/// process) and gives a fresh database in it.
pub fn start_local() -> OwnLocal {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    static JVM: OnceLock<Local> = OnceLock::new();
    let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let jvm = JVM.get_or_init(|| start_jvm(false));
    OwnLocal {
        endpoint: database_relay::start(&jvm.endpoint, &fresh_database_key()),
        _turn: turn,
    }
}

/// A fresh database in one of the [`SHARED_LOCALS`], for a module whose tables must not meet
/// its other tests' (a Workbench model's fixed table names).
pub fn fresh_database() -> Local {
    let key = fresh_database_key();
    let jvm = &shared_jvms()[(fnv1a(&key) % SHARED_LOCALS as u64) as usize];
    let jvm = jvm.get_or_init(|| start_jvm(false));
    Local {
        endpoint: database_relay::start(&jvm.endpoint, &key),
        pid: jvm.pid,
    }
}

/// An access key no other database of this test process has.
fn fresh_database_key() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    format!("own{}", N.fetch_add(1, Ordering::Relaxed))
}

/// Starts a DynamoDB Local; with `shared_db`, one database for every access key and region,
/// else one for each (what [`database_relay`] relies on).
fn start_jvm(shared_db: bool) -> Local {
    let dir = dynamodb_local_dir();
    assert!(
        dir.join("DynamoDBLocal.jar").is_file(),
        "DynamoDB Local is not installed in {}; run: bash scripts/install-dynamodb-local.sh",
        dir.display()
    );
    let native_lib = native_lib_dir();
    let (port, pid) = server::start_server("DynamoDB Local", move |port| {
        let archive = class_archive();
        let jar_dir = archive.map_or(&dir, |a| &a.dir);
        let mut cmd = Command::new("java");
        // Its working directory is the cache, where it writes a metadata file.
        cmd.current_dir(&dir)
            .args(TEST_JVM_FLAGS)
            .args(archive.map(ClassArchive::flag))
            .arg(format!("-Dorg.sqlite.tmpdir={}", native_lib.display()))
            .arg(format!(
                "-Djava.library.path={}",
                dir.join("DynamoDBLocal_lib").display()
            ))
            .arg("-jar")
            .arg(jar_dir.join("DynamoDBLocal.jar"))
            .args(["-inMemory", "-port", &port.to_string()])
            .args(shared_db.then_some("-sharedDb"))
            // Telemetry costs a third of the JVM's start-up CPU and a tenth of its work's
            // (docs/benchmarks.md §17.8), and a test has nothing to report to AWS.
            .arg("-disableTelemetry")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    });
    Local {
        endpoint: format!("http://127.0.0.1:{port}"),
        pid,
    }
}

/// Where the harness's JVMs write out DynamoDB Local's SQLite library (`org.sqlite.tmpdir`):
/// 900 KB each, which a JVM deletes only on a clean exit, and these die by SIGKILL with the
/// test process. By default that is `/tmp`, where every run left a file per JVM; here it is
/// cargo's temporary folder, and each test process first removes the files older than ten
/// minutes (a JVM loads its copy within a second of writing it, and deleting a loaded
/// library on Linux leaves it mapped: a concurrent test process's JVMs are unharmed).
fn native_lib_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dynamodb-local-native");
        std::fs::create_dir_all(&dir).expect("create the JVMs' native library folder");
        let stale = |entry: &std::fs::DirEntry| {
            entry.file_name().to_string_lossy().starts_with("sqlite-")
                && entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t.elapsed().unwrap_or_default() > Duration::from_secs(600))
        };
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if stale(&entry) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        dir
    })
    .clone()
}

/// A port nothing listens on now; the caller's server must make sure it got it
/// ([`server::start_server`]).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Environment every child process gets: dummy keys, no IMDS, no user AWS config.
pub fn aws_env(cmd: &mut Command) -> &mut Command {
    cmd.env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "dummy")
        .env("AWS_SECRET_ACCESS_KEY", "dummy")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_CONFIG_FILE", "/nonexistent/dynoscope-test-config")
        .env(
            "AWS_SHARED_CREDENTIALS_FILE",
            "/nonexistent/dynoscope-test-credentials",
        )
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_ENDPOINT_URL")
        .env_remove("AWS_ENDPOINT_URL_DYNAMODB")
        .env_remove("AWS_ENDPOINT_URL_CLOUDWATCH")
        .env_remove("AWS_SESSION_TOKEN")
        // Tests never write to the user's log file; tests/integration/e2e_logs.rs sets its own.
        .env("DYNOSCOPE_LOG", "off")
        .envs(demo_jvm_env())
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dynoscope")
}

/// Runs `dynoscope --endpoint-url <local> ARGS…`.
pub fn run(args: &[&str]) -> Output {
    run_at(&local().endpoint, args)
}

/// Runs `dynoscope --endpoint-url ENDPOINT ARGS…`.
pub fn run_at(endpoint: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .arg("--endpoint-url")
        .arg(endpoint)
        .args(args);
    cmd.stdin(Stdio::null()).output().expect("run dynoscope")
}

/// Runs the binary with exactly these arguments (no endpoint added).
pub fn run_raw(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).output().expect("run dynoscope")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts success and returns stdout.
pub fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "dynoscope failed ({:?}): {}",
        out.status,
        stderr(&out)
    );
    stdout(&out)
}

/// The `--stats` object: the last line of stderr.
pub fn stats(out: &Output) -> serde_json::Value {
    let err = stderr(out);
    let last = err.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("last stderr line is not JSON ({e}): {err}"))
}

pub fn lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub async fn client() -> Client {
    client_at(&local().endpoint).await
}

pub async fn client_at(endpoint: &str) -> Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        // The SDK crates carry no default HTTP client: dynoscope's own (rustls over ring).
        .http_client(dynoscope_engine::aws::https::client())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("dummy", "dummy", None, None, "test"))
        .endpoint_url(endpoint)
        .build();
    Client::from_conf(config)
}

/// A table name unique within this test process.
pub fn table_name(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Seeds a fresh demo table through the binary, without a stream, and returns its name.
/// With a stream, DynamoDB Local reads every stream record of the database on each write, so
/// a module's seeds cost it the square of their items (docs/benchmarks.md §17.15): a test that
/// reads the table's stream (`tail`, `hotkeys --writes`, the live pane) asks for one with
/// [`seeded_demo_streaming`].
pub fn seeded_demo(users: u32) -> String {
    seeded_demo_at(&local().endpoint, users)
}

/// [`seeded_demo`] in the DynamoDB Local at `endpoint`.
pub fn seeded_demo_at(endpoint: &str, users: u32) -> String {
    seed_demo(endpoint, users, &["--no-stream"])
}

/// A fresh demo table with the product's stream of new and old images.
pub fn seeded_demo_streaming(users: u32) -> String {
    seed_demo(&local().endpoint, users, &[])
}

fn seed_demo(endpoint: &str, users: u32, options: &[&str]) -> String {
    let table = table_name("demo");
    let users = users.to_string();
    let mut args = vec!["seed", "--table", &table, "--users", &users];
    args.extend_from_slice(options);
    ok(run_at(endpoint, &args));
    table
}

/// A demo table of `users` users seeded once in each module's database and shared by every
/// test of the module that only reads it (each size once); a test that writes seeds its own
/// with [`seeded_demo`]. Seeding is where DynamoDB Local's JVM spends its CPU ([`SHARED_LOCALS`];
/// docs/benchmarks.md §17.9, §17.15).
pub fn shared_demo(users: u32) -> &'static str {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static TABLES: OnceMap<(String, u32), String> = Mutex::new(BTreeMap::new());
    // One table per size in each module's database.
    let once = once_for(&TABLES, (test_module(), users));
    // Seeded outside the map's lock: tests asking for another size do not wait for this one.
    once.get_or_init(|| seeded_demo(users))
}

/// Held by the tests that give every attempt a short timeout (`--timeout 1` or 2) so that a
/// delayed or truncated answer fails fast (`faults`, `tail_faults`): they run one at a time,
/// so that their own parallel scans and fault proxies do not stretch each other's fault-free
/// attempts past that timeout. The rest of the suite runs beside them.
pub fn attempt_timeouts() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Held by the tests that run `dynoscope demo`, which starts a DynamoDB Local JVM of its own
/// and gives it 60 s to answer (`cli/demo.rs`): a JVM's start is about 5 s of CPU, and four
/// starting at once beside a full test run on 2 cores took longer than that. One at a time,
/// each start has the CPU the product's bound assumes; the rest of the suite runs beside them.
pub fn demo_jvm() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The Python of the test venv (boto3, DuckDB, moto and the MCP SDK) that
/// `scripts/install-corpus-tools.sh` makes in `.cache/python-venv`, or `$PYTHON_VENV_DIR`'s.
pub fn venv_python() -> std::path::PathBuf {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let venv = std::env::var_os("PYTHON_VENV_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join(".cache/python-venv"));
    let python = venv.join("bin/python");
    assert!(
        python.is_file(),
        "no test venv (boto3, duckdb, moto, mcp) in {}; run: bash scripts/install-corpus-tools.sh",
        venv.display()
    );
    python
}
