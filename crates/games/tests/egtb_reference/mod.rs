//! A slow, plain reference solver for small draughts endgames, used only by tests to check the
//! fast endgame-database generator (which it never looks at).
//!
//! It knows nothing of the rules: it reads positions and moves through the public
//! [`denkmeter_core::Game`] API of a draughts ruleset, written from the position-string
//! conventions of `/work/shared/rules/README.md`, `scandinavian.md` and `draughts-reference.md`
//! (rows from the far side, runs of empty cells as numbers, `M`/`D` a White man/dame, `m`/`d` a
//! Black one, then ` w` or ` b`).
//!
//! Values ignore the move-count draw rules that International draughts and English checkers keep
//! in their state: every position is read again from its text (a parsed position has its counts
//! at 0) and keyed by the text, so only a side that cannot move (or has no piece) loses, and a
//! position never resolved is a draw.
//!
//! The method: enumerate every position of at most `max_pieces` pieces (at least one of each
//! side, both sides to move), list each one's successors once, then resolve by passes. Pass 0
//! marks the positions without a legal move `Loss(0)`; pass `k` looks only at the values known
//! before it began, and marks a position `Win(1 + m)` if some successor is `Loss(m)` (the least
//! such `m`), or `Loss(1 + m)` if every successor is known to be a `Win` (`m` the greatest). By
//! induction, after pass `k` exactly the positions whose distance is at most `k` are resolved,
//! with their exact minimax distance (the solver asserts that each value found in pass `k` has
//! distance `k`). Positions still unresolved when a pass resolves nothing are draws.

#![allow(dead_code)]

use std::collections::HashMap;

use denkmeter_core::{Game, Player, Status};

/// The value of a position for its side to move, under best play, ignoring the move-count draw rules
/// (only a side that cannot move, or has no pieces, loses; no draws by counting or repetition).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win(u32),
    Loss(u32),
    Draw,
}

/// The piece letters of the draughts position strings: White man and dame, Black man and dame.
pub const LETTERS: [char; 4] = ['M', 'D', 'm', 'd'];

/// The grid of the position strings, row by row as written (the far side first): for each cell,
/// the letters that `parse_position` accepts standing alone there. Light squares accept none;
/// a man is refused on its own promotion row.
pub fn allowed_letters<G: Game>(game: &G) -> Vec<Vec<Vec<char>>> {
    let widths: Vec<usize> = game
        .board()
        .position_rows()
        .iter()
        .map(|row| row.len())
        .collect();
    let mut empty: Vec<Vec<Option<char>>> = widths.iter().map(|&w| vec![None; w]).collect();
    let mut allowed = Vec::with_capacity(widths.len());
    for row in 0..widths.len() {
        let mut row_letters = Vec::with_capacity(widths[row]);
        for column in 0..widths[row] {
            let mut here = Vec::new();
            for letter in LETTERS {
                empty[row][column] = Some(letter);
                if game.parse_position(&grid_text(&empty, 'w')).is_ok() {
                    here.push(letter);
                }
                empty[row][column] = None;
            }
            row_letters.push(here);
        }
        allowed.push(row_letters);
    }
    allowed
}

/// A position string from its grid (`None` an empty cell) and the side to move (`'w'`/`'b'`).
pub fn grid_text(rows: &[Vec<Option<char>>], to_move: char) -> String {
    let mut text = String::new();
    for (r, row) in rows.iter().enumerate() {
        if r > 0 {
            text.push('/');
        }
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(*c);
                }
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
    }
    text.push(' ');
    text.push(to_move);
    text
}

