//! Schada (Jan Boogerd, c. 1936; also sold as Schaakdam): each square of the board carries
//! printed paths, and a piece moves only along the paths of the square it stands on. High pieces
//! race for the far rank; the game ends when a player is home, blocked, repeating or stuck, and
//! is decided by score. The rules are in `shared/rules/schada.md`.
//!
//! The 1939 board is lost, so the board is data: a board file (`boards/reconstruction.txt` is
//! Denkmeter's reconstruction, the default) compiled into per-square destination tables.
//! Pieces are bitboards over the 64 squares.

mod board_file;
mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use denkmeter_core::{
    Board, BoardFileError, Cell, CellStyle, DisplayName, Emblem, Facts, Game, MoveError, MoveView,
    Outcome, PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, Reason,
    RulesetVisitor, Score, SearchKind, Status, Viewer,
};

use movegen::Tables;
pub use notation::square_name;
use state::{bit, goal_line};
pub use state::{Piece, State};

/// The default board: Denkmeter's reconstruction of the lost 1939 markings.
pub const RECONSTRUCTION: &str = include_str!("boards/reconstruction.txt");
/// The name records give the default board.
pub const RECONSTRUCTION_NAME: &str = "reconstruction";

/// A Schada move: a piece going from one square to another along one of its square's paths
/// (a capture is implied by the destination).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    #[inline]
    pub(crate) const fn new(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// The square the piece leaves.
    pub fn from(self) -> Cell {
        Cell(u16::from(self.from))
    }

    /// The square the piece reaches.
    pub fn to(self) -> Cell {
        Cell(u16::from(self.to))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({}-{})",
            square_name(self.from),
            square_name(self.to)
        )
    }
}

/// White's base line, which is Black's goal line.
const WHITE_BASE: CellStyle = CellStyle {
    class: "base-white",
    fill: "#cfe0f3",
    glyph: ':',
    words: "White's base line, Black's goal line",
};
/// Black's base line, which is White's goal line.
const BLACK_BASE: CellStyle = CellStyle {
    class: "base-black",
    fill: "#d4ecd0",
    glyph: ':',
    words: "Black's base line, White's goal line",
};

/// How far apart the dots of a printed path are, in cell units.
const DOT_SPACING: f32 = 0.11;

/// The game of Schada on one board, ruleset `schada`.
///
/// ```
/// use denkmeter_core::Game;
/// use denkmeter_games::schada::Schada;
///
/// let game = Schada::new();
/// let start = game.start();
/// let mut moves = Vec::new();
/// game.legal_moves(&start, &mut moves);
/// assert_eq!(moves.len(), 14);
/// assert!(game.parse_move(&start, "a1-a3").is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Schada {
    board: Arc<Board>,
    tables: Arc<Tables>,
    board_name: Arc<str>,
    board_text: Arc<str>,
}

impl Schada {
    /// Schada on the reconstructed board.
    pub fn new() -> Schada {
        Schada::on_board(RECONSTRUCTION_NAME, RECONSTRUCTION)
            .expect("the reconstructed board file is valid")
    }

    /// Schada on the board that a board file describes; `name` is how records name it. The
    /// name of the reconstruction belongs to it: another board may not take it.
    pub fn on_board(name: &str, text: &str) -> Result<Schada, BoardFileError> {
        let paths = board_file::parse(text)?;
        if name == RECONSTRUCTION_NAME
            && denkmeter_core::board_fingerprint(text)
                != denkmeter_core::board_fingerprint(RECONSTRUCTION)
        {
            return Err(BoardFileError::Whole(format!(
                "the name {RECONSTRUCTION_NAME:?} belongs to the built-in board, and this \
                 file differs from it: give the board another name"
            )));
        }
        let mut board = Board::rectangle(8, 8, false).with_pieces(&[
            PieceStyle {
                kind: Piece::FieldOfficer.name(),
                letter: Piece::FieldOfficer.letter(),
                shape: PieceShape::Star,
                emblem: Emblem::Plain,
            },
            PieceStyle {
                kind: Piece::Officer.name(),
                letter: Piece::Officer.letter(),
                shape: PieceShape::Square,
                emblem: Emblem::Plain,
            },
            PieceStyle {
                kind: Piece::Pawn.name(),
                letter: Piece::Pawn.letter(),
                shape: PieceShape::Disc,
                emblem: Emblem::Plain,
            },
        ]);
        for file in 0..8u16 {
            board.paint(Cell(file), WHITE_BASE);
            board.paint(Cell(56 + file), BLACK_BASE);
        }
        for (sq, square_paths) in paths.paths.iter().enumerate() {
            for path in square_paths {
                let (mut x, mut y) = (0.0, 0.0);
                let points = path
                    .iter()
                    .map(|&(df, dr)| {
                        x += f32::from(df) * DOT_SPACING;
                        y -= f32::from(dr) * DOT_SPACING;
                        (x, y)
                    })
                    .collect();
                board.mark(Cell(sq as u16), points);
            }
        }
        Ok(Schada {
            board: Arc::new(board),
            tables: Arc::new(Tables::new(&paths)),
            board_name: name.into(),
            board_text: text.into(),
        })
    }

