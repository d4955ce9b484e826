//! A fresh PostgreSQL database for a test of the command line (shared by the test files that
//! start servers on one).

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

/// A fresh PostgreSQL database for one test, or `None` (skipped) without
/// `DENKMETER_TEST_POSTGRES_URL`; dropped with the guard.
pub struct PostgresDatabase {
    admin: String,
    name: String,
    pub url: String,
}

impl PostgresDatabase {
    pub fn create(name: &str) -> Option<PostgresDatabase> {
        let Ok(admin) = std::env::var("DENKMETER_TEST_POSTGRES_URL") else {
            assert!(
                std::env::var("DENKMETER_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "DENKMETER_REQUIRE_POSTGRES=1 but DENKMETER_TEST_POSTGRES_URL is not set"
            );
            eprintln!("skipped: DENKMETER_TEST_POSTGRES_URL is not set");
            return None;
        };
        let name = format!("dm_{name}_{}", std::process::id());
        PostgresDatabase::run(
            &admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        PostgresDatabase::run(&admin, &format!("CREATE DATABASE {name}"));
        let base = admin.split('?').next().unwrap();
        let (server, _) = base.rsplit_once('/').unwrap();
        let url = format!("{server}/{name}");
        Some(PostgresDatabase { admin, name, url })
    }

    fn run(admin: &str, statement: &str) {
        use sqlx::Connection;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut conn = sqlx::PgConnection::connect(admin).await.unwrap();
            sqlx::query(statement).execute(&mut conn).await.unwrap();
        });
    }
}

impl Drop for PostgresDatabase {
    /// A session the test role may not end (autovacuum's, on a role without
    /// pg_signal_backend) can hold the database a moment: tried again, and left behind rather
    /// than failing a test that passed.
    fn drop(&mut self) {
        use sqlx::Connection;
        let statement = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            for _ in 0..20 {
                if let Ok(mut conn) = sqlx::PgConnection::connect(&self.admin).await {
                    if sqlx::query(&statement).execute(&mut conn).await.is_ok() {
                        return;
                    }
                }
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            eprintln!("test database {} left behind", self.name);
        });
    }
}
