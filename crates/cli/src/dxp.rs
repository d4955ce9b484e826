//! `denkmeter dxp`: International draughts over DamExchange (DXP), TCP messages ending in a
//! NUL byte (see `denkmeter_games::draughts::DxpMessage`).
//!
//! As the follower (`--listen`) it serves one connection at a time: it answers each GAMEREQ
//! with GAMEACC, refusing only a position it cannot read, plays its side, confirms the
//! initiator's GAMEEND and answers BACKREQ with "not supported". As the initiator (`--connect`)
//! it asks for one game, plays it, and sends GAMEEND when the side to move has no move, on a
//! third repetition or at `--max-plies` (a draw), or confirms the other side's GAMEEND.
//!
//! Both sides search with the alpha-beta engine for a share of the game's time. A message that
//! cannot be read, or an illegal move, is logged on standard error and ends the game with
//! GAMEEND; nothing the other side sends can make it panic.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use denkmeter_core::{Game, Player};
use denkmeter_engine::search::{search_with_table, SearchOptions, SearchTable};
use denkmeter_engine::Limits;
use denkmeter_games::draughts::{
    dxp_code, DxpColour, DxpError, DxpMessage, EndReason, GameReq, International, Move, State,
    DXP_VERSION, MAX_DXP_MESSAGE_LEN,
};

/// The address `--listen` takes without one: loopback only, the port DXP programs use.
const DEFAULT_LISTEN: &str = "127.0.0.1:27531";
/// The name sent in GAMEREQ and GAMEACC.
const ENGINE_NAME: &str = "denkmeter";
/// How long a read may wait for the other side's next message.
const DEFAULT_READ_TIMEOUT_SECS: u64 = 300;
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The initiator's game time and moves when not given: 10 minutes for 75 moves.
const DEFAULT_TIME_MINUTES: u16 = 10;
const DEFAULT_MOVES: u16 = 75;
/// The most minutes and moves a GAMEREQ can say (three digits).
const MAX_FIELD: u16 = 999;
/// Moves assumed still to play when the game gives no move count, or its count is nearly
/// used up.
const MIN_MOVES_TO_GO: u32 = 20;
/// The time kept back from every move for the network and the program around the search.
const TIME_SAFETY_MARGIN: Duration = Duration::from_millis(100);
/// The least and most time one move gets; a game of 0 minutes plays every move at the least.
const MIN_MOVE_TIME: Duration = Duration::from_millis(20);
const MAX_MOVE_TIME: Duration = Duration::from_secs(60);
/// The initiator declares a draw after this many plies unless told otherwise.
const DEFAULT_MAX_PLIES: u32 = 400;
/// The search table's size.
const HASH_MB: usize = SearchOptions::DEFAULT_HASH_MB;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    White,
    Black,
}

#[derive(Debug, Args)]
pub struct DxpArgs {
    /// Be the follower: wait for games on this address (default 127.0.0.1:27531, loopback).
    /// Port 0 takes a free port. The bound address is printed first: `listening ADDRESS`.
    #[arg(long, value_name = "ADDRESS", num_args = 0..=1,
          default_missing_value = DEFAULT_LISTEN, conflicts_with = "connect",
          required_unless_present = "connect")]
    listen: Option<String>,
    /// Be the initiator: connect to a follower at HOST:PORT and play one game.
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// The initiator's colour.
    #[arg(long, value_enum, default_value = "white", requires = "connect")]
    colour: Colour,
    /// The game's thinking time in minutes, for each side (0: every move at the least time).
    #[arg(long, default_value_t = DEFAULT_TIME_MINUTES, requires = "connect",
          value_parser = clap::value_parser!(u16).range(0..=i64::from(MAX_FIELD)))]
    time_minutes: u16,
    /// The number of moves the thinking time is for (0: the whole game).
    #[arg(long, default_value_t = DEFAULT_MOVES, requires = "connect",
          value_parser = clap::value_parser!(u16).range(0..=i64::from(MAX_FIELD)))]
    moves: u16,
    /// The initiator declares a draw after this many plies.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// The follower exits after this many games.
    #[arg(long, requires = "listen")]
    max_games: Option<u32>,
    /// Seconds a read waits for the other side before the connection is dropped.
    #[arg(long, default_value_t = DEFAULT_READ_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    read_timeout_secs: u64,
}

