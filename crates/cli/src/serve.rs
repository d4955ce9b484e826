//! `denkmeter serve`: the web application.

use std::net::{IpAddr, SocketAddr};

use anyhow::{Context, Result};
use clap::Args;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (0.0.0.0 to be reachable from other machines).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The database: a SQLite URL (default: denkmeter.db here, created on first start) or a
    /// PostgreSQL URL (postgres://user:password@host/database).
    #[arg(long, default_value = denkmeter_server::DEFAULT_DATABASE)]
    database: String,
}

pub fn run(args: &ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let addr = SocketAddr::new(args.host, args.port);
    runtime.block_on(async {
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("stopping");
        };
        denkmeter_server::serve(addr, &args.database, shutdown)
            .await
            .context("the server stopped")
    })
}
