//! Setting up a position by hand: what may stand on a cell, and the position string of a board
//! filled with it. The grammar is the one every position string shares (rows written from the
//! far side, separated by `/`, a run of empty cells as its length, one token per other cell);
//! the game checks the result by reading it, so no rule lives here.

use crate::position;
use crate::{Cell, Legend, Player, PositionError};
use std::collections::HashMap;

/// What may stand on a cell, as the position string writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorToken {
    /// The token in position strings: `R`, `m`, Shakti's `-` (no tile), Straat's `N*`.
    pub text: String,
    /// Whose piece it is; `None` for a neutral piece or a mark on the cell.
    pub owner: Option<Player>,
    /// The game's word for it, as in [`crate::PieceView::kind`].
    pub kind: &'static str,
    /// The letter its piece is drawn with, as in [`crate::PieceView::letter`].
    pub letter: char,
}

/// The tokens of a board whose pieces are its legend's: each piece in White's letter and in
/// Black's, a neutral piece once.
pub fn legend_tokens(legend: &Legend) -> Vec<EditorToken> {
    let mut tokens = Vec::new();
    for player in [Player::White, Player::Black] {
        for piece in legend.pieces.iter().filter(|p| !p.shape.is_neutral()) {
            let letter = match player {
                Player::White => piece.letter.to_ascii_uppercase(),
                Player::Black => piece.letter.to_ascii_lowercase(),
            };
            tokens.push(EditorToken {
                text: letter.to_string(),
                owner: Some(player),
                kind: piece.kind,
                letter,
            });
        }
    }
    for piece in legend.pieces.iter().filter(|p| p.shape.is_neutral()) {
        tokens.push(EditorToken {
            text: piece.letter.to_string(),
            owner: None,
            kind: piece.kind,
            letter: piece.letter,
        });
    }
    tokens
}

/// The position string of `rows` (see [`crate::Board::position_rows`]) with `placed` tokens on
/// their cells and `to_move` to move. Every token must be one of `allowed`'s, every cell in
/// `rows`, and no cell given twice. The game has still to read the string to say whether the
/// position is one its rules allow.
pub fn compose(
    rows: &[Vec<Cell>],
    allowed: &[EditorToken],
    placed: &[(Cell, String)],
    to_move: Player,
) -> Result<String, PositionError> {
    if rows.is_empty() {
        return Err(invalid("this board cannot be set up by hand"));
    }
    let on_board: std::collections::HashSet<Cell> = rows.iter().flatten().copied().collect();
    let mut at: HashMap<Cell, &str> = HashMap::new();
    for (cell, token) in placed {
        if !on_board.contains(cell) {
            return Err(invalid(format!("cell {} is not on the board", cell.0)));
        }
        if !allowed.iter().any(|t| t.text == *token) {
            return Err(invalid(format!(
                "{token:?} is not a piece of this game (expected one of {})",
                allowed
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )));
        }
        if at.insert(*cell, token).is_some() {
            return Err(invalid(format!("cell {} is given twice", cell.0)));
        }
    }
    let cells = rows
        .iter()
        .map(|row| row.iter().map(|cell| at.get(cell).copied()));
    Ok(position::write_rows(cells, to_move))
}

/// The token on each occupied cell of `position` (a position string as the game writes it),
/// read along `rows`. A token is one character, followed by any `*` marks.
pub fn decompose(rows: &[Vec<Cell>], position: &str) -> Result<Vec<(Cell, String)>, PositionError> {
    if rows.is_empty() {
        return Err(invalid("this board cannot be set up by hand"));
    }
    let board = position
        .split_whitespace()
        .next()
        .ok_or(PositionError::Empty)?;
    let texts: Vec<&str> = board.split('/').collect();
    if texts.len() != rows.len() {
        return Err(PositionError::RowCount {
            expected: rows.len(),
            found: texts.len(),
        });
    }
    let mut placed = Vec::new();
    for (r, (text, cells)) in texts.iter().zip(rows).enumerate() {
        let row = r + 1;
        let mut tokens: Vec<Option<String>> = Vec::with_capacity(cells.len());
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if tokens.len() > cells.len() {
                break;
            }
            if c.is_ascii_digit() {
                let n = position::read_run(c, &mut chars, row, cells.len())?;
                tokens.extend((0..n).map(|_| None));
            } else {
                let mut token = c.to_string();
                while let Some(&mark) = chars.peek().filter(|&&m| m == '*') {
                    token.push(mark);
                    chars.next();
                }
                tokens.push(Some(token));
            }
        }
        if tokens.len() != cells.len() {
            return Err(PositionError::RowLength {
                row,
                expected: cells.len(),
                found: tokens.len(),
            });
        }
        placed.extend(
            cells
                .iter()
                .zip(tokens)
                .filter_map(|(cell, token)| Some((*cell, token?))),
        );
    }
    Ok(placed)
}

