//! `denkmeter dxp`: International draughts over DamExchange (DXP), TCP messages ending in a
//! NUL byte (see `denkmeter_games::draughts::DxpMessage`).
//!
//! As the follower (`--listen`) it serves one connection at a time: it answers each GAMEREQ
//! with GAMEACC, refusing only a position it cannot read, plays its side and answers BACKREQ
//! with "not supported". As the initiator (`--connect`) it asks for one game (from the start
//! or `--position`) and plays it.
//!
//! Both sides play through [`Playthrough`], as the terminal and the server do. As the
//! specification says, only the side to move ends a game: instead of a move it sends GAMEEND
//! when the rules have ended the game (it has no move, a third repetition, ...), when both
//! sides have played the game's length in moves from GAMEREQ, or (the initiator) at
//! `--max-plies`. The other side's GAMEEND is confirmed with reason 0.
//!
//! Both sides search with the alpha-beta engine for a share of the game's time. A message that
//! cannot be read, or an illegal move, is logged on standard error and ends the game with
//! GAMEEND; nothing the other side sends can make it panic.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use denkmeter_core::{Game, Outcome, Player, Playthrough, Status};
use denkmeter_engine::search::{search_with_table, SearchOptions, SearchTable};
use denkmeter_engine::{Limits, TimePlan};
use denkmeter_games::draughts::{
    dxp_code, DxpError, DxpMessage, DxpMove, EndReason, GameReq, International, State, DXP_VERSION,
    MAX_DXP_MESSAGE_LEN,
};

use crate::hub::{move_plan, ClockLevel};

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
/// The fewest moves the time left is shared over: the game's time is shared over the moves
/// left to its length, but over this many when the game has no length or is nearly over.
const MIN_MOVES_TO_GO: u32 = 20;
/// The time of every move in a game of 0 minutes.
const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(20);
/// The most time one move gets.
const MAX_MOVE_TIME: Duration = Duration::from_secs(60);
/// The initiator declares a draw after this many plies unless told otherwise.
const DEFAULT_MAX_PLIES: u32 = 400;
/// The search table's size.
const HASH_MB: usize = SearchOptions::DEFAULT_HASH_MB;

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
    /// The initiator's colour: white or black.
    #[arg(long, default_value = "white", requires = "connect", value_parser = player())]
    colour: Player,
    /// The game's thinking time in minutes, for each side (0: every move in 20 ms).
    #[arg(long, default_value_t = DEFAULT_TIME_MINUTES, requires = "connect",
          value_parser = clap::value_parser!(u16).range(0..=i64::from(MAX_FIELD)))]
    time_minutes: u16,
    /// The game's length in moves of each side, which the thinking time is for; once both
    /// sides have played them, the game ends without a result (0: no limit).
    #[arg(long, default_value_t = DEFAULT_MOVES, requires = "connect",
          value_parser = clap::value_parser!(u16).range(0..=i64::from(MAX_FIELD)))]
    moves: u16,
    /// The initiator's start position, a FEN or position string (default: the start).
    #[arg(long, requires = "connect")]
    position: Option<String>,
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

/// Reads `white` or `black` (and lists them in `--help`).
fn player() -> impl TypedValueParser<Value = Player> {
    PossibleValuesParser::new(Player::BOTH.map(Player::name)).map(|name| {
        if name == Player::White.name() {
            Player::White
        } else {
            Player::Black
        }
    })
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
            let buffer = match self.reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if timed_out(&error) => bail!(
                    "{} sent no whole message within {} s (--read-timeout-secs)",
                    self.peer,
                    self.read_timeout.as_secs()
                ),
                Err(error) => {
                    return Err(error).with_context(|| format!("reading from {}", self.peer))
                }
            };
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
        match self.writer.write_all(&bytes) {
            Err(error) if timed_out(&error) => bail!(
                "{} read nothing for {} s (--read-timeout-secs)",
                self.peer,
                self.read_timeout.as_secs()
            ),
            other => other.with_context(|| format!("writing to {}", self.peer)),
        }
    }
}

