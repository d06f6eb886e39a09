//! Team mode's shared rows in PostgreSQL (`[store] url`, `--store`): evidence packs and
//! session memory that every `serve --http` replica of a deployment reads and writes, so a
//! pack made through one replica pages on another and a note remembered on one is recalled
//! on the next (docs/team-mode.md).
//!
//! One [`Postgres`] per process holds a connection pool and the small tokio runtime that
//! drives it; the rows' methods stay synchronous like rusqlite's and may be called from any
//! thread, a runtime's included, since each call is spawned onto that runtime and waited for
//! on a plain channel. Every table carries the root the row belongs to, so one database
//! serves several roots, and every row is signed with the operator's shared key, as in
//! state.db: a row no replica of this deployment wrote is never served.

mod journal;
mod memory;
mod migrations;
mod packs;
pub mod sessions;

use super::JournalKey;
use super::rows::{MemoryRows, PackRows, RowsBackend};
use anyhow::{Context, Result, anyhow};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use std::future::Future;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

pub use migrations::SCHEMA_VERSION;

/// How long one call may wait for PostgreSQL (a connection, then its statements) before it
/// fails with an error that names the server; statements are cut at the same time.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the server lets one statement run: shorter than the call timeout, so a slow
/// statement fails with the server's own error rather than as a server that stopped answering.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(12);
/// How long a writer waits for another replica's edit lock, shorter still.
const LOCK_WAIT: Duration = Duration::from_secs(10);
/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// After a failure to reach the server, calls fail at once for this long instead of each
/// waiting out a connect timeout: a replica cut off from PostgreSQL keeps answering from its
/// local index at its usual pace.
const BACKOFF: Duration = Duration::from_secs(3);
/// Connections per process when the operator sets none: tool calls run on blocking threads,
/// and few of them touch packs or memory at the same moment.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// A pool of connections to the team's database, with the runtime that drives them.
pub struct Postgres {
    pool: Pool,
    runtime: Option<tokio::runtime::Runtime>,
    /// Until when the server is taken for unreachable, and why.
    down: std::sync::Mutex<Option<(std::time::Instant, String)>>,
    /// `user@host:port/db`: what errors and status name, never the password.
    display: String,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Postgres({})", self.display)
    }
}

impl Postgres {
    /// Connects to `url` (a `postgres://` URL or a `key=value` string), checks that the
    /// server answers, and brings the schema up to date (once across replicas starting
    /// together).
    pub fn connect(url: &str, pool_size: usize) -> Result<Arc<Self>> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| anyhow!("[store] url is not a PostgreSQL URL: {e}"))?;
        config
            .application_name("smart-context")
            .connect_timeout(CONNECT_TIMEOUT)
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(30))
            // A peer that stops answering (a cut network) is given up after about a minute,
            // not the system's default of several.
            .keepalives_interval(Duration::from_secs(10))
            .keepalives_retries(3);
        // After the URL's own `options` (a search_path, say), not instead of them.
        let options = format!(
            "{} -c statement_timeout={}",
            config.get_options().unwrap_or_default(),
            STATEMENT_TIMEOUT.as_millis()
        );
        config.options(options.trim_start());
        let display = display(&config);
        let manager = Manager::from_config(
            config,
            tokio_postgres::NoTls,
            ManagerConfig {
                // A round trip before a connection is lent again: one a cut network left
                // hanging fails that check (within the recycle timeout) and is dropped,
                // instead of holding the next call for the whole call timeout.
                recycling_method: RecyclingMethod::Verified,
            },
        );
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("postgres")
            .enable_all()
            .build()
            .context("starting the PostgreSQL client's runtime")?;
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(CALL_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .context("building the PostgreSQL pool")?;
        let pg = Self {
            pool,
            runtime: Some(runtime),
            down: Default::default(),
            display,
        };
        pg.run(migrations::run)
            .with_context(|| format!("preparing the team store at {}", pg.display))?;
        Ok(Arc::new(pg))
    }

    /// `user@host:port/db`, for status and errors.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// Runs `work` with the pool on this store's runtime and waits for it, from any thread.
    fn run<T, F>(&self, work: impl FnOnce(Pool) -> F) -> Result<T>
    where
        F: Future<Output = Result<T>> + Send + 'static,
        T: Send + 'static,
    {
        self.check_up()?;
        let runtime = self.runtime.as_ref().expect("runtime lives until drop");
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        // Cut at the deadline on the runtime itself: work given up on is dropped (an open
        // transaction rolls back) rather than left to commit behind the caller's error.
        let future = work(self.pool.clone());
        runtime.spawn(async move {
            let _ = tx.send(tokio::time::timeout(CALL_TIMEOUT, future).await);
        });
        let result = match rx.recv_timeout(CALL_TIMEOUT + Duration::from_secs(1)) {
            Ok(Ok(result)) => result,
            Ok(Err(_)) | Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(anyhow!(NO_ANSWER)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(anyhow!(
                "the call failed on the client's runtime (a panic; see the log)"
            )),
        };
        self.settle(result)
    }

    /// Runs `work` with the pool on this store's runtime, for async callers on another
    /// runtime (the HTTP transport's session store).
    pub(crate) async fn spawn<T, F>(&self, work: impl FnOnce(Pool) -> F) -> Result<T>
    where
        F: Future<Output = Result<T>> + Send + 'static,
        T: Send + 'static,
    {
        self.check_up()?;
        let runtime = self.runtime.as_ref().expect("runtime lives until drop");
        let future = work(self.pool.clone());
        let task = runtime.spawn(async move { tokio::time::timeout(CALL_TIMEOUT, future).await });
        let result = match task.await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(anyhow!(NO_ANSWER)),
            Err(err) => Err(anyhow!("the call was lost: {err}")),
        };
        self.settle(result)
    }

    /// Fails at once while the server is taken for unreachable.
    fn check_up(&self) -> Result<()> {
        let mut down = self.down.lock().unwrap_or_else(|p| p.into_inner());
        match down.as_ref() {
            Some((until, why)) if std::time::Instant::now() < *until => Err(anyhow!(
                "team store (PostgreSQL at {}) is unreachable: {why}; retried within {} s",
                self.display,
                BACKOFF.as_secs()
            )),
            Some(_) => {
                *down = None;
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Names the server in an error, and takes it for unreachable a while when the error
    /// says it could not be reached (rather than refusing one statement).
    fn settle<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|err| {
            if unreachable(&err) {
                *self.down.lock().unwrap_or_else(|p| p.into_inner()) = Some((
                    std::time::Instant::now() + BACKOFF,
                    format!("{:#}", err.root_cause()),
                ));
            }
            err.context(format!("team store (PostgreSQL at {})", self.display))
        })
    }
}

