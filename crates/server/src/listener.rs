//! The accept loop: HTTP/1.1 connections with a cap on how many are open (in all and per
//! client address), a time limit for a request's headers that also closes connections left
//! idle between requests, the client's address for the rate limits, and WebSocket upgrades.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::AppState;

/// A connection's place under the cap, carried by every request of the connection. A WebSocket
/// keeps it for as long as the socket is open (the HTTP connection ends at the upgrade).
#[derive(Clone, Debug)]
pub struct ConnectionSlot {
    _held: Arc<(OwnedSemaphorePermit, Option<AddressSlot>)>,
}

/// How many connections each client address has open.
#[derive(Debug, Default)]
struct PerAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection's place under its address's cap, given back when dropped.
#[derive(Debug)]
struct AddressSlot {
    counts: Arc<PerAddress>,
    address: IpAddr,
}

impl PerAddress {
    /// A place for one more connection from `address`, if it has fewer than `cap` open.
    fn admit(self: &Arc<Self>, address: IpAddr, cap: usize) -> Option<AddressSlot> {
        let mut open = self.open.lock().ok()?;
        let count = open.entry(address).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            counts: self.clone(),
            address,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.counts.open.lock() {
            if let Some(count) = open.get_mut(&self.address) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    open.remove(&self.address);
                }
            }
        }
    }
}

/// File descriptors kept free for the database, logs and the listener itself.
const RESERVED_FILES: u64 = 64;

/// The connection cap that fits this process: the configured one, lowered to what the
/// file-descriptor limit allows (the soft limit is first raised to the hard one).
pub fn connection_cap(configured: usize) -> usize {
    let files = rlimit::increase_nofile_limit(u64::MAX)
        .ok()
        .or_else(|| {
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|l| l.0)
        })
        .unwrap_or(1024);
    let fits = files.saturating_sub(RESERVED_FILES).max(16);
    configured.min(usize::try_from(fits).unwrap_or(usize::MAX))
}

/// Serves the application on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    let cap = connection_cap(state.config.max_connections);
    let header_timeout = state.config.header_timeout;
    let per_address = state.config.max_connections_per_address;
    let app = crate::app(state);
    let open = Arc::new(Semaphore::new(cap));
    let by_address = Arc::new(PerAddress::default());
    tracing::info!(
        max_connections = cap,
        max_connections_per_address = per_address,
        "accepting connections"
    );
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors or a connection reset before it was taken:
                    // wait a moment rather than spin.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tracing::warn!(%peer, max = cap, "too many connections: refused");
            drop(stream);
            continue;
        };
        let address_slot = if per_address == 0 {
            None
        } else {
            match by_address.admit(peer.ip(), per_address) {
                Some(slot) => Some(slot),
                None => {
                    tracing::warn!(%peer, max = per_address, "too many connections from one address: refused");
                    drop(stream);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let slot = ConnectionSlot {
            _held: Arc::new((permit, address_slot)),
        };
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request
                        .extensions_mut()
                        .insert(ConnectInfo::<SocketAddr>(peer));
                    request.extensions_mut().insert(slot.clone());
                    let app = app.clone();
                    async move {
                        Ok::<_, Infallible>(
                            app.oneshot(request).await.unwrap_or_else(|e| match e {}),
                        )
                    }
                });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(error) = connection.await {
                tracing::debug!(%peer, %error, "connection ended");
            }
        });
    }
}