/// Every position string with at least one piece of each side and at most `max_pieces` pieces,
/// each side to move, that `parse_position` accepts, in the form `position_text` writes. Panics
/// if a parsed position is not written back as generated (the grid would be misunderstood).
pub fn positions<G: Game>(game: &G, max_pieces: usize) -> Vec<String> {
    let allowed = allowed_letters(game);
    // The cells that can hold a piece, as (row, column, letters).
    let cells: Vec<(usize, usize, &[char])> = allowed
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, letters)| !letters.is_empty())
                .map(move |(c, letters)| (r, c, letters.as_slice()))
        })
        .collect();
    let mut grid: Vec<Vec<Option<char>>> =
        allowed.iter().map(|row| vec![None; row.len()]).collect();
    let mut chosen: Vec<(usize, char)> = Vec::new();
    let mut out = Vec::new();
    choose(
        game,
        &cells,
        0,
        max_pieces,
        &mut chosen,
        &mut grid,
        &mut out,
    );
    out
}

/// Emits the current placement (if both sides have a piece) and extends it with one more piece
/// on a cell after the last chosen one, for every cell and letter.
fn choose<G: Game>(
    game: &G,
    cells: &[(usize, usize, &[char])],
    start: usize,
    max_pieces: usize,
    chosen: &mut Vec<(usize, char)>,
    grid: &mut Vec<Vec<Option<char>>>,
    out: &mut Vec<String>,
) {
    let white = chosen.iter().any(|(_, c)| c.is_ascii_uppercase());
    let black = chosen.iter().any(|(_, c)| c.is_ascii_lowercase());
    if white && black {
        for side in ['w', 'b'] {
            let text = grid_text(grid, side);
            if let Ok(state) = game.parse_position(&text) {
                let written = game.position_text(&state);
                assert_eq!(
                    written, text,
                    "the ruleset writes a generated position otherwise"
                );
                out.push(written);
            }
        }
    }
    if chosen.len() == max_pieces {
        return;
    }
    for i in start..cells.len() {
        let (r, c, letters) = cells[i];
        for &letter in letters {
            grid[r][c] = Some(letter);
            chosen.push((i, letter));
            choose(game, cells, i + 1, max_pieces, chosen, grid, out);
            chosen.pop();
        }
        grid[r][c] = None;
    }
}

/// A position read again from its text, so that no draw-rule count carries over.
fn reparse<G: Game>(game: &G, text: &str) -> G::State {
    game.parse_position(text)
        .unwrap_or_else(|e| panic!("the ruleset does not read its own position {text:?}: {e}"))
}

/// The legal moves of a freshly parsed position, checked against `status`: no move means the
/// side to move has lost (no draw rule can have run out on a fresh position).
fn moves_checked<G: Game>(game: &G, state: &G::State, text: &str) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    match game.status(state) {
        Status::Ongoing => assert!(!moves.is_empty(), "{text}: ongoing without a legal move"),
        Status::Over(outcome) => {
            assert!(
                moves.is_empty(),
                "{text}: over ({outcome:?}) with legal moves"
            );
            let loser: Player = game.to_move(state);
            assert_eq!(
                outcome.winner,
                Some(loser.opponent()),
                "{text}: a side that cannot move must lose"
            );
        }
    }
    moves
}

fn count_pieces(text: &str) -> (usize, usize) {
    let board = text.split(' ').next().unwrap_or_default();
    let white = board.chars().filter(|c| "MD".contains(*c)).count();
    let black = board.chars().filter(|c| "md".contains(*c)).count();
    (white, black)
}

/// A successor: a position of the table, or one outside it whose side to move has no piece left
/// (and so has lost: `Loss(0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Successor {
    Known(usize),
    LostAtOnce,
}