/// Whether `err` is about reaching the server (a refused, refused-at-login or broken
/// connection, one that could not be made in time) rather than about one statement, a lock
/// waited for, or a pool whose connections are all in use.
fn unreachable(err: &anyhow::Error) -> bool {
    use deadpool_postgres::{PoolError, TimeoutType};
    err.chain().any(|cause| {
        if let Some(pool) = cause.downcast_ref::<PoolError>() {
            return match pool {
                PoolError::Backend(_) => true,
                PoolError::Timeout(kind) => !matches!(kind, TimeoutType::Wait),
                _ => false,
            };
        }
        let Some(pg) = cause.downcast_ref::<tokio_postgres::Error>() else {
            return false;
        };
        match pg.as_db_error() {
            None => {
                pg.is_closed()
                    || std::error::Error::source(pg).is_some_and(|s| s.is::<std::io::Error>())
            }
            Some(db) => {
                let code = db.code().code();
                // 08: connection exceptions; 57P01-57P03: shut down, crashed, starting.
                code.starts_with("08") || code.starts_with("57P")
            }
        }
    }) || err.chain().any(|cause| cause.to_string() == NO_ANSWER)
}

/// What a call that outlived [`CALL_TIMEOUT`] fails with: a server that stopped answering
/// (statements are cut by the server itself sooner, and the edit lock's wait sooner still,
/// so neither a slow statement nor a held lock reads as this).
const NO_ANSWER: &str = "no answer within 15 s (the call timeout)";

impl Drop for Postgres {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which panics on a runtime thread; this does not.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

fn display(config: &tokio_postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".into());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!(
        "{}@{host}:{port}/{}",
        config.get_user().unwrap_or("?"),
        config.get_dbname().unwrap_or("?")
    )
}

/// What `serve` needs for team mode: the shared database and the key every replica signs
/// rows with (one secret for the deployment, never made per machine).
#[derive(Clone, Debug)]
pub struct Team {
    pub postgres: Arc<Postgres>,
    pub key: JournalKey,
}

/// One root's rows in the team's database: `root` keys every row.
#[derive(Clone)]
pub struct RootRows {
    pg: Arc<Postgres>,
    root: String,
    key: JournalKey,
}

impl RootRows {
    /// `root`'s rows, signed with a key derived for that root from the deployment's `key`:
    /// a row copied or moved to another root's rows in the database does not verify there.
    pub fn new(pg: Arc<Postgres>, root: String, key: JournalKey) -> Self {
        let key = key.derive(&format!("root\0{root}"));
        Self { pg, root, key }
    }
}

impl RowsBackend for RootRows {
    fn packs(&self) -> Result<Box<dyn PackRows>> {
        Ok(Box::new(self.clone()))
    }