    /// The name of the board this game is played on.
    pub fn board_name(&self) -> &str {
        &self.board_name
    }

    /// The start position (the same on every board).
    pub fn start_position() -> State {
        notation::parse_position(START).expect("the start position is valid")
    }

    /// Why the game is over in `state`, if it is (endings 1, 2 and 5 of the rules; the third
    /// repetition and shuffling are the game history's business).
    pub fn ending(&self, state: &State) -> Option<String> {
        for p in [!state.to_move, state.to_move] {
            if state.own[p] & state.high() & !goal_line(p) == 0 {
                return Some(format!("every high piece of {p} stands on its goal line"));
            }
        }
        for p in [!state.to_move, state.to_move] {
            if movegen::is_blocked(&self.tables, state, p) {
                return Some(format!("{p}'s high pieces are blocked"));
            }
        }
        if !movegen::has_move(&self.tables, state, state.to_move) {
            return Some(format!("{} cannot move", state.to_move));
        }
        None
    }
}

impl Default for Schada {
    fn default() -> Schada {
        Schada::new()
    }
}

/// The start position string.
pub const START: &str = "ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO w";

/// The one Schada ruleset's facts. Its levels play alpha-beta, which beats Monte Carlo tree
/// search 20-0 at 0.3 s a move.
pub const FACTS: Facts = Facts {
    title: DisplayName::new("Schada"),
    search: SearchKind::AlphaBeta,
    ..Facts::new(
        "schada",
        "schada",
        "Schada (Boogerd, c. 1936): pieces move along paths printed on the squares; board \
         reconstructed",
        include_str!("../../../../docs/rules/schada.md"),
    )
};

/// Every Schada ruleset (there is one; its board can be replaced by a board file).
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    visitor.visit(Schada::new());
}

/// What a player has counted at the end: goal-line points, off-goal material, and advancement
/// in sevenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Field Officers on the goal line 2, Officers 1.
    pub goal_line: i64,
    /// High pieces off the goal line: Field Officers 2, Officers 1.
    pub off_goal: i64,
    /// Ranks advanced from the base line by the high pieces off the goal line, in sevenths:
    /// twice the ranks for a Field Officer, the ranks for an Officer.
    pub sevenths: i64,
}

/// The evaluation's weights: a high piece on its goal line, per point it scores there
/// (a Field Officer 2, an Officer 1); the same off the goal line; per seventh of advancement
/// (see [`Tally::sevenths`]); a pawn.
const GOAL_LINE: i64 = 400;
const OFF_GOAL: i64 = 60;
const SEVENTH: i64 = 12;
const PAWN: i64 = 15;

/// What a piece of `p` on `sq` adds to `p`'s side of the evaluation.
#[inline]
fn piece_value(p: Player, piece: Piece, sq: u8) -> i64 {
    let worth = match piece {
        Piece::FieldOfficer => 2,
        Piece::Officer => 1,
        Piece::Pawn => return PAWN,
    };
    if goal_line(p) & bit(sq) != 0 {
        return GOAL_LINE * worth;
    }
    let rank = i64::from(sq / 8);
    let advanced = match p {
        Player::White => rank,
        Player::Black => 7 - rank,
    };
    OFF_GOAL * worth + SEVENTH * worth * advanced
}

/// A player's tally in `state`.
pub fn tally(state: &State, p: Player) -> Tally {
    let goal = goal_line(p);
    let mut t = Tally {
        goal_line: 0,
        off_goal: 0,
        sevenths: 0,
    };
    for (set, worth) in [(state.field_officers, 2), (state.officers, 1)] {
        let mut pieces = state.own[p] & set;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            if goal & bit(sq) != 0 {
                t.goal_line += worth;
            } else {
                let rank = i64::from(sq / 8);
                let advanced = match p {
                    Player::White => rank,
                    Player::Black => 7 - rank,
                };
                t.off_goal += worth;
                t.sevenths += worth * advanced;
            }
        }
    }
    t
}

/// The outcome of a game that ended in `state` for `cause`: decided by the score, whose whole
/// breakdown it gives, e.g. `... ; goal line 4-4, off the goal line 3-2, advancement in sevenths
/// 9-12; White wins on the off-goal pieces`.
pub fn scored(state: &State, cause: &str, reason: Reason) -> Outcome {
    let (w, b) = (tally(state, Player::White), tally(state, Player::Black));
    let parts = [
        ("goal line", "goal-line points", w.goal_line, b.goal_line),
        (
            "off the goal line",
            "off-goal pieces",
            w.off_goal,
            b.off_goal,
        ),
        (
            "advancement in sevenths",
            "advancement",
            w.sevenths,
            b.sevenths,
        ),
    ];
    let counts: Vec<String> = parts
        .iter()
        .map(|(name, _, white, black)| format!("{name} {white}-{black}"))
        .collect();
    let decided = parts.iter().find(|p| p.2 != p.3);
    let winner = decided.map(|p| {
        if p.2 > p.3 {
            Player::White
        } else {
            Player::Black
        }
    });
    let verdict = match (winner, decided) {
        (Some(player), Some((_, words, _, _))) => format!("{player} wins on the {words}"),
        _ => "all equal: a draw".to_string(),
    };
    Outcome {
        winner,
        reason,
        score: Some(Score {
            white: w.goal_line,
            black: b.goal_line,
            breakdown: format!("{cause}; {}; {verdict}", counts.join(", ")),
        }),
    }
}

