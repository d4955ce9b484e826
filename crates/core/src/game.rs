//! The `Game` trait: the rules of one ruleset, statically dispatched for speed.

use std::fmt::Debug;
use std::hash::Hash;

use rand::RngCore;

use crate::{
    Board, ByPlayer, Highlight, MoveView, Outcome, Player, PositionError, PositionView, Reason,
    Status, Viewer,
};

/// Why a move's text was rejected: it could not be read, or it is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("cannot read move {text:?}: {reason}")]
    Syntax { text: String, reason: String },
    #[error("move {text:?} is not legal here: {reason}")]
    Illegal { text: String, reason: String },
}

impl MoveError {
    pub fn syntax(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Syntax {
            text: text.to_string(),
            reason: reason.into(),
        }
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// The largest board file any ruleset reads, in bytes (a full 64-square Schada board is about
/// 4 KiB with comments).
pub const MAX_BOARD_FILE: usize = 12 * 1024;

/// A short fingerprint of a board file's text (64-bit FNV-1a, 16 hexadecimal digits), which
/// records carry beside the board's name so that two different files of one name are told
/// apart. Line endings and a byte-order mark do not count.
pub fn board_fingerprint(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for line in text.lines() {
        for &byte in line.trim_end().as_bytes().iter().chain(b"\n") {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// Why a board file was refused, or why a ruleset takes none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardFileError {
    /// The file is wrong at this line (counted from 1).
    #[error("board file, line {line}: {reason}")]
    Line { line: usize, reason: String },
    /// The file is wrong as a whole (a square it never mentions).
    #[error("board file: {0}")]
    Whole(String),
    #[error("{ruleset} is played on one board only; it takes no board file")]
    NotSupported { ruleset: &'static str },
}

/// What the rules say about a position repeated with the same side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Repetitions mean nothing.
    Ignore,
    /// The third occurrence of a position ends the game: a draw, unless the game says otherwise
    /// ([`Game::ending_by_repetition`]).
    DrawOnThird,
    /// A move that would make a position occur for the third time is illegal.
    ForbidThird,
}

/// The kind of search that plays a game best: what the computer's levels use (measured per
/// game with `denkmeter match`). Games that hide something always use information-set Monte
/// Carlo tree search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Monte Carlo tree search: the default, it needs no evaluation to play sensibly.
    MonteCarlo,
    /// Alpha-beta over the game's evaluation and search hooks ([`Game::evaluate`],
    /// [`Game::move_gain`], [`Game::forcing`]).
    AlphaBeta,
}

/// What a ruleset is, apart from its rules: fixed for the ruleset's life, so each game declares
/// it once as a constant.
/// The most parts a [`DisplayName`] is written from.
pub const DISPLAY_NAME_PARTS: usize = 4;

/// A ruleset's name for people ("Fort Chitral", "Scandinavian checkers 8x8, medium men, free
/// line"), as opposed to its stable key (`scandinavian-8x8-medium-free`). It is written from up
/// to [`DISPLAY_NAME_PARTS`] parts, joined as they are (empty parts are left out), so that a
/// family of rulesets can build each one's name from its parameters in a `const`.
///
/// ```
/// use denkmeter_core::DisplayName;
/// let name = DisplayName::from_parts(["Scandinavian checkers", " 8x8", "", ", free line"]);
/// assert_eq!(name.to_string(), "Scandinavian checkers 8x8, free line");
/// assert!(DisplayName::new("").is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisplayName([&'static str; DISPLAY_NAME_PARTS]);

impl DisplayName {
    /// A name in one piece.
    pub const fn new(name: &'static str) -> DisplayName {
        DisplayName([name, "", "", ""])
    }

    /// A name written from parts, joined as they are.
    pub const fn from_parts(parts: [&'static str; DISPLAY_NAME_PARTS]) -> DisplayName {
        DisplayName(parts)
    }

    /// Whether the name is empty (a ruleset that has none: [`Facts::display_name`] then falls
    /// back on the ruleset's key).
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|part| part.is_empty())
    }
}

impl std::fmt::Display for DisplayName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|part| f.write_str(part))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The stable ruleset name, e.g. `chad` or `scandinavian-8x8-weak-free`: a key stored in
    /// databases and records, never shown to people where [`Facts::title`] can be.
    pub name: &'static str,
    /// The ruleset's name for people (`Fort Chitral`); read it through [`Facts::display_name`].
    pub title: DisplayName,
    /// The game's name for its rules page (`chad` for every Chad ruleset).
    pub family: &'static str,
    /// One line for `denkmeter list`.
    pub description: &'static str,
    /// The rules page of the family, in Markdown (`docs/rules/FAMILY.md`).
    pub rules: &'static str,
    /// Whether a player may not see all of the position.
    pub hidden_information: bool,
    /// What a repeated position means; how a game ended by it is scored is
    /// [`Game::ending_by_repetition`].
    pub repetition: RepetitionRule,
    /// Random playouts longer than this many plies are cut off and scored by the evaluation.
    pub playout_limit: usize,
    /// The computer solves a position exactly and plays a best move once at most this many
    /// plies remain ([`Game::plies_to_end`]); 0 (the default) never. Each game sets it by
    /// measurement, so that the slowest such position solves well within the computer's time.
    pub exact_endgame: u32,
    /// The search the computer's levels use.
    pub search: SearchKind,
    /// Each player sits at one end of the board (White's at the bottom of a drawing), so a
    /// drawing for Black may be turned round; false where the board has no players' ends
    /// (Straat's frame, whose tiles are named by compass directions).
    pub players_at_ends: bool,
    /// What the game's tradition calls each player, for people: the rules' White moves first,
    /// and English checkers calls that player Black. Records, positions and APIs keep `white`
    /// and `black`.
    pub side_names: ByPlayer<&'static str>,
    /// How PDN, the draughts world's record format, names the ruleset; `None` for the games
    /// that are not draughts.
    pub pdn: crate::pdn::PdnType,
}