fn invalid(message: impl Into<String>) -> PositionError {
    PositionError::Invalid(message.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Emblem, PieceShape, PieceStyle};

    fn board() -> Board {
        Board::rectangle(3, 2, false).with_pieces(&[
            PieceStyle {
                kind: "man",
                letter: 'M',
                shape: PieceShape::Disc,
                emblem: Emblem::Plain,
            },
            PieceStyle {
                kind: "rock",
                letter: 'X',
                shape: PieceShape::Stone,
                emblem: Emblem::Plain,
            },
        ])
    }

    #[test]
    fn a_legend_gives_each_side_its_letters_and_a_neutral_piece_once() {
        let texts: Vec<String> = legend_tokens(board().legend())
            .into_iter()
            .map(|t| format!("{}:{:?}:{}", t.text, t.owner, t.kind))
            .collect();
        assert_eq!(
            texts,
            ["M:Some(White):man", "m:Some(Black):man", "X:None:rock"]
        );
    }

    #[test]
    fn rows_run_from_the_far_side_and_compose_reads_back() {
        let board = board();
        // a2 b2 c2 / a1 b1 c1, with a1 = cell 0.
        assert_eq!(
            board.position_rows(),
            [
                vec![Cell(3), Cell(4), Cell(5)],
                vec![Cell(0), Cell(1), Cell(2)]
            ]
        );
        let tokens = legend_tokens(board.legend());
        let placed = vec![(Cell(0), "M".to_string()), (Cell(5), "m".to_string())];
        let text = compose(board.position_rows(), &tokens, &placed, Player::Black).unwrap();
        assert_eq!(text, "2m/M2 b");
        let mut back = decompose(board.position_rows(), &text).unwrap();
        back.sort();
        assert_eq!(back, placed);
        assert_eq!(
            compose(board.position_rows(), &tokens, &[], Player::White).unwrap(),
            "3/3 w"
        );
    }

    #[test]
    fn marks_stay_with_their_token() {
        let rows = vec![vec![Cell(0), Cell(1), Cell(2), Cell(3)]];
        let placed = decompose(&rows, "N*1e- w").unwrap();
        assert_eq!(
            placed,
            [
                (Cell(0), "N*".to_string()),
                (Cell(2), "e".to_string()),
                (Cell(3), "-".to_string())
            ]
        );
    }

    #[test]
    fn bad_placements_and_strings_are_named() {
        let board = board();
        let rows = board.position_rows();
        let tokens = legend_tokens(board.legend());
        let refused = |placed: &[(Cell, &str)]| {
            let placed: Vec<(Cell, String)> =
                placed.iter().map(|(c, t)| (*c, t.to_string())).collect();
            compose(rows, &tokens, &placed, Player::White)
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&[(Cell(9), "M")]).contains("cell 9 is not on the board"));
        assert!(refused(&[(Cell(0), "Q")]).contains("\"Q\" is not a piece of this game"));
        assert!(refused(&[(Cell(0), "x")]).contains("is not a piece"));
        assert!(refused(&[(Cell(0), "M"), (Cell(0), "m")]).contains("given twice"));
        assert!(matches!(
            decompose(rows, "3 w"),
            Err(PositionError::RowCount {
                expected: 2,
                found: 1
            })
        ));
        assert!(matches!(
            decompose(rows, "3/M3 w"),
            Err(PositionError::RowLength { row: 2, .. })
        ));
        assert!(matches!(
            decompose(rows, "3/0M2 w"),
            Err(PositionError::BadNumber { row: 2, .. })
        ));
        assert!(matches!(decompose(rows, "  "), Err(PositionError::Empty)));
        let no_rows: Vec<Vec<Cell>> = Vec::new();
        assert!(compose(&no_rows, &tokens, &[], Player::White).is_err());
    }
}