    fn memory(&self) -> Result<Box<dyn MemoryRows>> {
        Ok(Box::new(self.clone()))
    }

    fn describe(&self) -> String {
        format!("PostgreSQL at {}", self.pg.display)
    }
}

/// `text` with each NUL replaced by U+FFFD: PostgreSQL's text type cannot hold NUL, and
/// rows are signed as stored, so the replacement comes before the MAC.
fn no_nul(text: &str) -> String {
    text.replace('\0', "\u{FFFD}")
}

/// A u64 time as PostgreSQL's signed bigint.
fn ms(value: u64) -> i64 {
    value.min(i64::MAX as u64) as i64
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::store::rows::PackRows;

    /// A fresh database on the test cluster (`SMART_CONTEXT_TEST_PG`, started by .ci/run
    /// through scripts/test-postgres.sh), dropped again with the guard; None when no cluster
    /// is configured, unless `SMART_CONTEXT_REQUIRE_PG` says there must be one.
    pub(crate) fn database() -> Option<TestDatabase> {
        let Ok(admin) = std::env::var("SMART_CONTEXT_TEST_PG") else {
            assert!(
                std::env::var_os("SMART_CONTEXT_REQUIRE_PG").is_none(),
                "SMART_CONTEXT_REQUIRE_PG is set but SMART_CONTEXT_TEST_PG is not"
            );
            eprintln!(
                "SMART_CONTEXT_TEST_PG is not set; the PostgreSQL half of this test is skipped"
            );
            return None;
        };
        Some(TestDatabase::create(&admin))
    }

    pub(crate) struct TestDatabase {
        admin: String,
        pub name: String,
        pub url: String,
    }

    impl TestDatabase {
        fn create(admin: &str) -> Self {
            let name = format!("sc_unit_{}", uuid::Uuid::new_v4().simple());
            admin_sql(admin, &format!("CREATE DATABASE {name}"));
            let url = with_database(admin, &name);
            Self {
                admin: admin.to_string(),
                name,
                url,
            }
        }

        /// Runs `sql` on this database as the test cluster's superuser.
        pub fn execute(&self, sql: &str) {
            admin_sql(&self.url, sql);
        }
    }

    impl Drop for TestDatabase {
        fn drop(&mut self) {
            admin_sql(
                &self.admin,
                &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            );
        }
    }

    /// `url` with its database name replaced by `name`.
    fn with_database(url: &str, name: &str) -> String {
        let (base, _) = url.rsplit_once('/').expect("a URL with a database");
        format!("{base}/{name}")
    }

    fn admin_sql(url: &str, sql: &str) {
        let url = url.to_string();
        let sql = sql.to_string();
        // A thread of its own: callers may be on a test's runtime.
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                    .await
                    .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
                tokio::spawn(connection);
                client
                    .batch_execute(&sql)
                    .await
                    .unwrap_or_else(|e| panic!("{sql}: {e}"));
            })
        })
        .join()
        .unwrap();
    }

    fn key(byte: u8) -> JournalKey {
        JournalKey::from_bytes([byte; 32])
    }

    #[test]
    fn postgres_keeps_the_pack_contract() {
        let Some(db) = database() else { return };
        let pg = Postgres::connect(&db.url, 4).unwrap();
        let open = |byte: u8, settings| {
            let rows = RootRows::new(pg.clone(), "/srv/repo".into(), key(byte));
            crate::store::packs::Packs::new(settings, rows.packs().unwrap())
        };
        crate::store::packs::tests::contract(&open, &|sql| db.execute(sql));
        // Rows of another root with the same key and pack id are another pack.
        let here = open(7, Default::default());
        let there = crate::store::packs::Packs::new(
            Default::default(),
            RootRows::new(pg.clone(), "/srv/other".into(), key(7))
                .packs()
                .unwrap(),
        );
        assert!(matches!(
            there.get("p3").unwrap(),
            crate::store::packs::Lookup::Missing
        ));
        assert!(matches!(
            here.get("p3").unwrap(),
            crate::store::packs::Lookup::Found(_)
        ));
    }

    #[test]
    fn replicas_saving_and_marking_one_pack_at_once_never_deadlock() {
        let Some(db) = database() else { return };
        let pg = Postgres::connect(&db.url, 8).unwrap();
        let pack = |salt: &str| crate::store::packs::Pack {
            pack_id: "shared".into(),
            query: "q".into(),
            options_json: "{}".into(),
            created_ms: 1,
            expires_ms: u64::MAX,
            reasons: Vec::new(),
            salt: salt.into(),
            items: (0..20)
                .map(|rank| crate::store::packs::PackItem {
                    role: "result".into(),
                    rank,
                    chunk_id: format!("c{rank}"),
                    path: format!("f{rank}.rs"),
                    kind: "file_preview".into(),
                    section_id: String::new(),
                    heading_path: Vec::new(),
                    range: Some((1, 2)),
                    preview: "p".into(),
                    content_hash: None,
                    updated_ms: None,
                    scores_json: None,
                    meta_json: "{}".into(),
                    shown: String::new(),
                })
                .collect(),
        };
        let writers: Vec<_> = (0..6)
            .map(|n| {
                let mut rows = RootRows::new(pg.clone(), "/srv/repo".into(), key(7));
                let pack = pack(&format!("salt{n}"));
                std::thread::spawn(move || {
                    for i in 0..30 {
                        rows.save_pack(&pack, 2, 1_000).unwrap();
                        // Ranks in opposite orders from odd and even writers.
                        let mut shown: Vec<(u32, String)> =
                            (0..20).map(|rank| (rank, format!("seen {i}"))).collect();
                        if n % 2 == 1 {
                            shown.reverse();
                        }
                        rows.mark_shown("shared", "result", &shown).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().expect("no save or marking failed");
        }
        let rows = RootRows::new(pg, "/srv/repo".into(), key(7));
        assert_eq!(rows.load_pack("shared").unwrap().unwrap().items.len(), 20);
    }

    #[test]
    fn postgres_keeps_the_memory_contract() {
        let Some(db) = database() else { return };
        let pg = Postgres::connect(&db.url, 4).unwrap();
        let open = |byte: u8| {
            RootRows::new(pg.clone(), "/srv/repo".into(), key(byte))
                .memory()
                .unwrap()
        };
        crate::store::memory::tests::contract(&open, &|sql| db.execute(sql));
        // A row moved to another root's rows does not verify there: each root signs with a
        // key of its own.
        let mut here = open(7);
        let event = crate::store::memory::tests::event("s", "insight", "moved note", &[]);
        let seqs = here.insert_events(&[event]).unwrap();
        db.execute(&format!(
            "UPDATE memory_events SET root = '/srv/other' WHERE seq = {}",
            seqs[0]
        ));
        let there = RootRows::new(pg.clone(), "/srv/other".into(), key(7))
            .memory()
            .unwrap();
        assert_eq!(there.memory_count().unwrap(), 1);
        assert!(there.memory_events(&seqs).unwrap().is_empty());
    }

    #[test]
    fn postgres_keeps_the_journal_contract() {
        let Some(db) = database() else { return };
        let pg = Postgres::connect(&db.url, 4).unwrap();
        let open = |byte: u8| -> Box<dyn crate::store::rows::JournalRows> {
            Box::new(RootRows::new(pg.clone(), "/srv/repo".into(), key(byte)))
        };
        crate::store::tests::journal_contract(&open, &|sql| db.execute(sql));
        // Another root's journal is another journal, with its own edit lock.
        let there = RootRows::new(pg.clone(), "/srv/other".into(), key(7));
        use crate::store::rows::JournalRows;
        assert_eq!(there.transaction_count().unwrap(), 0);
        let here = open(7).edit_lock().unwrap();
        drop(there.edit_lock().unwrap());
        // A lock whose connection the server ended may be another replica's by now: the
        // writer's check before each write says so.
        here.check().unwrap();
        db.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        );
        let lost = here.check().unwrap_err();
        assert!(format!("{lost:#}").contains("PostgreSQL"), "{lost:#}");
    }

    #[test]
    fn replicas_starting_together_migrate_once_and_a_newer_schema_is_refused() {
        let Some(db) = database() else { return };
        let starts: Vec<_> = (0..4)
            .map(|_| {
                let url = db.url.clone();
                std::thread::spawn(move || Postgres::connect(&url, 1).map(|_| ()))
            })
            .collect();
        for start in starts {
            start.join().unwrap().unwrap();
        }
        db.execute(&format!(
            "UPDATE smart_context_schema SET version = {}",
            SCHEMA_VERSION + 1
        ));
        let err = Postgres::connect(&db.url, 1).unwrap_err();
        assert!(
            format!("{err:#}").contains("newer smart-context"),
            "{err:#}"
        );
    }

    #[test]
    fn an_unreachable_server_is_a_clear_error_that_keeps_the_password() {
        // A loopback port nothing listens on (bound, then released).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("postgres://sc:s3cret-pw@127.0.0.1:{port}/team");
        let err = Postgres::connect(&url, 1).unwrap_err();
        let text = format!("{err:#} {err:?}");
        assert!(
            text.contains(&format!("sc@127.0.0.1:{port}/team")),
            "{text}"
        );
        assert!(
            !text.contains("s3cret-pw"),
            "the password never shows: {text}"
        );
        let err = Postgres::connect("mysql://nope", 1).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a PostgreSQL URL"),
            "{err:#}"
        );
    }
}