pub fn run(args: &DxpArgs) -> Result<()> {
    let read_timeout = Duration::from_secs(args.read_timeout_secs);
    match (&args.listen, &args.connect) {
        (Some(address), _) => follow(address, args.max_games, read_timeout),
        (None, Some(address)) => initiate(args, address, read_timeout),
        (None, None) => bail!("give --listen or --connect"),
    }
}

// ---------------------------------------------------------------- the connection

/// What one read gave.
enum Incoming {
    Message(DxpMessage),
    /// A whole message that could not be read.
    Bad(DxpError),
    /// The other side closed the connection.
    Closed,
}

/// A DXP connection: messages ending in NUL, at most [`MAX_DXP_MESSAGE_LEN`] bytes. A whole
/// message must arrive within the read timeout (a peer trickling bytes cannot hold the
/// follower), and a write that blocks that long (a peer that never reads) drops the connection.
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    peer: SocketAddr,
    read_timeout: Duration,
}

impl Connection {
    fn new(stream: TcpStream, read_timeout: Duration) -> Result<Connection> {
        stream.set_read_timeout(Some(read_timeout))?;
        stream.set_write_timeout(Some(read_timeout))?;
        stream.set_nodelay(true)?;
        let peer = stream.peer_addr()?;
        Ok(Connection {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            peer,
            read_timeout,
        })
    }

    /// The next message. A message longer than the limit, a timeout or a read error is an
    /// error: the connection cannot go on.
    fn recv(&mut self) -> Result<Incoming> {
        let mut bytes = Vec::new();
        let limit = MAX_DXP_MESSAGE_LEN + 1;
        let deadline = Instant::now() + self.read_timeout;
        // Up to the NUL, the limit or the end of input, each read waiting only as long as the
        // message has left.
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                bail!(
                    "{} sent no whole message within {} s",
                    self.peer,
                    self.read_timeout.as_secs()
                );
            }
            self.reader.get_ref().set_read_timeout(Some(left))?;
            let buffer = self
                .reader
                .fill_buf()
                .with_context(|| format!("reading from {}", self.peer))?;
            if buffer.is_empty() {
                break;
            }
            let wanted = limit - bytes.len();
            let (take, end) = match buffer.iter().position(|&b| b == 0) {
                Some(at) if at < wanted => (at + 1, true),
                _ => (buffer.len().min(wanted), false),
            };
            bytes.extend_from_slice(&buffer[..take]);
            self.reader.consume(take);
            if end || bytes.len() >= limit {
                break;
            }
        }
        match bytes.pop() {
            Some(0) => {}
            None => return Ok(Incoming::Closed),
            Some(_) if bytes.len() >= MAX_DXP_MESSAGE_LEN => {
                bail!(
                    "{} sent more than {MAX_DXP_MESSAGE_LEN} bytes without a NUL",
                    self.peer
                )
            }
            Some(_) => {
                tracing::warn!(peer = %self.peer, "connection closed in the middle of a message");
                return Ok(Incoming::Closed);
            }
        }
        tracing::debug!(peer = %self.peer, "received {:?}", String::from_utf8_lossy(&bytes));
        Ok(match DxpMessage::parse(&bytes) {
            Ok(message) => Incoming::Message(message),
            Err(error) => Incoming::Bad(error),
        })
    }

    fn send(&mut self, message: &DxpMessage) -> Result<()> {
        let mut bytes = message.to_text().into_bytes();
        tracing::debug!(peer = %self.peer, "sending {:?}", String::from_utf8_lossy(&bytes));
        bytes.push(0);
        self.writer
            .write_all(&bytes)
            .with_context(|| format!("writing to {}", self.peer))
    }
}

