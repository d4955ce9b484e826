//! DamExchange (DXP), the protocol draughts programs play International draughts by over TCP:
//! its messages, and its positions and moves as [`State`]s and [`Move`]s.
//!
//! A message is ASCII text with a header letter and fixed-width fields, sent with a NUL byte
//! after it (the NUL is not part of what [`DxpMessage::parse`] reads or
//! [`DxpMessage::to_text`] writes). Colours are `W` (white) and `Z` (black, *zwart*). A
//! position is 50 letters in the order of the square numbers: `e` empty, `w`/`z` men, `W`/`Z`
//! kings. A move is its start, its end and its captured squares in any order.
//!
//! ```
//! use denkmeter_games::draughts::{DxpMessage, International};
//! use denkmeter_core::Game;
//!
//! let game = International::new();
//! let start = game.start();
//! let message = DxpMessage::parse(b"M0012322800").unwrap();
//! let DxpMessage::Move(ref mv) = message else { unreachable!() };
//! let played = game.resolve_dxp_move(&start, mv).unwrap();
//! assert_eq!(game.hub_move(played).as_deref(), Some("32-28"));
//! assert_eq!(message.to_text(), "M0012322800");
//! ```

use denkmeter_core::Player;

use super::hub::{numbered_move, resolve_numbered, NumberedError};
use super::{Draughts, HubError, InternationalRules, Move, State};

/// The longest message read or written, in bytes without its NUL: a chat line of about a
/// thousand characters, eight times the 127 of the original DXP programs.
pub const MAX_DXP_MESSAGE_LEN: usize = 1024;
/// The protocol version this module writes in a GAMEREQ.
pub const DXP_VERSION: u8 = 1;
/// The width of a program's name in GAMEREQ and GAMEACC, padded with spaces.
pub const DXP_NAME_LEN: usize = 32;
/// The squares of an International draughts board, the length of a DXP position.
const SQUARES: usize = 50;
/// The length of a GAMEREQ from the start position: `R`, version, name, colour, time, moves,
/// `A`. One from a given position adds the colour to move and the squares.
const GAMEREQ_LEN: usize = 1 + 2 + DXP_NAME_LEN + 1 + 3 + 3 + 1;
/// The most pieces a MOVE can say it captures (two digits).
const MAX_CAPTURED: usize = 99;

/// Acceptance codes of GAMEACC and BACKACC.
pub mod code {
    /// GAMEACC and BACKACC: accepted.
    pub const ACCEPTED: u8 = 0;
    /// GAMEACC: not this version of the protocol.
    pub const WRONG_VERSION: u8 = 1;
    /// GAMEACC: not this game (its time, its number of moves, its position), but another
    /// one is welcome.
    pub const NOT_THIS_GAME: u8 = 2;
    /// GAMEACC: no game at all.
    pub const NO_GAMES: u8 = 3;
    /// BACKACC: taking moves back is not supported.
    pub const BACK_NOT_SUPPORTED: u8 = 1;
    /// BACKACC: declined; the game goes on.
    pub const BACK_DECLINED: u8 = 2;
}

/// Why a DXP message, position or move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DxpError {
    #[error("empty message")]
    Empty,
    #[error("message of {0} bytes; the limit is {MAX_DXP_MESSAGE_LEN}")]
    TooLong(usize),
    #[error("the message is not printable ASCII")]
    NotAscii,
    #[error("unknown message type {0:?}")]
    UnknownHeader(char),
    #[error("{kind} message: expected {expected} characters, found {found}")]
    Length {
        kind: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("{field}: {found:?} is not {expected}")]
    Field {
        field: &'static str,
        found: String,
        expected: &'static str,
    },
    #[error("position: {0}")]
    Position(HubError),
    #[error("move {0}: square out of range 1 to 50")]
    Square(String),
    #[error("move {0} is not legal here")]
    Illegal(String),
    #[error("move {0} matches more than one legal move")]
    Ambiguous(String),
}

/// A player's DXP letter: `W` for White, `Z` (*zwart*) for Black.
pub fn dxp_letter(player: Player) -> char {
    match player {
        Player::White => 'W',
        Player::Black => 'Z',
    }
}

/// The player of a DXP letter, `W` or `Z`.
fn from_dxp_letter(field: &'static str, c: u8) -> Result<Player, DxpError> {
    match c {
        b'W' => Ok(Player::White),
        b'Z' => Ok(Player::Black),
        _ => Err(bad_field(field, &[c], "W or Z")),
    }
}

/// A given position of a GAMEREQ: the colour to move and 50 letters (`e`, `w`, `z`, `W`, `Z`)
/// in square order. The letters are checked when read; whether the position is one draughts
/// allows is checked by [`Draughts::dxp_state`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DxpPosition {
    pub to_move: Player,
    squares: String,
}

