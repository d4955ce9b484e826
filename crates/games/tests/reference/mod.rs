//! An independent, deliberately slow and plain reference implementation of the rules of Schada,
//! Kamelen, Fort Chitral, Straat and Trangalla, written from the rules texts only
//! (`/work/shared/rules/README.md`, `schada.md`, `schada-board.txt`, `kamelen.md`,
//! `fort-chitral.md`, `straat.md`, `trangalla.md`), the rulings of issue 9
//! (`tests/reference/rulings.md`), the Straat rulings (`tests/reference/rulings-straat.md`) and
//! the Trangalla rulings (`tests/reference/rulings-trangalla.md`). Its only purpose is to cross-check the
//! fast implementation in `src/`, which it
//! never looks at. Standard library only; clarity over speed.
//!
//! Shared here: sides, the board grid (a `Vec<char>`), square names, position strings, perft, and
//! the public [`Reference`] that test files call.

#![allow(dead_code)]

pub mod fort_chitral;
pub mod kamelen;
pub mod schada;
pub mod straat;
pub mod trangalla;

/// A square as (file, rank), both counted from 0: a1 is (0, 0), b1 is (1, 0), a2 is (0, 1).
/// (the rulings (tests/reference/rulings.md) "Common": files a, b, c, ... from White's left, rank 1 is White's first rank.)
pub type Square = (i32, i32);

/// The content of an empty cell in [`Position::cells`].
pub const EMPTY: char = '.';

/// One of the two players. README "Conventions": White is the first player (South), Black the
/// second (North).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// The side a piece letter belongs to (README "Position string": uppercase White, lowercase
/// Black). Games with neutral pieces (Kamelen's rocks `X`) must check for those first.
pub fn side_of_letter(letter: char) -> Option<Side> {
    if letter.is_ascii_uppercase() {
        Some(Side::White)
    } else if letter.is_ascii_lowercase() {
        Some(Side::Black)
    } else {
        None
    }
}

/// A board with its pieces and the side to move: everything a position string holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub width: i32,
    pub height: i32,
    /// `cells[rank * width + file]`, [`EMPTY`] or a piece letter.
    pub cells: Vec<char>,
    pub to_move: Side,
}

impl Position {
    /// An empty board.
    pub fn empty(width: i32, height: i32, to_move: Side) -> Position {
        Position {
            width,
            height,
            cells: vec![EMPTY; (width * height) as usize],
            to_move,
        }
    }

    pub fn on_board(&self, square: Square) -> bool {
        let (file, rank) = square;
        file >= 0 && file < self.width && rank >= 0 && rank < self.height
    }

    /// The content of a square, `None` when the square is off the board.
    pub fn get(&self, square: Square) -> Option<char> {
        if self.on_board(square) {
            let (file, rank) = square;
            Some(self.cells[(rank * self.width + file) as usize])
        } else {
            None
        }
    }

    /// True when the square is on the board and holds nothing.
    pub fn is_empty(&self, square: Square) -> bool {
        self.get(square) == Some(EMPTY)
    }

    /// Puts a letter (or [`EMPTY`]) on a square of the board.
    pub fn set(&mut self, square: Square, letter: char) {
        assert!(self.on_board(square), "set off the board: {square:?}");
        let (file, rank) = square;
        self.cells[(rank * self.width + file) as usize] = letter;
    }

    /// Every square, a1, b1, ..., then rank 2, and so on.
    pub fn squares(&self) -> Vec<Square> {
        let mut all = Vec::new();
        for rank in 0..self.height {
            for file in 0..self.width {
                all.push((file, rank));
            }
        }
        all
    }
}

/// The name of a square: file letter and rank number, e.g. `a1`, `r18` (the rulings (tests/reference/rulings.md) "Common").
pub fn square_name(square: Square) -> String {
    let (file, rank) = square;
    let letter = (b'a' + file as u8) as char;
    format!("{letter}{}", rank + 1)
}

/// Reads a square name (lowercase file letter, rank number without leading zero) on a board of
/// the given size.
pub fn parse_square(text: &str, width: i32, height: i32) -> Option<Square> {
    let mut chars = text.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits: String = chars.collect();
    if digits.is_empty() || digits.starts_with('0') || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    let file = letter as i32 - 'a' as i32;
    let square = (file, rank - 1);
    if file < width && rank >= 1 && rank <= height {
        Some(square)
    } else {
        None
    }
}