// ---------------------------------------------------------------- one game

/// The clock of our side: the game's time for its number of moves.
struct Clock {
    total: Duration,
    moves: u32,
    used: Duration,
    played: u32,
}

impl Clock {
    fn new(time_minutes: u16, moves: u16) -> Clock {
        Clock {
            total: Duration::from_secs(u64::from(time_minutes) * 60),
            moves: u32::from(moves),
            used: Duration::ZERO,
            played: 0,
        }
    }

    /// The time for the next move: what is left of this period's time, shared over the moves
    /// left in it (at least [`MIN_MOVES_TO_GO`]), less [`TIME_SAFETY_MARGIN`].
    fn budget(&self) -> Duration {
        let (left, to_go) = match self.played.checked_div(self.moves) {
            None => (self.total.saturating_sub(self.used), MIN_MOVES_TO_GO),
            // A new period's time comes after every `moves` moves.
            Some(periods_done) => {
                let left = (self.total * (periods_done + 1)).saturating_sub(self.used);
                let to_go = self.moves - self.played % self.moves;
                (left, to_go.max(MIN_MOVES_TO_GO))
            }
        };
        (left / to_go)
            .saturating_sub(TIME_SAFETY_MARGIN)
            .clamp(MIN_MOVE_TIME, MAX_MOVE_TIME)
    }

    fn spent(&mut self, time: Duration) {
        self.used += time;
        self.played += 1;
    }
}

/// A game in progress, from one side's point of view.
struct Match {
    game: International,
    state: State,
    mine: Player,
    /// The repetition hashes of the positions before this one.
    history: Vec<u64>,
    moves: Vec<String>,
    clock: Clock,
}

impl Match {
    fn new(state: State, mine: Player, clock: Clock) -> Match {
        Match {
            game: International::new(),
            state,
            mine,
            history: Vec::new(),
            moves: Vec::new(),
            clock,
        }
    }

    fn my_turn(&self) -> bool {
        self.state.to_move() == self.mine
    }

    fn play(&mut self, mv: Move) {
        self.moves.push(self.game.move_text(&self.state, mv));
        self.history.push(self.game.repetition_hash(&self.state));
        self.game.play_unchecked(&mut self.state, mv);
    }

    /// Whether the game is over, from our side: the side to move has no move, or (when the
    /// initiator judges) a third repetition or `max_plies` make a draw.
    fn over(&self, max_plies: Option<u32>) -> Option<EndReason> {
        let mut moves = Vec::new();
        self.game.legal_moves(&self.state, &mut moves);
        if moves.is_empty() {
            return Some(if self.my_turn() {
                EndReason::ILose
            } else {
                EndReason::IWin
            });
        }
        let max_plies = max_plies?;
        let hash = self.game.repetition_hash(&self.state);
        let seen = self.history.iter().filter(|&&h| h == hash).count();
        (seen >= 2 || self.moves.len() >= max_plies as usize).then_some(EndReason::Draw)
    }

    /// Searches our move for the clock's share, plays it and returns it as a MOVE.
    fn think(&mut self, table: &mut SearchTable) -> Result<DxpMessage> {
        let started = Instant::now();
        let budget = self.clock.budget();
        let options = SearchOptions {
            history: self.history.clone(),
            ..SearchOptions::new(Limits {
                time: Some(budget),
                ..Limits::default()
            })
        };
        let result = search_with_table(&self.game, &self.state, &options, table, &mut |_| {})
            .ok_or_else(|| anyhow!("no legal move to play"))?;
        let spent = started.elapsed();
        self.clock.spent(spent);
        // The field has four digits.
        let seconds = u16::try_from(spent.as_secs().min(9_999)).unwrap_or(9_999);
        let message = DxpMessage::Move(self.game.dxp_move(result.best, seconds));
        tracing::info!(
            "plays {} (depth {}, {} ms of {} ms)",
            self.game.move_text(&self.state, result.best),
            result.depth,
            spent.as_millis(),
            budget.as_millis()
        );
        self.play(result.best);
        Ok(message)
    }