impl DxpPosition {
    /// A position from the colour to move and its 50 square letters.
    pub fn new(to_move: Player, squares: &str) -> Result<DxpPosition, DxpError> {
        if squares.len() != SQUARES {
            return Err(DxpError::Length {
                kind: "position",
                expected: SQUARES,
                found: squares.len(),
            });
        }
        if let Some(bad) = squares.bytes().find(|b| !b"ewzWZ".contains(b)) {
            return Err(bad_field("position", &[bad], "e, w, z, W or Z"));
        }
        Ok(DxpPosition {
            to_move,
            squares: squares.to_string(),
        })
    }

    /// The 50 square letters.
    pub fn squares(&self) -> &str {
        &self.squares
    }
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameReq {
    /// The protocol version, 0 to 99 (1 today).
    pub version: u8,
    /// The initiator's name: at most [`DXP_NAME_LEN`] printable characters.
    pub name: String,
    /// The colour the follower (the side answering) plays.
    pub follower_colour: Player,
    /// The thinking time in minutes, 0 to 999.
    pub time_minutes: u16,
    /// The moves the thinking time is for, 0 to 999.
    pub moves: u16,
    /// The position to start from; `None` for the start position.
    pub position: Option<DxpPosition>,
}

/// MOVE: a move, with the seconds its player spent on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DxpMove {
    /// Seconds spent, 0 to 9999.
    pub time_seconds: u16,
    /// Square numbers, 0 to 99 as read (a legal move has 1 to 50).
    pub from: u8,
    pub to: u8,
    /// The captured squares, in any order.
    pub captured: Vec<u8>,
}

impl std::fmt::Display for DxpMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.from)?;
        let joint = if self.captured.is_empty() { '-' } else { 'x' };
        write!(f, "{joint}{}", self.to)?;
        for c in &self.captured {
            write!(f, "x{c}")?;
        }
        Ok(())
    }
}

/// Why a game ended, as its sender says it (GAMEEND).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Unknown,
    /// The sender loses.
    ILose,
    Draw,
    /// The sender wins.
    IWin,
}

impl EndReason {
    fn digit(self) -> u8 {
        match self {
            EndReason::Unknown => 0,
            EndReason::ILose => 1,
            EndReason::Draw => 2,
            EndReason::IWin => 3,
        }
    }

    /// The same end told by the other side: a win becomes a loss.
    pub fn mirrored(self) -> EndReason {
        match self {
            EndReason::ILose => EndReason::IWin,
            EndReason::IWin => EndReason::ILose,
            other => other,
        }
    }
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DxpMessage {
    /// `R`: the initiator asks for a game.
    GameReq(GameReq),
    /// `A`: the follower's answer: its name and an acceptance [`code`].
    GameAcc { name: String, code: u8 },
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: the game is over; `stop` says the sender wants no next game.
    GameEnd { reason: EndReason, stop: bool },
    /// `C`: free text.
    Chat(String),
    /// `B`: a request to go back to `move_number` with `colour` to move.
    BackReq { move_number: u16, colour: Player },
    /// `K`: the answer to BACKREQ: an acceptance [`code`].
    BackAcc { code: u8 },
}

fn bad_field(field: &'static str, found: &[u8], expected: &'static str) -> DxpError {
    DxpError::Field {
        field,
        found: String::from_utf8_lossy(found).into_owned(),
        expected,
    }
}

/// Reads fixed-width fields off the front of a message.
struct Fields<'a> {
    rest: &'a [u8],
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.rest.split_at(n.min(self.rest.len()));
        self.rest = rest;
        head
    }

    fn number(&mut self, field: &'static str, width: usize) -> Result<u16, DxpError> {
        let digits = self.take(width);
        if digits.len() != width || !digits.iter().all(u8::is_ascii_digit) {
            let expected = match width {
                1 => "a digit",
                2 => "two digits",
                3 => "three digits",
                _ => "four digits",
            };
            return Err(bad_field(field, digits, expected));
        }
        Ok(digits
            .iter()
            .fold(0u16, |n, d| n * 10 + u16::from(d - b'0')))
    }

    fn small(&mut self, field: &'static str, width: usize) -> Result<u8, DxpError> {
        // At most two digits, so at most 99.
        self.number(field, width).map(|n| n as u8)
    }

    fn colour(&mut self, field: &'static str) -> Result<Player, DxpError> {
        match self.take(1) {
            [c] => from_dxp_letter(field, *c),
            _ => Err(bad_field(field, b"", "W or Z")),
        }
    }

    fn name(&mut self) -> String {
        String::from_utf8_lossy(self.take(DXP_NAME_LEN))
            .trim_end()
            .to_string()
    }
}