/// Reads a position string (README "Position string"): the rows from the highest rank down to
/// rank 1 separated by `/`, runs of empty cells as decimal numbers, piece letters, then a space and
/// `w` or `b`. `letters` lists the piece letters the game allows.
pub fn parse_position(
    text: &str,
    width: i32,
    height: i32,
    letters: &str,
) -> Result<Position, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() != 2 {
        return Err(format!("position {text:?}: expected ROWS SIDE"));
    }
    let to_move = match parts[1] {
        "w" => Side::White,
        "b" => Side::Black,
        other => {
            return Err(format!(
                "position {text:?}: side to move {other:?} is not w or b"
            ))
        }
    };
    let rows: Vec<&str> = parts[0].split('/').collect();
    if rows.len() != height as usize {
        return Err(format!(
            "position {text:?}: {} rows, expected {height}",
            rows.len()
        ));
    }
    let mut position = Position::empty(width, height, to_move);
    for (index, row) in rows.iter().enumerate() {
        // The first row written is the highest rank.
        let rank = height - 1 - index as i32;
        let mut file = 0;
        let mut run = String::new();
        for c in row.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                run.push(c);
                continue;
            }
            if !run.is_empty() {
                if run.starts_with('0') {
                    return Err(format!("position {text:?}: bad run of empty cells {run:?}"));
                }
                let count: i32 = run
                    .parse()
                    .map_err(|_| format!("position {text:?}: bad number {run:?}"))?;
                file += count;
                run.clear();
            }
            if c == '/' {
                break;
            }
            if !letters.contains(c) {
                return Err(format!("position {text:?}: unknown piece letter {c:?}"));
            }
            if file >= width {
                return Err(format!("position {text:?}: row {row:?} is too long"));
            }
            position.set((file, rank), c);
            file += 1;
        }
        if file != width {
            return Err(format!(
                "position {text:?}: row {row:?} has {file} cells, expected {width}"
            ));
        }
    }
    Ok(position)
}

