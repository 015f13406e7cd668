//! `demo`: start DynamoDB Local from the project's cache, load the demo data, open the explorer,
//! and stop DynamoDB Local again on the way out.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use futures::FutureExt;
use tokio::process::{Child, Command};
use tokio::signal::unix::{signal, Signal, SignalKind};

use super::args::{DemoArgs, GlobalArgs};
use super::CliError;
use crate::aws::{self, seed, Engine};
use crate::model::demo::demo_data;
use crate::platform::listener::{who_listens, PortHolder};

pub const DEMO_TABLE: &str = "app";
/// The demo table's access patterns, built into the binary so `demo` works from anywhere.
const DEMO_PATTERNS: &str = include_str!("../../assets/demo-patterns.toml");
const INSTALL_HINT: &str = "bash scripts/install-dynamodb-local.sh";

/// `DYNAMODB_LOCAL_DIR`, else the project's `.cache/dynamodb-local`.
pub fn dynamodb_local_dir() -> PathBuf {
    match std::env::var_os("DYNAMODB_LOCAL_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache/dynamodb-local"),
    }
}

/// A running DynamoDB Local; killed when dropped, so every exit path stops it.
pub struct LocalDynamo {
    child: Child,
    /// The JVM's pid, kept: tokio forgets it once the child is reaped.
    pid: u32,
    port: u16,
    pub endpoint: String,
    /// Where the JVM writes out its SQLite library (`org.sqlite.tmpdir`), removed with the
    /// demo (after `child`: fields drop in order). By default it goes to `/tmp` as a 900 KB
    /// file the JVM deletes only on a clean exit, and a killed JVM left one behind per demo.
    _native_lib: tempfile::TempDir,
}

/// Times the demo starts DynamoDB Local on a fresh port when another program took the one it
/// picked before the JVM could bind it.
const PORT_ATTEMPTS: u32 = 3;

/// Why DynamoDB Local is not ready.
enum NotReady {
    /// Another program listens on the port the JVM was to bind, and the JVM has exited.
    PortTaken,
    Failed(CliError),
}