/// Checks that a message has exactly `expected` bytes.
fn length(kind: &'static str, text: &[u8], expected: usize) -> Result<(), DxpError> {
    if text.len() == expected {
        Ok(())
    } else {
        Err(DxpError::Length {
            kind,
            expected,
            found: text.len(),
        })
    }
}

/// A name for a GAMEREQ or GAMEACC: printable ASCII (anything else becomes `?`), cut or
/// padded with spaces to [`DXP_NAME_LEN`].
fn padded_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .take(DXP_NAME_LEN)
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect();
    while out.len() < DXP_NAME_LEN {
        out.push(' ');
    }
    out
}

impl DxpMessage {
    /// Reads one message, without its NUL. Fixed-width messages must have exactly their
    /// length; a chat is any printable ASCII.
    pub fn parse(text: &[u8]) -> Result<DxpMessage, DxpError> {
        if text.len() > MAX_DXP_MESSAGE_LEN {
            return Err(DxpError::TooLong(text.len()));
        }
        let Some((&header, _)) = text.split_first() else {
            return Err(DxpError::Empty);
        };
        if !text.iter().all(|&b| b == b' ' || b.is_ascii_graphic()) {
            return Err(DxpError::NotAscii);
        }
        let mut f = Fields { rest: &text[1..] };
        match header {
            b'R' => {
                if text.len() < GAMEREQ_LEN {
                    return Err(DxpError::Length {
                        kind: "GAMEREQ",
                        expected: GAMEREQ_LEN,
                        found: text.len(),
                    });
                }
                let version = f.small("GAMEREQ version", 2)?;
                let name = f.name();
                let follower_colour = f.colour("GAMEREQ follower colour")?;
                let time_minutes = f.number("GAMEREQ thinking time", 3)?;
                let moves = f.number("GAMEREQ number of moves", 3)?;
                let position = match f.take(1) {
                    b"A" => {
                        length("GAMEREQ", text, GAMEREQ_LEN)?;
                        None
                    }
                    b"B" => {
                        length("GAMEREQ", text, GAMEREQ_LEN + 1 + SQUARES)?;
                        let to_move = f.colour("GAMEREQ colour to move")?;
                        // Printable ASCII, checked above, so this is valid UTF-8.
                        let squares = String::from_utf8_lossy(f.take(SQUARES));
                        Some(DxpPosition::new(to_move, &squares)?)
                    }
                    other => return Err(bad_field("GAMEREQ position", other, "A or B")),
                };
                Ok(DxpMessage::GameReq(GameReq {
                    version,
                    name,
                    follower_colour,
                    time_minutes,
                    moves,
                    position,
                }))
            }
            b'A' => {
                length("GAMEACC", text, 2 + DXP_NAME_LEN)?;
                let name = f.name();
                let code = f.small("GAMEACC code", 1)?;
                Ok(DxpMessage::GameAcc { name, code })
            }
            b'M' => {
                if text.len() < 11 {
                    return Err(DxpError::Length {
                        kind: "MOVE",
                        expected: 11,
                        found: text.len(),
                    });
                }
                let time_seconds = f.number("MOVE time", 4)?;
                let from = f.small("MOVE from", 2)?;
                let to = f.small("MOVE to", 2)?;
                let count = f.small("MOVE number captured", 2)?;
                length("MOVE", text, 11 + 2 * usize::from(count))?;
                let captured = (0..count)
                    .map(|_| f.small("MOVE captured square", 2))
                    .collect::<Result<_, _>>()?;
                Ok(DxpMessage::Move(DxpMove {
                    time_seconds,
                    from,
                    to,
                    captured,
                }))
            }
            b'E' => {
                length("GAMEEND", text, 3)?;
                let reason = match f.small("GAMEEND reason", 1)? {
                    0 => EndReason::Unknown,
                    1 => EndReason::ILose,
                    2 => EndReason::Draw,
                    3 => EndReason::IWin,
                    _ => return Err(bad_field("GAMEEND reason", &text[1..2], "0 to 3")),
                };
                let stop = match f.small("GAMEEND stop code", 1)? {
                    0 => false,
                    1 => true,
                    _ => return Err(bad_field("GAMEEND stop code", &text[2..3], "0 or 1")),
                };
                Ok(DxpMessage::GameEnd { reason, stop })
            }
            b'C' => Ok(DxpMessage::Chat(
                String::from_utf8_lossy(&text[1..]).into_owned(),
            )),
            b'B' => {
                length("BACKREQ", text, 5)?;
                let move_number = f.number("BACKREQ move number", 3)?;
                let colour = f.colour("BACKREQ colour")?;
                Ok(DxpMessage::BackReq {
                    move_number,
                    colour,
                })
            }
            b'K' => {
                length("BACKACC", text, 2)?;
                let code = f.small("BACKACC code", 1)?;
                Ok(DxpMessage::BackAcc { code })
            }
            other => Err(DxpError::UnknownHeader(char::from(other))),
        }
    }