impl Facts {
    /// The facts of a perfect-information ruleset where the third repetition draws and
    /// playouts stop at 400 plies; change the rest with struct update syntax.
    pub const fn new(
        name: &'static str,
        family: &'static str,
        description: &'static str,
        rules: &'static str,
    ) -> Facts {
        Facts {
            name,
            title: DisplayName::new(""),
            family,
            description,
            rules,
            hidden_information: false,
            repetition: RepetitionRule::DrawOnThird,
            playout_limit: 400,
            exact_endgame: 0,
            search: SearchKind::MonteCarlo,
            players_at_ends: true,
            side_names: ByPlayer::new("White", "Black"),
            pdn: crate::pdn::PdnType::None,
        }
    }

    /// The ruleset's name for people (`Scandinavian checkers 8x8, medium men, free line`); the
    /// ruleset's key for one that has none.
    pub fn display_name(&self) -> String {
        if self.title.is_empty() {
            self.name.to_string()
        } else {
            self.title.to_string()
        }
    }
}

/// The rules of one ruleset. Implementations hold the ruleset's parameters (`&self`), so one
/// type can serve several rulesets.
///
/// Conventions: `legal_moves` clears the vector and fills it with every legal move (a forced pass
/// is a move; a finished game has none); `play_unchecked` is only called with a move
/// `legal_moves` gave; `status` reads the position alone (repetition is
/// [`crate::Playthrough`]'s job).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    type State: Clone + Debug + Send + Sync + 'static;

    // Facts.

    /// The ruleset's name, family, description, rules page and fixed parameters.
    fn facts(&self) -> &Facts;
    /// The ruleset's stable name (from [`Game::facts`]).
    fn name(&self) -> &'static str {
        self.facts().name
    }
    fn board(&self) -> &Board;
    /// The board file this ruleset is played on, as `(name, text)`, if its board is data that
    /// a player can replace (Schada's markings); `None` for a fixed board.
    fn board_file(&self) -> Option<(&str, &str)> {
        None
    }
    /// This ruleset played on the board that `text` describes, named `name` in records.
    fn with_board_file(&self, _name: &str, _text: &str) -> Result<Self, BoardFileError> {
        Err(BoardFileError::NotSupported {
            ruleset: self.name(),
        })
    }

    // Rules.

    fn start(&self) -> Self::State;
    fn to_move(&self, state: &Self::State) -> Player;
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);
    /// Plays a move that [`Game::legal_moves`] gave, without checking it: the fast path of
    /// search and perft. Another move may leave the state meaningless; callers with untrusted
    /// moves use [`Game::play`].
    fn play_unchecked(&self, state: &mut Self::State, mv: Self::Move);
    /// Plays a move after checking that it is legal.
    fn play(&self, state: &mut Self::State, mv: Self::Move) -> Result<(), MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        if !moves.contains(&mv) {
            return Err(MoveError::illegal(
                &format!("{mv:?}"),
                "not among the legal moves",
            ));
        }
        self.play_unchecked(state, mv);
        Ok(())
    }
    fn status(&self, state: &Self::State) -> Status;
    /// A Zobrist hash of the whole position (board and side to move).
    fn hash(&self, state: &Self::State) -> u64;
    /// The hash of what the repetition rule compares: the whole position ([`Game::hash`]),
    /// unless the game compares only what both players see (Trangalla, whose kings look like
    /// soldiers), so that whether a repetition ends the game or forbids a move never depends
    /// on what a player cannot see.
    fn repetition_hash(&self, state: &Self::State) -> u64 {
        self.hash(state)
    }
    /// How many plies back a position equal to `state` may have stood: the plies since the last
    /// move that cannot be undone (a capture, a man's step forward), where the state counts
    /// them. The search looks no further back for a repetition, so the count must include every
    /// ply the search plays, a null move or a pass too. `None` (the default): any.
    fn reversible_plies(&self, _state: &Self::State) -> Option<u32> {
        None
    }
    /// The pass, in games where a player passes when he has no move: [`crate::Playthrough`]
    /// offers it when [`RepetitionRule::ForbidThird`] forbids every move. `None` by default.
    fn pass(&self, _state: &Self::State) -> Option<Self::Move> {
        None
    }
    /// How a game that ends by [`RepetitionRule::DrawOnThird`] in `state` ends: a draw, unless
    /// the game scores every ending (Schada).
    fn ending_by_repetition(&self, _state: &Self::State) -> Outcome {
        Outcome::draw(Reason::Repetition)
    }
    /// An ending that the moves leading to a position show but the position does not (besides
    /// repetition, which [`crate::Playthrough`] counts): Schada's shuffling. `moves` were played
    /// from `start`. Like repetition, it is the game history's business: `status`, perft and
    /// search see positions only. `None` by default.
    fn ending_by_history(&self, _start: &Self::State, _moves: &[Self::Move]) -> Option<Outcome> {
        None
    }

    /// The static evaluation of an unfinished position for the side to move, in hundredths of
    /// the game's basic unit (100 is a man or a rook up); see [`crate::win_rate`]. 0 unless the
    /// game knows better.
    fn evaluate(&self, _state: &Self::State) -> i32 {
        0
    }

    /// What `mv` wins at once, in [`Game::evaluate`]'s units: the value of what it captures
    /// (and what a promotion adds, if the game counts it). Alpha-beta tries such moves first
    /// and resolves them in its quiescence search before trusting the evaluation. 0 (the
    /// default) for a quiet move.
    fn move_gain(&self, _state: &Self::State, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether only a forcing position ([`Game::forcing`]) has moves that win something
    /// ([`Game::move_gain`] above 0): true where captures are compulsory and only captures
    /// win, so that a position bound to no capture has nothing to win at once and the
    /// quiescence search need not list its moves. `false` by default, and for a game whose
    /// gains count more than captures (Sjekkers counts a promotion).
    fn gains_only_when_forcing(&self) -> bool {
        false
    }

    /// Whether the side to move must answer something at once: in check, or bound to capture
    /// (draughts). Alpha-beta extends such positions, searches every reply in its quiescence
    /// search instead of standing on the evaluation, and never prunes or reduces there.
    /// `false` by default.
    fn forcing(&self, _state: &Self::State) -> bool {
        false
    }

    /// Whether the side not to move could win something at once if it were its turn: a
    /// capture threat (draughts). The quiescence search does not stand on the evaluation of
    /// such a position without looking at the replies. `false` by default.
    fn threatened(&self, _state: &Self::State) -> bool {
        false
    }

    /// The position after the side to move passes, for null-move pruning: only games where
    /// having the move is almost never a disadvantage may offer it, and only in positions
    /// where that holds (not in check, enough material). `None` (the default) turns the
    /// pruning off: right for draughts and every game where zugzwang is common.
    fn null_move(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }

    /// White's material minus Black's, in hundredths of the game's basic piece (100 is a man),
    /// for adjudicating a game stopped at a move limit the rules do not have; `None` (the
    /// default) for a game without material. Unlike [`Game::evaluate`] it counts pieces only,
    /// from White's side, and reads the whole state (an arbiter sees what a player may not).
    fn material(&self, _state: &Self::State) -> Option<i32> {
        None
    }

    /// The value of the position from an endgame database, if one is loaded that holds it;
    /// with `distance`, also the plies to the end (slower: the distances are kept
    /// compressed). `None` by default.
    fn table_value(&self, _state: &Self::State, _distance: bool) -> Option<TableValue> {
        None
    }

    /// The exact number of plies left when every line of play from `state` ends after that
    /// same number (a placement game: the empty cells); `None` (the default) when lines differ
    /// in length. The endgame solver searches only games that say.
    fn plies_to_end(&self, _state: &Self::State) -> Option<u32> {
        None
    }

    /// White's score minus Black's in a finished game whose outcome carries a score; `None`
    /// while the game goes on or when it ends without a score. Read from [`Game::status`] by
    /// default; a game overrides it when building the outcome (with its breakdown text) costs
    /// more than counting, since the endgame solver asks at every leaf.
    fn score_margin(&self, state: &Self::State) -> Option<i64> {
        match self.status(state) {
            Status::Over(Outcome {
                score: Some(score), ..
            }) => Some(score.white - score.black),
            _ => None,
        }
    }

    // Notation.

    /// The move in the game's notation.
    fn move_text(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Reads a move in the game's notation and finds it among the legal moves.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, MoveError>;
    fn position_text(&self, state: &Self::State) -> String;
    fn parse_position(&self, text: &str) -> Result<Self::State, PositionError>;
    /// The position as a FEN, for the rulesets whose players write one (International
    /// draughts, English checkers); `parse_position` reads it too. `None` elsewhere.
    fn fen(&self, _state: &Self::State) -> Option<String> {
        None
    }

    // Views.

    /// The cells a person clicks for `mv`, and what it changes.
    fn move_view(&self, state: &Self::State, mv: Self::Move) -> MoveView;

    /// What may stand on a cell of a position set up by hand (see [`crate::editor`]): by
    /// default the legend's pieces, for each side, and its neutral pieces once.
    fn editor_tokens(&self) -> Vec<crate::EditorToken> {
        crate::editor::legend_tokens(self.board().legend())
    }
    /// [`Game::move_view`] as `viewer` may see it before the move is made (what a player is
    /// offered). Games that hide something must not tell there what the move will reveal
    /// (Trangalla: whether a jumped piece is the king, removed, or a soldier, flipped).
    fn move_view_for(&self, state: &Self::State, mv: Self::Move, _viewer: Viewer) -> MoveView {
        self.move_view(state, mv)
    }
    /// The position as `viewer` may see it.
    fn position_view(&self, state: &Self::State, viewer: Viewer) -> PositionView;
    /// The text of a move made by `mover` as `viewer` may see it. Games that hide nothing in
    /// their notation return it unchanged.
    fn move_text_for(&self, text: &str, _mover: Player, _viewer: Viewer) -> String {
        text.to_string()
    }
    /// The position seen from the back of the board, for games played on a transparent board
    /// whose pieces have two faces (Straat): each piece's other face, on the cell it lies on as
    /// named from the front (renderers mirror the picture, see [`crate::Side::Back`]). `None`,
    /// the default, for a board with one side.
    fn back_view(&self, _state: &Self::State, _viewer: Viewer) -> Option<PositionView> {
        None
    }
    /// Regions of either side of the board to point out to `viewer` in `state`: the streets
    /// of a finished Straat game. None by default.
    fn highlights(&self, _state: &Self::State, _viewer: Viewer) -> Vec<Highlight> {
        Vec::new()
    }
    /// Words asking the player to move for a choice that is secret and cannot be taken back
    /// (Trangalla's king), which an interface has him confirm before it is sent; `None`, the
    /// default, for an ordinary move.
    fn secret_choice_prompt(&self, _state: &Self::State) -> Option<&'static str> {
        None
    }
    /// What `player` alone knows of `state`, in words for him (Trangalla: where his king
    /// stands); `None`, the default, where nothing is hidden from the others.
    fn secret_note(&self, _state: &Self::State, _player: Player) -> Option<String> {
        None
    }

    // Hidden information.

    /// What `player` knows of `state`: a state of the same type in which whatever `player`
    /// may not see is marked unknown (an observation). It is all a search for `player` may be
    /// given: [`Game::determinize`] completes it. Games that hide nothing return the state.
    fn observation(&self, state: &Self::State, _player: Player) -> Self::State {
        state.clone()
    }

    /// A full state drawn at random among those consistent with `observation` (made by
    /// [`Game::observation`] for `player`): what a search may look at. It reads the observation
    /// only. Games that hide nothing return it as it is; games that hide something override
    /// this, [`Game::observation`] and [`Game::move_view_for`], and set
    /// [`Facts::hidden_information`].
    fn determinize(
        &self,
        observation: &Self::State,
        _player: Player,
        _rng: &mut dyn RngCore,
    ) -> Self::State {
        observation.clone()
    }
}