    /// Plays the other side's move, or says why it cannot be played.
    fn theirs(&mut self, mv: &denkmeter_games::draughts::DxpMove) -> Result<(), DxpError> {
        if self.my_turn() {
            return Err(DxpError::Illegal(format!("{mv} (it is not their turn)")));
        }
        let found = self.game.resolve_dxp_move(&self.state, mv)?;
        self.play(found);
        Ok(())
    }

    /// One line for standard output: the result from White's side and the moves.
    fn summary(&self, reason: EndReason) -> String {
        let result = match (reason, self.mine) {
            (EndReason::Draw, _) => "1-1",
            (EndReason::Unknown, _) => "*",
            (EndReason::IWin, Player::White) | (EndReason::ILose, Player::Black) => "2-0",
            _ => "0-2",
        };
        format!(
            "result {result} after {} plies: {}",
            self.moves.len(),
            self.moves.join(" ")
        )
    }
}

// ---------------------------------------------------------------- the follower

fn follow(address: &str, max_games: Option<u32>, read_timeout: Duration) -> Result<()> {
    let listener =
        TcpListener::bind(address).with_context(|| format!("cannot listen on {address}"))?;
    let bound = listener.local_addr()?;
    if !bound.ip().is_loopback() {
        tracing::warn!(%bound, "listening on an address other machines can reach");
    }
    outln!("listening {bound}");
    let mut table = SearchTable::new(HASH_MB);
    let mut games = 0u32;
    while max_games.map_or(true, |max| games < max) {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(error) => {
                tracing::warn!(%error, "accept failed");
                continue;
            }
        };
        tracing::info!(%peer, "connected");
        let result = Connection::new(stream, read_timeout)
            .and_then(|mut conn| serve(&mut conn, &mut table, &mut games, max_games));
        match result {
            Ok(()) => tracing::info!(%peer, "disconnected"),
            Err(error) => tracing::warn!(%peer, "connection dropped: {error:#}"),
        }
    }
    Ok(())
}

/// The follower's side of one connection, until the other side closes it, the read times out
/// or the last game allowed has ended and another is asked for.
fn serve(
    conn: &mut Connection,
    table: &mut SearchTable,
    games: &mut u32,
    max_games: Option<u32>,
) -> Result<()> {
    let mut current: Option<Match> = None;
    loop {
        let message = match conn.recv()? {
            Incoming::Closed => return Ok(()),
            Incoming::Bad(error) => {
                tracing::warn!(peer = %conn.peer, "bad message: {error}");
                if let Some(game) = current.take() {
                    end_game(conn, &game, EndReason::Unknown, games, max_games)?;
                }
                continue;
            }
            Incoming::Message(message) => message,
        };
        match message {
            DxpMessage::GameReq(request) => {
                if max_games.is_some_and(|max| *games >= max) {
                    tracing::info!("the last game has been played; closing");
                    return Ok(());
                }
                if current.is_some() {
                    tracing::warn!("a new game asked for in the middle of one; starting it");
                }
                current = accept(conn, &request)?;
                if let Some(game) = current.as_mut().filter(|g| g.my_turn()) {
                    if game.over(None).is_none() {
                        let mv = game.think(table)?;
                        conn.send(&mv)?;
                    }
                }
            }
            DxpMessage::Move(mv) => {
                let Some(game) = current.as_mut() else {
                    tracing::warn!("a move outside a game: {mv}");
                    continue;
                };
                if let Err(error) = game.theirs(&mv) {
                    tracing::warn!("refused move: {error}");
                    if let Some(game) = current.take() {
                        end_game(conn, &game, EndReason::Unknown, games, max_games)?;
                    }
                    continue;
                }
                // At the end of the game the initiator sends GAMEEND.
                if game.over(None).is_none() {
                    let reply = game.think(table)?;
                    conn.send(&reply)?;
                }
            }
            DxpMessage::GameEnd { reason, stop } => match current.take() {
                Some(game) => {
                    tracing::info!(?reason, stop, "the initiator ends the game");
                    // An initiator that gives no reason (pydraughts) leaves the result to the
                    // board where the board has decided it.
                    let reason = match (reason.mirrored(), game.over(None)) {
                        (EndReason::Unknown, Some(decided)) => decided,
                        (reason, _) => reason,
                    };
                    end_game(conn, &game, reason, games, max_games)?;
                }
                None => tracing::debug!("GAMEEND confirmed"),
            },
            DxpMessage::BackReq { .. } => conn.send(&DxpMessage::BackAcc {
                code: dxp_code::BACK_NOT_SUPPORTED,
            })?,
            DxpMessage::Chat(text) => tracing::info!(peer = %conn.peer, "chat: {text}"),
            other @ (DxpMessage::GameAcc { .. } | DxpMessage::BackAcc { .. }) => {
                tracing::warn!("unexpected message for a follower: {other:?}");
            }
        }
    }
}