    /// The message as sent, without its NUL. Numbers too wide for their field are written
    /// modulo its width (as other DXP programs do), names are cut to [`DXP_NAME_LEN`], and
    /// a chat is cut to fit [`MAX_DXP_MESSAGE_LEN`] with anything but printable ASCII as `?`.
    pub fn to_text(&self) -> String {
        match self {
            DxpMessage::GameReq(r) => {
                let mut text = format!(
                    "R{:02}{}{}{:03}{:03}",
                    r.version % 100,
                    padded_name(&r.name),
                    dxp_letter(r.follower_colour),
                    r.time_minutes % 1000,
                    r.moves % 1000
                );
                match &r.position {
                    None => text.push('A'),
                    Some(p) => {
                        text.push('B');
                        text.push(dxp_letter(p.to_move));
                        text.push_str(&p.squares);
                    }
                }
                text
            }
            DxpMessage::GameAcc { name, code } => {
                format!("A{}{}", padded_name(name), code % 10)
            }
            DxpMessage::Move(m) => {
                let mut text = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.time_seconds % 10_000,
                    m.from % 100,
                    m.to % 100,
                    m.captured.len().min(MAX_CAPTURED)
                );
                for c in m.captured.iter().take(MAX_CAPTURED) {
                    text.push_str(&format!("{:02}", c % 100));
                }
                text
            }
            DxpMessage::GameEnd { reason, stop } => {
                format!("E{}{}", reason.digit(), u8::from(*stop))
            }
            DxpMessage::Chat(text) => std::iter::once('C')
                .chain(text.chars().map(|c| {
                    if c == ' ' || c.is_ascii_graphic() {
                        c
                    } else {
                        '?'
                    }
                }))
                .take(MAX_DXP_MESSAGE_LEN)
                .collect(),
            DxpMessage::BackReq {
                move_number,
                colour,
            } => format!("B{:03}{}", move_number % 1000, dxp_letter(*colour)),
            DxpMessage::BackAcc { code } => format!("K{}", code % 10),
        }
    }
}

impl Draughts<InternationalRules> {
    /// The position in DXP form.
    pub fn dxp_position(&self, state: &State) -> DxpPosition {
        let hub = self
            .hub_position(state)
            .expect("International draughts numbers its squares");
        let mut letters = hub.chars();
        let to_move = match letters.next() {
            Some('W') => Player::White,
            _ => Player::Black,
        };
        let squares = letters
            .map(|c| match c {
                'b' => 'z',
                'B' => 'Z',
                other => other,
            })
            .collect();
        DxpPosition { to_move, squares }
    }

    /// The state of a DXP position; no man may stand on its promotion row.
    pub fn dxp_state(&self, position: &DxpPosition) -> Result<State, DxpError> {
        let side = match position.to_move {
            Player::White => 'W',
            Player::Black => 'B',
        };
        let hub: String = std::iter::once(side)
            .chain(position.squares.chars().map(|c| match c {
                'z' => 'b',
                'Z' => 'B',
                other => other,
            }))
            .collect();
        self.parse_hub_position(&hub).map_err(DxpError::Position)
    }

    /// A legal move of `state` as a DXP move that took `time_seconds`.
    pub fn dxp_move(&self, mv: Move, time_seconds: u16) -> DxpMove {
        let (from, to, captured) =
            numbered_move::<InternationalRules>(mv).expect("International squares are numbered");
        // Square numbers are 1 to 50.
        let small = |n: usize| n as u8;
        DxpMove {
            time_seconds,
            from: small(from),
            to: small(to),
            captured: captured.into_iter().map(small).collect(),
        }
    }

    /// The legal move of `state` with the start, end and set of captured squares of a DXP
    /// move (captured squares in any order, none named twice).
    pub fn resolve_dxp_move(&self, state: &State, mv: &DxpMove) -> Result<Move, DxpError> {
        let captured: Vec<usize> = mv.captured.iter().map(|&n| usize::from(n)).collect();
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        resolve_numbered::<InternationalRules>(state, from, to, Some(&captured)).map_err(|error| {
            match error {
                NumberedError::OutOfRange(_) => DxpError::Square(mv.to_string()),
                NumberedError::Twice | NumberedError::Illegal => DxpError::Illegal(mv.to_string()),
                NumberedError::Ambiguous => DxpError::Ambiguous(mv.to_string()),
            }
        })
    }
}