/// Whether a read or write failed because its timeout passed (`WouldBlock` on Unix).
fn timed_out(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

// ---------------------------------------------------------------- one game

/// The clock of our side: the game's time for its whole length, as GAMEREQ gives them.
struct Clock {
    total: Duration,
    /// The moves the time is for: the game's length (0: no limit).
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

    /// The time for the next move: what is left of the game's time planned over the moves
    /// left to play (at least [`MIN_MOVES_TO_GO`]), as `denkmeter hub` plans a clock, and at
    /// most [`MAX_MOVE_TIME`]. A game of 0 minutes plays every move in [`UNTIMED_MOVE_TIME`],
    /// a fixed time.
    fn plan(&self) -> TimePlan {
        if self.total.is_zero() {
            return TimePlan {
                target: UNTIMED_MOVE_TIME,
                most: UNTIMED_MOVE_TIME,
            };
        }
        let to_go = self.moves.saturating_sub(self.played).max(MIN_MOVES_TO_GO);
        let clock = ClockLevel {
            time: self.total.saturating_sub(self.used),
            increment: Duration::ZERO,
            moves_to_go: Some(to_go),
        };
        let plan = move_plan(&clock, self.played);
        TimePlan {
            target: plan.target.min(MAX_MOVE_TIME),
            most: plan.most.min(MAX_MOVE_TIME),
        }
    }

    /// The search's limits for the next move: the plan, managed unless the game is untimed.
    fn limits(&self) -> Limits {
        let plan = self.plan();
        Limits {
            time: Some(plan.most),
            target: (!self.total.is_zero()).then_some(plan.target),
            ..Limits::default()
        }
    }

    fn spent(&mut self, time: Duration) {
        self.used += time;
        self.played += 1;
    }
}

/// A game's result as one side records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win(Player),
    Draw,
    /// Ended without a result: the game's length reached, a bad message, or the other side
    /// ending it with no reason where the board has not decided.
    Unknown,
}

impl Score {
    fn of(outcome: &Outcome) -> Score {
        outcome.winner.map_or(Score::Draw, Score::Win)
    }

    /// In points from White's side, as International draughts writes results.
    fn text(self) -> &'static str {
        match self {
            Score::Win(Player::White) => "2-0",
            Score::Win(Player::Black) => "0-2",
            Score::Draw => "1-1",
            Score::Unknown => "*",
        }
    }
}

/// A game in progress, from one side's point of view. It is played through the same
/// game-progress code as the terminal and the server ([`Playthrough`]): its status says when
/// the rules end the game (no move, a third repetition, and any other ending the ruleset has).
struct Match {
    play: Playthrough<International>,
    mine: Player,
    clock: Clock,
    /// The game's length from GAMEREQ, in moves of each side (0: no limit).
    length: u16,
}

impl Match {
    fn new(state: State, mine: Player, time_minutes: u16, moves: u16) -> Match {
        Match {
            play: Playthrough::from_state(International::new(), state),
            mine,
            clock: Clock::new(time_minutes, moves),
            length: moves,
        }
    }

    fn my_turn(&self) -> bool {
        self.play.to_move() == self.mine
    }

    fn plies(&self) -> usize {
        self.play.moves().len()
    }

    /// Whether we end the game now, on our turn, and why: the rules have ended it, both sides
    /// have played the game's length (the result unknown, as other DXP programs do), or the
    /// initiator's `max_plies` make it a draw.
    fn our_end(&self, max_plies: Option<u32>) -> Option<(EndReason, Score)> {
        if let Status::Over(outcome) = self.play.status() {
            let reason = match outcome.winner {
                Some(winner) if winner == self.mine => EndReason::IWin,
                Some(_) => EndReason::ILose,
                None => EndReason::Draw,
            };
            return Some((reason, Score::of(&outcome)));
        }
        if self.length > 0 && self.plies() >= 2 * usize::from(self.length) {
            return Some((EndReason::Unknown, Score::Unknown));
        }
        let max_plies = usize::try_from(max_plies?).unwrap_or(usize::MAX);
        (self.plies() >= max_plies).then_some((EndReason::Draw, Score::Draw))
    }

    /// The result of a game the other side ends with `reason`: the board's where the rules
    /// have decided it, else what the other side says.
    fn their_end(&self, reason: EndReason) -> Score {
        if let Status::Over(outcome) = self.play.status() {
            return Score::of(&outcome);
        }
        match reason {
            EndReason::ILose => Score::Win(self.mine),
            EndReason::IWin => Score::Win(self.mine.opponent()),
            EndReason::Draw => Score::Draw,
            EndReason::Unknown => Score::Unknown,
        }
    }

    /// Searches our move for the clock's share, plays it and returns it as a MOVE.
    fn think(&mut self, table: &mut SearchTable) -> Result<DxpMessage> {
        let started = Instant::now();
        let limits = self.clock.limits();
        let budget = limits.target.or(limits.time).unwrap_or_default();
        let hashes = self.play.repetition_hashes();
        let options = SearchOptions {
            history: hashes[..hashes.len() - 1].to_vec(),
            ..SearchOptions::new(limits)
        };
        let state = self.play.state();
        let result = search_with_table(self.play.game(), state, &options, table, &mut |_| {})
            .ok_or_else(|| anyhow!("no legal move to play"))?;
        let spent = started.elapsed();
        self.clock.spent(spent);
        // The field has four digits.
        let seconds = u16::try_from(spent.as_secs().min(9_999)).unwrap_or(9_999);
        let message = DxpMessage::Move(self.play.game().dxp_move(result.best, seconds));
        tracing::info!(
            "plays {} (depth {}, {} ms of {} ms)",
            self.play.game().move_text(state, result.best),
            result.depth,
            spent.as_millis(),
            budget.as_millis()
        );
        self.play
            .play(result.best)
            .context("the search chose a move the game refuses")?;
        Ok(message)
    }