impl LocalDynamo {
    /// Starts the JVM on `port`, or on a port that is free now.
    pub async fn start(dir: &Path, port: Option<u16>) -> Result<LocalDynamo, CliError> {
        let jar = dir.join("DynamoDBLocal.jar");
        if !jar.is_file() {
            return Err(CliError::bad_input(format!(
                "DynamoDB Local not found in '{}'; install it with: {INSTALL_HINT} (or set DYNAMODB_LOCAL_DIR)",
                dir.display()
            )));
        }
        let port = match port {
            Some(port) => port,
            None => TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map_err(|e| CliError::service(format!("cannot find a free local port: {e}")))?
                .port(),
        };
        let native_lib = tempfile::Builder::new()
            .prefix("dynoscope-demo-")
            .tempdir()
            .map_err(|e| {
                CliError::bad_input(format!(
                    "cannot make a temporary folder for DynamoDB Local in '{}' ({e}); set TMPDIR to a writable folder",
                    std::env::temp_dir().display()
                ))
            })?;
        let mut command = Command::new("java");
        command
            .arg(format!(
                "-Dorg.sqlite.tmpdir={}",
                native_lib.path().display()
            ))
            .arg(format!(
                "-Djava.library.path={}",
                dir.join("DynamoDBLocal_lib").display()
            ))
            .arg("-jar")
            .arg(&jar)
            .args(["-inMemory", "-sharedDb", "-port", &port.to_string()])
            // A demo has nothing to report to AWS, and telemetry is a third of the JVM's
            // start-up CPU (docs/benchmarks.md §17.8).
            .arg("-disableTelemetry")
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        // The demo's DynamoDB Local stands in for a server on another machine: at a lower
        // priority than the explorer, so a full-speed scan cannot starve keys and frames on a
        // small machine (see src/platform/priority.rs). Every JVM thread inherits it.
        // It also dies with dynoscope, even a SIGKILLed one that runs no clean-up: the kernel
        // sends it SIGKILL when the thread that started it ends (the runtime's main thread,
        // which ends with the process). If dynoscope died before the prctl, the parent is
        // already another process and the JVM exits at once.
        let parent = std::process::id();
        // SAFETY: between fork and exec the child only makes async-signal-safe syscalls.
        unsafe {
            command.pre_exec(move || {
                crate::platform::priority::lower_this_thread();
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() as u32 != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let child = command.spawn().map_err(|e| {
            CliError::bad_input(format!(
                "cannot start 'java' for DynamoDB Local ({e}); install Java 17 or newer"
            ))
        })?;
        Ok(LocalDynamo {
            pid: child.id().unwrap_or_default(),
            child,
            port,
            endpoint: format!("http://127.0.0.1:{port}"),
            _native_lib: native_lib,
        })
    }

    /// Polls ListTables until this JVM answers (start-up takes a second or two). An answer
    /// counts only when the listener on the port is the JVM's own: the port was free when
    /// picked, but another program may have bound it since, and then the demo would load and
    /// show that program's tables while its own JVM, unable to bind, exits.
    async fn wait_ready(&mut self, engine: &Engine) -> Result<(), NotReady> {
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // A process that has exited holds nothing: any listener left is another's.
                if who_listens(self.pid, self.port) == PortHolder::Another {
                    return Err(NotReady::PortTaken);
                }
                return Err(NotReady::Failed(CliError::service(format!(
                    "DynamoDB Local exited during start-up ({status}); check that Java is 17 or newer"
                ))));
            }
            if engine.list_tables().await.is_ok()
                && matches!(
                    who_listens(self.pid, self.port),
                    PortHolder::Process | PortHolder::Unknown
                )
            {
                return Ok(());
            }
            if started.elapsed() > Duration::from_secs(60) {
                return Err(NotReady::Failed(CliError::service(format!(
                    "DynamoDB Local did not answer at {} within 60 s",
                    self.endpoint
                ))));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT, handled for the whole demo:
/// their default action would end the process without running destructors, and DynamoDB
/// Local's JVM (killed on drop) would outlive it.
struct StopSignals {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
    quit: Signal,
}

impl StopSignals {
    fn new() -> Result<StopSignals, CliError> {
        let listen = |kind| {
            signal(kind).map_err(|e| {
                CliError::service(format!("cannot handle SIGINT/SIGTERM/SIGHUP/SIGQUIT: {e}"))
            })
        };
        Ok(StopSignals {
            interrupt: listen(SignalKind::interrupt())?,
            terminate: listen(SignalKind::terminate())?,
            hangup: listen(SignalKind::hangup())?,
            quit: listen(SignalKind::quit())?,
        })
    }

    /// The exit code for the signal that arrived: 128 + its number.
    async fn recv(&mut self) -> (u8, &'static str) {
        tokio::select! {
            _ = self.interrupt.recv() => (130, "SIGINT"),
            _ = self.terminate.recv() => (143, "SIGTERM"),
            _ = self.hangup.recv() => (129, "SIGHUP"),
            _ = self.quit.recv() => (131, "SIGQUIT"),
        }
    }
}

pub async fn run(global: &GlobalArgs, args: DemoArgs) -> Result<(), CliError> {
    if let Some(url) = &global.endpoint_url {
        let url = crate::model::text::redact::redact_userinfo(url);
        return Err(CliError::bad_input(format!(
            "demo starts its own DynamoDB Local, so --endpoint-url '{url}' is not used; to load another endpoint run 'dynoscope seed --endpoint-url {url}'"
        )));
    }
    if let Some(rate) = args.churn {
        super::seed_churn::churn_rate(rate)?;
    }
    let mut signals = StopSignals::new()?;
    let mut local = LocalDynamo::start(&dynamodb_local_dir(), args.port).await?;
    let no_ui = args.no_ui;
    // Dropping the explorer on a signal restores the terminal.
    let outcome = tokio::select! {
        biased;
        stop = signals.recv() => Err(stop),
        result = serve(global, args, &mut local) => Ok(result),
    };
    // The explorer stops on these signals too, and may have seen one first.
    let outcome = match outcome {
        Ok(result) => signals.recv().now_or_never().map_or(Ok(result), Err),
        stop => stop,
    };
    local.stop().await;
    match outcome {
        Ok(result) => result,
        // Without the explorer a signal is the way to stop the demo.
        Err(_) if no_ui => Ok(()),
        Err((code, name)) => Err(CliError::new(
            code,
            format!("interrupted by {name}; DynamoDB Local stopped"),
        )),
    }
}

/// Everything the demo does while DynamoDB Local runs; `no_ui` waits for a signal.
async fn serve(
    global: &GlobalArgs,
    args: DemoArgs,
    local: &mut LocalDynamo,
) -> Result<(), CliError> {
    let mut options = super::connect_options(global)?;
    options.local_only = Some("demo");
    // A few quick attempts while the JVM starts; the poll loop does the waiting.
    options.max_attempts = Some(1);
    let mut attempt = 1;
    let conn = loop {
        options.endpoint_url = Some(local.endpoint.clone());
        let conn = aws::connect(&options).await?;
        match local.wait_ready(&Engine::new(&conn)).await {
            Ok(()) => break conn,
            Err(NotReady::PortTaken) if args.port.is_some() => {
                return Err(CliError::bad_input(format!(
                    "another program listens on port {}, so DynamoDB Local could not start there; choose another --port, or leave it out for a free one",
                    local.port
                )))
            }
            Err(NotReady::PortTaken) if attempt < PORT_ATTEMPTS => {
                attempt += 1;
                *local = LocalDynamo::start(&dynamodb_local_dir(), None).await?;
            }
            Err(NotReady::PortTaken) => {
                return Err(CliError::service(format!(
                    "another program took DynamoDB Local's port {PORT_ATTEMPTS} times in a row before it started (the last: {}); try again",
                    local.port
                )))
            }
            Err(NotReady::Failed(e)) => return Err(e),
        }
    };
    say!(
        "DynamoDB Local is up at {}; loading the demo table '{DEMO_TABLE}'…",
        local.endpoint
    );
    let items = demo_data::generate(args.users);
    let loaded = seed::seed(&conn, DEMO_TABLE, items, seed::SeedStream::NewAndOldImages).await?;
    say!("loaded {loaded} items");
    let _churn = args
        .churn
        .map(|rate| super::seed_churn::background(&conn, DEMO_TABLE, args.users, rate, args.no_ui));
    if args.no_ui {
        say!(
            "try: dynoscope --endpoint-url {} query {DEMO_TABLE} --pk USER#celebrity --sk-begins ORDER# --desc --limit 5 --output table",
            local.endpoint
        );
        say!("press Ctrl-C to stop DynamoDB Local");
        std::future::pending().await
    } else {
        let mut global = global.clone();
        global.endpoint_url = Some(local.endpoint.clone());
        let patterns = crate::model::design::access_pattern::parse_patterns_file(
            DEMO_PATTERNS,
            "assets/demo-patterns.toml",
        )
        .map_err(CliError::bad_input)?;
        let settings = super::settings::Settings::load(&global)?;
        let table = Some(DEMO_TABLE.to_string());
        super::explore::explore(
            global,
            settings,
            table,
            Default::default(),
            patterns,
            args.live,
            Default::default(),
        )
        .await
    }
}