/// Writes the canonical position string: runs of empty cells merged into one number.
pub fn print_position(position: &Position) -> String {
    let mut rows = Vec::new();
    for rank in (0..position.height).rev() {
        let mut row = String::new();
        let mut run = 0;
        for file in 0..position.width {
            let letter = position.get((file, rank)).unwrap_or(EMPTY);
            if letter == EMPTY {
                run += 1;
            } else {
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(letter);
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    let side = match position.to_move {
        Side::White => "w",
        Side::Black => "b",
    };
    format!("{} {side}", rows.join("/"))
}

/// A position string for a board holding only the given pieces, e.g. `[("d3", 'P')]` (a helper for
/// tests; panics on a square that is not on the board).
pub fn position_with(width: i32, height: i32, pieces: &[(&str, char)], to_move: Side) -> String {
    let mut position = Position::empty(width, height, to_move);
    for &(name, letter) in pieces {
        match parse_square(name, width, height) {
            Some(square) => position.set(square, letter),
            None => panic!("{name:?} is not a square of a {width}x{height} board"),
        }
    }
    print_position(&position)
}

/// A move text `FROM-TO`, or `FROMxTO` when it captures the piece standing on TO (the rulings (tests/reference/rulings.md) "Common").
pub fn move_text(from: Square, to: Square, captures: bool) -> String {
    let mark = if captures { "x" } else { "-" };
    format!("{}{mark}{}", square_name(from), square_name(to))
}

/// Keeps one move per text (the rulings (tests/reference/rulings.md) "Common": two routes with the same start and end are one move,
/// and their effects are identical), sorted by text.
pub fn unique_moves(mut moves: Vec<(String, Position)>) -> Vec<(String, Position)> {
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.dedup_by(|a, b| a.0 == b.0);
    moves
}

/// Perft: the number of move sequences of the given length (README "Conventions": a forced pass
/// counts; a finished game has no moves). `successors` lists each legal move once with the
/// position after it. At depth 1 the moves are counted without playing them.
pub fn perft_count(
    position: &Position,
    depth: u32,
    successors: &dyn Fn(&Position) -> Vec<(String, Position)>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = successors(position);
    if depth == 1 {
        return next.len() as u64;
    }
    let mut total = 0;
    for (_, after) in &next {
        total += perft_count(after, depth - 1, successors);
    }
    total
}

/// Which game a [`Reference`] plays, with its options.
#[derive(Clone, Debug)]
enum Rules {
    Schada(schada::Board),
    Kamelen(kamelen::Kamelen),
    FortChitral(fort_chitral::FortChitral),
    /// Straat has its own board type (a tile is a letter and maybe a `*`), so the methods of
    /// [`Reference`] hand it over to `straat.rs` before the shared char grid is used.
    Straat(straat::Straat),
    /// Trangalla's positions carry a setup flag (` setup`), so, like Straat, it is handed over to
    /// `trangalla.rs` before the shared char grid is used.
    Trangalla,
}

/// The reference rules of one ruleset, with the Schada board when it is Schada.
#[derive(Clone, Debug)]
pub struct Reference {
    ruleset: String,
    rules: Rules,
}

impl Reference {
    /// `ruleset`: `schada`, `kamelen`, `kamelen-11x12`, `kamelen-11x13`, `fort-chitral`,
    /// `fort-chitral-orthogonal`, `fort-chitral-no-loss-at-three`, `straat`, `straat-diagonal`,
    /// `straat-flip`, `trangalla`. `board`: the text of a Schada board file (Schada only); `None` is the
    /// shipped reconstruction. A bad board file gives an error naming its line (`line 12: ...`).
    pub fn new(ruleset: &str, board: Option<&str>) -> Result<Reference, String> {
        let rules = match ruleset {
            "schada" => Rules::Schada(schada::Board::parse(
                board.unwrap_or(schada::DEFAULT_BOARD),
            )?),
            "kamelen" => Rules::Kamelen(kamelen::Kamelen { height: 11 }),
            "kamelen-11x12" => Rules::Kamelen(kamelen::Kamelen { height: 12 }),
            "kamelen-11x13" => Rules::Kamelen(kamelen::Kamelen { height: 13 }),
            "fort-chitral" => Rules::FortChitral(fort_chitral::FortChitral {
                orthogonal_captures_only: false,
                loss_below_four: true,
            }),
            "fort-chitral-orthogonal" => Rules::FortChitral(fort_chitral::FortChitral {
                orthogonal_captures_only: true,
                loss_below_four: true,
            }),
            "fort-chitral-no-loss-at-three" => Rules::FortChitral(fort_chitral::FortChitral {
                orthogonal_captures_only: false,
                loss_below_four: false,
            }),
            "straat" | "straat-diagonal" | "straat-flip" => Rules::Straat(straat_rules(ruleset)?),
            "trangalla" => Rules::Trangalla,
            other => return Err(format!("unknown ruleset {other:?}")),
        };
        Ok(Reference {
            ruleset: ruleset.to_string(),
            rules,
        })
    }

    /// The start position string.
    pub fn start(&self) -> String {
        if let Rules::Straat(_) = &self.rules {
            return straat::print(&straat::start());
        }
        if let Rules::Trangalla = &self.rules {
            return trangalla::print(&trangalla::start());
        }
        print_position(&self.start_position())
    }

    fn start_position(&self) -> Position {
        match &self.rules {
            Rules::Schada(_) => schada::start(),
            Rules::Kamelen(game) => game.start(),
            Rules::FortChitral(_) => fort_chitral::start(),
            Rules::Straat(_) => unreachable!("Straat boards are not char grids"),
            Rules::Trangalla => unreachable!("Trangalla positions are handled in trangalla.rs"),
        }
    }

    fn parse(&self, position: &str) -> Result<Position, String> {
        match &self.rules {
            Rules::Schada(_) => schada::parse(position),
            Rules::Kamelen(game) => game.parse(position),
            Rules::FortChitral(_) => fort_chitral::parse(position),
            Rules::Straat(_) => unreachable!("Straat boards are not char grids"),
            Rules::Trangalla => unreachable!("Trangalla positions are handled in trangalla.rs"),
        }
    }

    /// Every legal move once, sorted by text, with the position after it.
    fn successors(&self, position: &Position) -> Vec<(String, Position)> {
        let moves = match &self.rules {
            Rules::Schada(board) => schada::successors(board, position),
            Rules::Kamelen(game) => game.successors(position),
            Rules::FortChitral(game) => game.successors(position),
            Rules::Straat(_) => unreachable!("Straat boards are not char grids"),
            Rules::Trangalla => unreachable!("Trangalla positions are handled in trangalla.rs"),
        };
        unique_moves(moves)
    }

    /// The legal move texts, sorted, without duplicates; empty when the game is over.
    pub fn moves(&self, position: &str) -> Result<Vec<String>, String> {
        if let Rules::Straat(game) = &self.rules {
            let board = game.parse(position)?;
            let mut texts: Vec<String> = game
                .successors(&board)
                .into_iter()
                .map(|(text, _)| text)
                .collect();
            texts.sort();
            texts.dedup();
            return Ok(texts);
        }
        if let Rules::Trangalla = &self.rules {
            let state = trangalla::parse(position)?;
            let mut texts: Vec<String> = trangalla::successors(&state)
                .into_iter()
                .map(|(text, _)| text)
                .collect();
            texts.sort();
            texts.dedup();
            return Ok(texts);
        }
        let position = self.parse(position)?;
        Ok(self
            .successors(&position)
            .into_iter()
            .map(|(text, _)| text)
            .collect())
    }

    /// The position string after a legal move.
    pub fn play(&self, position: &str, mv: &str) -> Result<String, String> {
        if let Rules::Straat(game) = &self.rules {
            let before = game.parse(position)?;
            for (text, after) in game.successors(&before) {
                if text == mv {
                    return Ok(straat::print(&after));
                }
            }
            return Err(format!("{mv:?} is not a legal move in {position:?}"));
        }
        if let Rules::Trangalla = &self.rules {
            // Only the canonical text of a move (rulings-trangalla.md "A move") is accepted, so
            // that a fast side writing another route of the move is caught.
            let before = trangalla::parse(position)?;
            for (text, after) in trangalla::successors(&before) {
                if text == mv {
                    return Ok(trangalla::print(&after));
                }
            }
            return Err(format!("{mv:?} is not a legal move in {position:?}"));
        }
        let before = self.parse(position)?;
        for (text, after) in self.successors(&before) {
            if text == mv {
                return Ok(print_position(&after));
            }
        }
        Err(format!("{mv:?} is not a legal move in {position:?}"))
    }

    pub fn perft(&self, position: &str, depth: u32) -> Result<u64, String> {
        if let Rules::Straat(game) = &self.rules {
            let board = game.parse(position)?;
            return Ok(game.perft(&board, depth));
        }
        if let Rules::Trangalla = &self.rules {
            return Ok(trangalla::perft(&trangalla::parse(position)?, depth));
        }
        let position = self.parse(position)?;
        Ok(perft_count(&position, depth, &|p| self.successors(p)))
    }

    /// `None` while the game goes on; else `1-0`, `0-1` or `1/2-1/2`, followed by ` double` for a
    /// Kamelen double win and, for Schada, by ` W-B`, the goal-line points of White and Black;
    /// for Straat by ` W-B`, each player's streets (front plus back), `None` while a cell is empty;
    /// for Trangalla the result alone (a king on its goal, both kings gone, neither can move).
    pub fn outcome(&self, position: &str) -> Result<Option<String>, String> {
        if let Rules::Straat(game) = &self.rules {
            let board = game.parse(position)?;
            return Ok(game.outcome(&board));
        }
        if let Rules::Trangalla = &self.rules {
            return Ok(trangalla::outcome(&trangalla::parse(position)?));
        }
        let position = self.parse(position)?;
        Ok(match &self.rules {
            Rules::Schada(board) => schada::outcome(board, &position),
            Rules::Kamelen(game) => game.outcome(&position),
            Rules::FortChitral(game) => game.outcome(&position),
            Rules::Straat(_) | Rules::Trangalla => unreachable!("handled above"),
        })
    }
}

/// The options of a Straat ruleset (rulings-straat.md, first lines): `straat` straight split,
/// `straat-diagonal` diagonal split, `straat-flip` straight split and tiles may lie solid face up.
fn straat_rules(ruleset: &str) -> Result<straat::Straat, String> {
    match ruleset {
        "straat" => Ok(straat::Straat {
            diagonal: false,
            flip: false,
        }),
        "straat-diagonal" => Ok(straat::Straat {
            diagonal: true,
            flip: false,
        }),
        "straat-flip" => Ok(straat::Straat {
            diagonal: false,
            flip: true,
        }),
        other => Err(format!("{other:?} is not a Straat ruleset")),
    }
}

/// The streets of a Straat position, full or partly filled (rulings-straat.md "Streets"):
/// `(white front, white back, black front, black back)`, each the number of own-colour regions
/// joining north and south plus those joining west and east on that side of the frame.
pub fn straat_scores(ruleset: &str, position: &str) -> Result<(u32, u32, u32, u32), String> {
    let game = straat_rules(ruleset)?;
    let board = game.parse(position)?;
    Ok(game.scores(&board))
}

/// The result text for a winner, `None` for a draw.
pub fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    }
}