/// Answers a GAMEREQ: the game, or `None` when its position cannot be played.
fn accept(conn: &mut Connection, request: &GameReq) -> Result<Option<Match>> {
    let game = International::new();
    let state = match &request.position {
        None => Ok(game.start()),
        Some(position) => game.dxp_state(position),
    };
    if request.version != DXP_VERSION {
        tracing::warn!(
            version = request.version,
            "unknown DXP version; playing anyway"
        );
    }
    let (code, result) = match state {
        Ok(state) => {
            let mine = Player::from(request.follower_colour);
            let clock = Clock::new(request.time_minutes, request.moves);
            (dxp_code::ACCEPTED, Some(Match::new(state, mine, clock)))
        }
        Err(error) => {
            tracing::warn!("refused game: {error}");
            (dxp_code::NOT_THIS_POSITION, None)
        }
    };
    tracing::info!(
        initiator = %request.name,
        colour = ?request.follower_colour,
        minutes = request.time_minutes,
        moves = request.moves,
        code,
        "game requested"
    );
    conn.send(&DxpMessage::GameAcc {
        name: ENGINE_NAME.to_string(),
        code,
    })?;
    Ok(result)
}

/// Sends the follower's GAMEEND (a confirmation, or its own end after a bad message) and
/// counts the game.
fn end_game(
    conn: &mut Connection,
    game: &Match,
    reason: EndReason,
    games: &mut u32,
    max_games: Option<u32>,
) -> Result<()> {
    *games += 1;
    let stop = max_games.is_some_and(|max| *games >= max);
    outln!("game {games}: {}", game.summary(reason));
    conn.send(&DxpMessage::GameEnd { reason, stop })
}

// ---------------------------------------------------------------- the initiator

