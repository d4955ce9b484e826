//! Per-client rate limits (by peer address, with the `governor` crate): new games per minute
//! and moves (resignations, draw offers) per second, sign-ups and sign-ins per minute. A client over its limit gets 429 with a
//! message saying when to try again; nothing is changed. And the time a request's body may
//! take to arrive.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::error::ApiError;

/// The per-client limits; `None` where there is no limit.
#[derive(Clone, Debug, Default)]
pub struct RateLimits {
    games: Option<Limit>,
    moves: Option<Limit>,
    sign_ins: Option<Limit>,
}

#[derive(Clone, Debug)]
struct Limit {
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    per: &'static str,
    rate: u32,
}

impl RateLimits {
    /// At most `games_per_minute` new games and `moves_per_second` moves per client address
    /// (0: no limit). Short bursts are allowed: a minute's games at once, two seconds' moves.
    pub fn new(games_per_minute: u32, moves_per_second: u32) -> RateLimits {
        RateLimits {
            games: NonZeroU32::new(games_per_minute).map(|n| Limit {
                limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(n))),
                per: "minute",
                rate: n.get(),
            }),
            moves: NonZeroU32::new(moves_per_second).map(|n| Limit {
                limiter: Arc::new(RateLimiter::keyed(
                    Quota::per_second(n)
                        .allow_burst(NonZeroU32::new(n.get().saturating_mul(2)).unwrap_or(n)),
                )),
                per: "second",
                rate: n.get(),
            }),
            sign_ins: None,
        }
    }

    /// These limits and at most `per_minute` sign-ups and sign-ins per client address (0: no
    /// limit), a few at once.
    pub fn with_sign_ins(mut self, per_minute: u32) -> RateLimits {
        self.sign_ins = NonZeroU32::new(per_minute).map(|n| Limit {
            limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(n))),
            per: "minute",
            rate: n.get(),
        });
        self
    }

    /// Forgets clients that have not come for a while, so the limits' memory stays small.
    pub fn forget_idle_clients(&self) {
        for limit in [&self.games, &self.moves, &self.sign_ins]
            .into_iter()
            .flatten()
        {
            limit.limiter.retain_recent();
            limit.limiter.shrink_to_fit();
        }
    }
}

/// The client's address (a request that did not come through the server's listener, as in a
/// test calling the router directly, counts as one client).
fn client(request: &Request) -> IpAddr {
    address_in(request.extensions())
}

fn address_in(extensions: &axum::http::Extensions) -> IpAddr {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
}

/// The address a request came from, as the rate limits count clients.
#[derive(Clone, Copy, Debug)]
pub struct ClientAddress(pub IpAddr);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<ClientAddress, std::convert::Infallible> {
        Ok(ClientAddress(address_in(&parts.extensions)))
    }
}

impl RateLimits {
    /// Counts something done over a socket against its client's moves limit: the analysis
    /// board's searches, asked for as often as moves are made.
    pub fn check_moves(&self, address: IpAddr) -> Result<(), ApiError> {
        check_address(self.moves.as_ref(), address, "searches")
    }
}

fn check(limit: Option<&Limit>, request: &Request, what: &str) -> Result<(), ApiError> {
    check_address(limit, client(request), what)
}

fn check_address(limit: Option<&Limit>, address: IpAddr, what: &str) -> Result<(), ApiError> {
    let Some(limit) = limit else {
        return Ok(());
    };
    limit.limiter.check_key(&address).map_err(|not_until| {
        let wait = not_until
            .wait_time_from(DefaultClock::default().now())
            .max(Duration::from_millis(1));
        ApiError::TooManyRequests(format!(
            "too many {what} from your address (at most {} per {}); try again in {:.1} s",
            limit.rate,
            limit.per,
            wait.as_secs_f64()
        ))
    })
}

/// Which limit a route counts against.
#[derive(Clone, Copy, Debug)]
pub enum Counted {
    Games,
    Moves,
    SignIns,
}

/// The middleware: counts the request against its client's limit, or answers 429.
pub async fn limit(
    State((limits, counted)): State<(RateLimits, Counted)>,
    request: Request,
    next: Next,
) -> Response {
    let checked = match counted {
        Counted::Games => check(limits.games.as_ref(), &request, "new games"),
        Counted::Moves => check(limits.moves.as_ref(), &request, "moves"),
        Counted::SignIns => check(limits.sign_ins.as_ref(), &request, "sign-ins"),
    };
    match checked {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

/// The middleware that reads every request's body (at most [`super::BODY_LIMIT`]) within
/// `deadline` of its headers: a body that trickles in more slowly gets 408 and its connection
/// is closed, so that it cannot hold a connection, and the handler waiting for it, for ever.
pub async fn read_body_in_time(
    State(deadline): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, super::BODY_LIMIT);
    let error = match tokio::time::timeout(deadline, read).await {
        Ok(Ok(bytes)) => {
            return next
                .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await
        }
        Ok(Err(error)) => {
            if error.into_inner().is::<http_body_util::LengthLimitError>() {
                ApiError::TooLarge(format!(
                    "the request body is larger than {} KiB",
                    super::BODY_LIMIT / 1024
                ))
            } else {
                ApiError::BadRequest("the request body could not be read".into())
            }
        }
        Err(_) => ApiError::RequestTimeout(format!(
            "the request body did not arrive within {} s",
            deadline.as_secs_f64()
        )),
    };
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