    /// Plays the other side's move, or says why it cannot be played.
    fn theirs(&mut self, mv: &DxpMove) -> Result<(), DxpError> {
        if self.my_turn() {
            return Err(DxpError::Illegal(format!("{mv} (it is not their turn)")));
        }
        let found = self.play.game().resolve_dxp_move(self.play.state(), mv)?;
        self.play
            .play(found)
            .map_err(|error| DxpError::Illegal(format!("{mv} ({error})")))
    }

    /// One line for standard output: the result from White's side and the moves.
    fn summary(&self, score: Score) -> String {
        format!(
            "result {} after {} plies: {}",
            score.text(),
            self.plies(),
            self.play.move_texts().join(" ")
        )
    }
}

/// What our turn came to.
enum Turn {
    Moved,
    /// The game is over: our GAMEEND is to be sent with this reason.
    Over(EndReason, Score),
}

/// Our turn: the game's end if it is over (the side to move ends a game, instead of moving),
/// else our move, sent.
fn our_turn(
    conn: &mut Connection,
    game: &mut Match,
    table: &mut SearchTable,
    max_plies: Option<u32>,
) -> Result<Turn> {
    if let Some((reason, score)) = game.our_end(max_plies) {
        return Ok(Turn::Over(reason, score));
    }
    let mv = game.think(table)?;
    conn.send(&mv)?;
    Ok(Turn::Moved)
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
    let mut follower = Follower {
        table: SearchTable::new(HASH_MB),
        games: 0,
        max_games,
    };
    while !follower.done() {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(error) => {
                tracing::warn!(%error, "accept failed");
                continue;
            }
        };
        tracing::info!(%peer, "connected");
        let result =
            Connection::new(stream, read_timeout).and_then(|mut conn| follower.serve(&mut conn));
        match result {
            Ok(()) => tracing::info!(%peer, "disconnected"),
            Err(error) => tracing::warn!(%peer, "connection dropped: {error:#}"),
        }
    }
    Ok(())
}

/// The follower across its connections: the games it has played and may play.
struct Follower {
    table: SearchTable,
    games: u32,
    max_games: Option<u32>,
}

impl Follower {
    /// Whether the last game allowed has been played.
    fn done(&self) -> bool {
        self.max_games.is_some_and(|max| self.games >= max)
    }