fn initiate(args: &DxpArgs, address: &str, read_timeout: Duration) -> Result<()> {
    let target = address
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve {address}"))?
        .next()
        .ok_or_else(|| anyhow!("{address} has no address"))?;
    let stream = TcpStream::connect_timeout(&target, CONNECT_TIMEOUT)
        .with_context(|| format!("cannot connect to {target}"))?;
    let mut conn = Connection::new(stream, read_timeout)?;
    let mine = match args.colour {
        Colour::White => Player::White,
        Colour::Black => Player::Black,
    };
    conn.send(&DxpMessage::GameReq(GameReq {
        version: DXP_VERSION,
        name: ENGINE_NAME.to_string(),
        follower_colour: DxpColour::from(mine).other(),
        time_minutes: args.time_minutes,
        moves: args.moves,
        position: None,
    }))?;
    loop {
        match conn.recv()? {
            Incoming::Message(DxpMessage::GameAcc { name, code }) if code == dxp_code::ACCEPTED => {
                tracing::info!(follower = %name, "game accepted");
                break;
            }
            Incoming::Message(DxpMessage::GameAcc { name, code }) => {
                bail!("{name} refused the game (code {code})")
            }
            Incoming::Message(DxpMessage::Chat(text)) => tracing::info!("chat: {text}"),
            Incoming::Message(other) => tracing::warn!("unexpected before GAMEACC: {other:?}"),
            Incoming::Bad(error) => tracing::warn!("bad message: {error}"),
            Incoming::Closed => bail!("the follower closed the connection"),
        }
    }
    let game = International::new();
    let mut current = Match::new(
        game.start(),
        mine,
        Clock::new(args.time_minutes, args.moves),
    );
    let mut table = SearchTable::new(HASH_MB);
    loop {
        // A draw (a third repetition, the ply limit) is declared only on our turn: on the
        // follower's, its move may already be on the way, and the two records would differ.
        let over = current
            .over(Some(args.max_plies))
            .filter(|&reason| reason != EndReason::Draw || current.my_turn());
        if let Some(reason) = over {
            conn.send(&DxpMessage::GameEnd { reason, stop: true })?;
            outln!("{}", current.summary(reason));
            await_confirmation(&mut conn);
            return Ok(());
        }
        if current.my_turn() {
            let mv = current.think(&mut table)?;
            conn.send(&mv)?;
            continue;
        }
        match conn.recv()? {
            Incoming::Message(DxpMessage::Move(mv)) => {
                if let Err(error) = current.theirs(&mv) {
                    conn.send(&DxpMessage::GameEnd {
                        reason: EndReason::Unknown,
                        stop: true,
                    })?;
                    bail!("the follower played a move that is not legal: {error}");
                }
            }
            Incoming::Message(DxpMessage::GameEnd { reason, stop }) => {
                tracing::info!(?reason, stop, "the follower ends the game");
                let ours = reason.mirrored();
                conn.send(&DxpMessage::GameEnd {
                    reason: ours,
                    stop: true,
                })?;
                outln!("{}", current.summary(ours));
                return Ok(());
            }
            Incoming::Message(DxpMessage::BackReq { .. }) => conn.send(&DxpMessage::BackAcc {
                code: dxp_code::BACK_NOT_SUPPORTED,
            })?,
            Incoming::Message(DxpMessage::Chat(text)) => tracing::info!("chat: {text}"),
            Incoming::Message(other) => tracing::warn!("unexpected in a game: {other:?}"),
            Incoming::Bad(error) => {
                conn.send(&DxpMessage::GameEnd {
                    reason: EndReason::Unknown,
                    stop: true,
                })?;
                bail!("the follower sent a bad message: {error}");
            }
            Incoming::Closed => bail!("the follower closed the connection in the game"),
        }
    }
}

/// Waits for the follower's GAMEEND after ours; whatever else comes (or nothing, within the
/// read timeout) is only logged, the game being over.
fn await_confirmation(conn: &mut Connection) {
    loop {
        match conn.recv() {
            Ok(Incoming::Message(DxpMessage::GameEnd { .. })) | Ok(Incoming::Closed) => return,
            Ok(Incoming::Message(other)) => tracing::debug!("after GAMEEND: {other:?}"),
            Ok(Incoming::Bad(error)) => tracing::warn!("bad message after GAMEEND: {error}"),
            Err(error) => {
                tracing::warn!("no GAMEEND back: {error:#}");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_shares_the_time_over_the_moves() {
        let clock = Clock::new(0, 0);
        assert_eq!(clock.budget(), MIN_MOVE_TIME);
        let mut clock = Clock::new(10, 50);
        assert_eq!(clock.budget(), Duration::from_secs(12) - TIME_SAFETY_MARGIN);
        clock.spent(Duration::from_secs(100));
        assert!(clock.budget() < Duration::from_secs(12));
        // Near the end of a period, the moves still to go are never fewer than the minimum.
        let mut clock = Clock::new(1, 40);
        for _ in 0..39 {
            clock.spent(Duration::ZERO);
        }
        assert_eq!(
            clock.budget(),
            Duration::from_secs(60) / MIN_MOVES_TO_GO - TIME_SAFETY_MARGIN
        );
        assert!(Clock::new(999, 1).budget() <= MAX_MOVE_TIME);
    }
}