/// Something that takes every ruleset in turn, each as its own [`Game`] type: how the
/// workspace learns of the rulesets (see `denkmeter_games::visit_rulesets`) without a list of
/// trait objects in the rules crate.
pub trait RulesetVisitor {
    fn visit<G: Game>(&mut self, game: G);
}

/// Finds the move among `state`'s legal moves whose text, normalised by `normalise`, equals the
/// normalised `text`. A helper for [`Game::parse_move`] once the syntax has been checked.
pub fn find_move_by_text<G: Game>(
    game: &G,
    state: &G::State,
    text: &str,
    normalise: impl Fn(&str) -> String,
) -> Result<G::Move, MoveError> {
    let wanted = normalise(text);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .find(|&m| normalise(&game.move_text(state, m)) == wanted)
        .ok_or_else(|| MoveError::illegal(text, "no legal move matches it"))
}

/// A game's result under best play, for the side to move, as an endgame database knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableResult {
    Win,
    Draw,
    Loss,
}

/// What an endgame database says of a position ([`Game::table_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableValue {
    pub result: TableResult,
    /// Plies to the end of the game with best play (the winner quickest, the loser slowest),
    /// when asked for and known; 0 for a draw.
    pub plies: Option<u32>,
    /// Whether the rules' draws by counting moves cannot change the result: always for a
    /// draw; for a win or loss, only where no count can run out before the end.
    pub exact: bool,
}