    /// The follower's side of one connection, until the other side closes it, the read
    /// times out or another game is asked for after the last one allowed.
    fn serve(&mut self, conn: &mut Connection) -> Result<()> {
        let mut current: Option<Match> = None;
        loop {
            let message = match conn.recv()? {
                Incoming::Closed => return Ok(()),
                Incoming::Bad(error) => {
                    tracing::warn!(peer = %conn.peer, "bad message: {error}");
                    if let Some(game) = current.take() {
                        self.end(conn, &game, EndReason::Unknown, Score::Unknown)?;
                    }
                    continue;
                }
                Incoming::Message(message) => message,
            };
            match message {
                DxpMessage::GameReq(request) => {
                    if self.done() {
                        tracing::info!("the last game has been played; refusing another");
                        conn.send(&DxpMessage::GameAcc {
                            name: ENGINE_NAME.to_string(),
                            code: dxp_code::NO_GAMES,
                        })?;
                        return Ok(());
                    }
                    if current.is_some() {
                        tracing::warn!("a new game asked for in the middle of one; starting it");
                    }
                    current = accept(conn, &request)?;
                    if current.as_ref().is_some_and(Match::my_turn) {
                        current = self.turn(conn, current)?;
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
                            self.end(conn, &game, EndReason::Unknown, Score::Unknown)?;
                        }
                        continue;
                    }
                    current = self.turn(conn, current)?;
                }
                DxpMessage::GameEnd { reason, stop } => match current.take() {
                    Some(game) => {
                        tracing::info!(?reason, stop, "the initiator ends the game");
                        // Confirmed with reason 0, as the specification says.
                        let score = game.their_end(reason);
                        self.end(conn, &game, EndReason::Unknown, score)?;
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

    /// Our turn in `current`: our move, or our GAMEEND when the game is over (the game is
    /// then no longer current).
    fn turn(&mut self, conn: &mut Connection, current: Option<Match>) -> Result<Option<Match>> {
        let Some(mut game) = current else {
            return Ok(None);
        };
        match our_turn(conn, &mut game, &mut self.table, None)? {
            Turn::Moved => Ok(Some(game)),
            Turn::Over(reason, score) => {
                self.end(conn, &game, reason, score)?;
                Ok(None)
            }
        }
    }

    /// Counts and prints a game that is over, and sends the follower's GAMEEND: its own end
    /// of the game, or its confirmation of the initiator's.
    fn end(
        &mut self,
        conn: &mut Connection,
        game: &Match,
        reason: EndReason,
        score: Score,
    ) -> Result<()> {
        self.games += 1;
        outln!("game {}: {}", self.games, game.summary(score));
        conn.send(&DxpMessage::GameEnd {
            reason,
            stop: self.done(),
        })
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
            let mine = request.follower_colour;
            let game = Match::new(state, mine, request.time_minutes, request.moves);
            (dxp_code::ACCEPTED, Some(game))
        }
        Err(error) => {
            tracing::warn!("refused game: {error}");
            (dxp_code::NOT_THIS_GAME, None)
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

// ---------------------------------------------------------------- the initiator

fn initiate(args: &DxpArgs, address: &str, read_timeout: Duration) -> Result<()> {
    let game = International::new();
    let start = match &args.position {
        Some(text) => game
            .parse_position(text)
            .with_context(|| format!("--position {text:?}"))?,
        None => game.start(),
    };
    let target = address
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve {address}"))?
        .next()
        .ok_or_else(|| anyhow!("{address} has no address"))?;
    let stream = TcpStream::connect_timeout(&target, CONNECT_TIMEOUT)
        .with_context(|| format!("cannot connect to {target}"))?;
    let mut conn = Connection::new(stream, read_timeout)?;
    let mine = args.colour;
    conn.send(&DxpMessage::GameReq(GameReq {
        version: DXP_VERSION,
        name: ENGINE_NAME.to_string(),
        follower_colour: mine.opponent(),
        time_minutes: args.time_minutes,
        moves: args.moves,
        position: (start != game.start()).then(|| game.dxp_position(&start)),
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
    let mut current = Match::new(start, mine, args.time_minutes, args.moves);
    let mut table = SearchTable::new(HASH_MB);
    loop {
        // Only the side to move may end the game: on the follower's turn, its move (or its
        // GAMEEND) may already be on the way.
        if current.my_turn() {
            match our_turn(&mut conn, &mut current, &mut table, Some(args.max_plies))? {
                Turn::Moved => {}
                Turn::Over(reason, score) => {
                    conn.send(&DxpMessage::GameEnd { reason, stop: true })?;
                    outln!("{}", current.summary(score));
                    await_confirmation(&mut conn);
                    return Ok(());
                }
            }
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
                // Confirmed with reason 0, as the specification says.
                conn.send(&DxpMessage::GameEnd {
                    reason: EndReason::Unknown,
                    stop: true,
                })?;
                outln!("{}", current.summary(current.their_end(reason)));
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
    fn the_clock_shares_the_games_time_over_its_length() {
        let untimed = Clock::new(0, 0);
        assert_eq!(untimed.plan().most, UNTIMED_MOVE_TIME);
        assert_eq!(untimed.limits(), Limits::time(UNTIMED_MOVE_TIME));
        let close = |a: Duration, b: f64| (a.as_secs_f64() - b).abs() < 1e-6;
        // 10 minutes for 50 moves: less the margins (0.05 s and 0.3 s), a 50th each.
        let mut clock = Clock::new(10, 50);
        assert!(
            close(clock.plan().target, 599.65 / 50.0),
            "{:?}",
            clock.plan()
        );
        assert_eq!(clock.limits().target, Some(clock.plan().target));
        assert_eq!(clock.limits().time, Some(clock.plan().most));
        clock.spent(Duration::from_secs(110));
        assert!(
            close(clock.plan().target, 489.65 / 49.0),
            "{:?}",
            clock.plan()
        );
        // Near the end of the game, the moves still to go are never fewer than the minimum.
        let mut clock = Clock::new(1, 40);
        for _ in 0..39 {
            clock.spent(Duration::ZERO);
        }
        let to_go = f64::from(MIN_MOVES_TO_GO);
        assert!(
            close(clock.plan().target, 59.65 / to_go),
            "{:?}",
            clock.plan()
        );
        // The number of moves is the game's length, not a period after which the time comes
        // again: once the game's time is spent, nothing is left.
        let mut clock = Clock::new(1, 10);
        for _ in 0..10 {
            clock.spent(Duration::from_secs(6));
        }
        assert_eq!(clock.plan().most, Duration::ZERO);
        assert!(Clock::new(999, 1).plan().most <= MAX_MOVE_TIME);
    }
}