/// The successors of the position `text` (empty if it has no legal move). A successor's text is
/// read from the played state, whose draw-rule counts are ignored: it is only a key, and each
/// position of the table is read afresh from its text when its own turn comes. A successor
/// outside the table is read again to check that its side to move has no piece and no move.
fn successors_of<G: Game>(
    game: &G,
    index: &HashMap<&str, usize>,
    text: &str,
    max_pieces: usize,
) -> Vec<Successor> {
    let state = reparse(game, text);
    let moves = moves_checked(game, &state, text);
    let mut next = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut after = state.clone();
        game.play_unchecked(&mut after, mv);
        let after_text = game.position_text(&after);
        match index.get(after_text.as_str()) {
            Some(&j) => next.push(Successor::Known(j)),
            None => {
                let fresh = reparse(game, &after_text);
                assert_eq!(
                    game.position_text(&fresh),
                    after_text,
                    "the ruleset writes a position it read otherwise"
                );
                let (white, black) = count_pieces(&after_text);
                let (own, other) = match game.to_move(&fresh) {
                    Player::White => (white, black),
                    Player::Black => (black, white),
                };
                assert!(
                    own == 0 && other > 0 && own + other <= max_pieces,
                    "{text}: successor {after_text} is missing from the enumeration"
                );
                assert!(
                    moves_checked(game, &fresh, &after_text).is_empty(),
                    "{after_text}: a side without pieces has a move"
                );
                next.push(Successor::LostAtOnce);
            }
        }
    }
    next
}

/// Every position of `game` (a draughts ruleset) with at least one piece of each side and at most
/// `max_pieces` pieces in all, both sides to move, keyed by `game.position_text(&state)`, with its value.
pub fn solve<G: Game>(game: &G, max_pieces: usize) -> HashMap<String, Value> {
    let texts = positions(game, max_pieces);
    let index: HashMap<&str, usize> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    assert_eq!(index.len(), texts.len(), "a position was generated twice");

    // The successors of each position, and pass 0: no legal move is Loss(0). The positions are
    // independent, so they are shared among threads (each keeps its own order).
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = texts.len().div_ceil(threads).max(1);
    let successors: Vec<Vec<Successor>> = std::thread::scope(|scope| {
        let handles: Vec<_> = texts
            .chunks(chunk)
            .map(|part| {
                let index = &index;
                scope.spawn(move || {
                    part.iter()
                        .map(|text| successors_of(game, index, text, max_pieces))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a successor thread panicked"))
            .collect()
    });
    let mut values: Vec<Option<Value>> = successors
        .iter()
        .map(|next| next.is_empty().then_some(Value::Loss(0)))
        .collect();

    // Passes 1, 2, ...: each uses only the values known before it began.
    let mut unresolved: Vec<usize> = (0..texts.len()).filter(|&i| values[i].is_none()).collect();
    let mut pass: u32 = 0;
    loop {
        pass += 1;
        let mut found: Vec<(usize, Value)> = Vec::new();
        for &i in &unresolved {
            let mut fastest_loss: Option<u32> = None;
            let mut all_wins = true;
            let mut slowest_win: u32 = 0;
            for &s in &successors[i] {
                let value = match s {
                    Successor::Known(j) => values[j],
                    Successor::LostAtOnce => Some(Value::Loss(0)),
                };
                match value {
                    Some(Value::Loss(m)) => {
                        fastest_loss = Some(fastest_loss.map_or(m, |f| f.min(m)));
                        all_wins = false;
                    }
                    Some(Value::Win(m)) => slowest_win = slowest_win.max(m),
                    Some(Value::Draw) | None => all_wins = false,
                }
            }
            let value = if let Some(m) = fastest_loss {
                Some(Value::Win(m + 1))
            } else if all_wins {
                Some(Value::Loss(slowest_win + 1))
            } else {
                None
            };
            if let Some(v) = value {
                let distance = match v {
                    Value::Win(n) | Value::Loss(n) => n,
                    Value::Draw => unreachable!("draws are never found in a pass"),
                };
                assert_eq!(distance, pass, "{}: resolved out of order", texts[i]);
                found.push((i, v));
            }
        }
        if found.is_empty() {
            break;
        }
        for &(i, v) in &found {
            values[i] = Some(v);
        }
        unresolved.retain(|&i| values[i].is_none());
    }

    texts
        .into_iter()
        .zip(values)
        .map(|(text, value)| (text, value.unwrap_or(Value::Draw)))
        .collect()
}