impl Game for Schada {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        &FACTS
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_file(&self) -> Option<(&str, &str)> {
        Some((&self.board_name, &self.board_text))
    }

    fn with_board_file(&self, name: &str, text: &str) -> Result<Schada, BoardFileError> {
        Schada::on_board(name, text)
    }

    fn start(&self) -> State {
        Schada::start_position()
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        moves.clear();
        if self.ending(state).is_some() {
            return;
        }
        movegen::moves_ignoring_end(&self.tables, state, moves);
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play(state, mv);
    }

    fn status(&self, state: &State) -> Status {
        match self.ending(state) {
            None => Status::Ongoing,
            Some(cause) => Status::Over(scored(state, &cause, Reason::Score)),
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// What the score counts, an Officer being 100: a Field Officer 200, an Officer 100 and a
    /// Pawn, which scores nothing, 0.
    fn material(&self, state: &State) -> Option<i32> {
        let material = |p: Player| {
            200 * state.count(p, Piece::FieldOfficer) as i32
                + 100 * state.count(p, Piece::Officer) as i32
        };
        Some(material(Player::White) - material(Player::Black))
    }

    fn ending_by_repetition(&self, state: &State) -> Outcome {
        scored(
            state,
            "the same position occurred a third time",
            Reason::Repetition,
        )
    }

    fn ending_by_history(&self, start: &State, moves: &[Move]) -> Option<Outcome> {
        let n = moves.len();
        // Cheap first: the last four moves must go there and straight back.
        if n < 4
            || moves[n - 2].from != moves[n - 4].to
            || moves[n - 2].to != moves[n - 4].from
            || moves[n - 1].from != moves[n - 3].to
            || moves[n - 1].to != moves[n - 3].from
        {
            return None;
        }
        // The last four moves, each with whether it took a high piece sideways along a line.
        let mut state = start.clone();
        let mut last = std::collections::VecDeque::with_capacity(5);
        for &mv in moves {
            last.push_back((mv, movegen::is_sideways_on_a_line(&state, mv)));
            if last.len() > 4 {
                last.pop_front();
            }
            movegen::play(&mut state, mv);
        }
        // Each player's two moves: there and straight back.
        let shuffled = |(a, a_sideways): (Move, bool), (b, b_sideways): (Move, bool)| {
            a_sideways && b_sideways && b.from == a.to && b.to == a.from
        };
        (shuffled(last[0], last[2]) && shuffled(last[1], last[3])).then(|| {
            scored(
                &state,
                "both players shuffled back and forth",
                Reason::Score,
            )
        })
    }

    fn evaluate(&self, state: &State) -> i32 {
        let value = |p: Player| {
            let t = tally(state, p);
            let pawns = state.count(p, Piece::Pawn) as i64;
            GOAL_LINE * t.goal_line + OFF_GOAL * t.off_goal + SEVENTH * t.sevenths + PAWN * pawns
        };
        let side = state.to_move;
        (value(side) - value(!side)) as i32
    }

    /// What the evaluation loses on the opponent's side when the move captures, plus what a
    /// high piece gains by reaching its goal line (a promotion: there it scores and can no
    /// longer be taken).
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        let side = state.to_move;
        let mut gain = 0;
        if state.own[!side] & bit(mv.to) != 0 {
            gain += piece_value(!side, movegen::kind_of(state, mv.to), mv.to);
        }
        let goal = goal_line(side);
        if goal & bit(mv.to) != 0 && goal & bit(mv.from) == 0 {
            let piece = movegen::kind_of(state, mv.from);
            if piece.is_high() {
                gain += piece_value(side, piece, mv.to) - piece_value(side, piece, mv.from);
            }
        }
        gain as i32
    }

    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::move_text(state, mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, state, text)
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text(state)
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text)
    }

    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        let captured = if state.own[!state.to_move] & bit(mv.to) != 0 {
            vec![mv.to()]
        } else {
            Vec::new()
        };
        MoveView {
            from: Some(mv.from()),
            to: Some(mv.to()),
            captured,
            ..Default::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let pieces = (0..64)
            .filter_map(|sq| {
                let (owner, piece) = state.piece_at(sq)?;
                Some(PieceView {
                    cell: Cell(u16::from(sq)),
                    owner,
                    kind: piece.name(),
                    letter: match owner {
                        Player::White => piece.letter(),
                        Player::Black => piece.letter().to_ascii_lowercase(),
                    },
                })
            })
            .collect();
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }
}
