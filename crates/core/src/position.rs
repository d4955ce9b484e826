//! The one-line position string shared by every game: rows from the far side separated by `/`,
//! runs of empty cells as numbers, pieces as letters, then ` w` or ` b`.

use std::fmt::Write;

use crate::Player;

/// Why a position string was rejected. The message names the field and the bad text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("position is empty")]
    Empty,
    #[error("side to move: expected `w` or `b` after the board, found {0:?}")]
    SideToMove(String),
    #[error("board: expected {expected} rows separated by `/`, found {found}")]
    RowCount { expected: usize, found: usize },
    #[error("row {row}: expected {expected} cells, found {found}")]
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    #[error("row {row}: unexpected character {found:?}")]
    BadCharacter { row: usize, found: char },
    #[error("row {row}: number {found:?} is not a run of empty cells")]
    BadNumber { row: usize, found: String },
    #[error("invalid position: {0}")]
    Invalid(String),
}

/// One cell of a parsed grid: empty, or the character that stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridCell {
    Empty,
    Char(char),
}

/// A position string split into its grid and side to move. Row 0 is the far side (the first
/// row written); `rows[r][c]` is column `c` from the left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: Vec<Vec<GridCell>>,
    pub to_move: Player,
}

impl Grid {
    /// Parses `text` as a grid of `rows` x `cols` cells. Digits (several in a row form one
    /// number) stand for that many empty cells; every other character is a cell of its own and
    /// must satisfy `is_piece`.
    pub fn parse(
        text: &str,
        rows: usize,
        cols: usize,
        is_piece: impl Fn(char) -> bool,
    ) -> Result<Grid, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        let mut parts = text.split_whitespace();
        let board = parts.next().unwrap_or_default();
        let side = parts.next().unwrap_or_default();
        let mut side_chars = side.chars();
        let to_move = match (
            side_chars.next().and_then(Player::from_letter),
            side_chars.next(),
        ) {
            (Some(p), None) => p,
            _ => return Err(PositionError::SideToMove(side.to_string())),
        };
        if let Some(extra) = parts.next() {
            return Err(PositionError::SideToMove(format!("{side} {extra}")));
        }
        let texts: Vec<&str> = board.split('/').collect();
        if texts.len() != rows {
            return Err(PositionError::RowCount {
                expected: rows,
                found: texts.len(),
            });
        }
        let mut grid = Vec::with_capacity(rows);
        for (r, row_text) in texts.iter().enumerate() {
            let row = r + 1;
            let mut cells = Vec::with_capacity(cols);
            let mut chars = row_text.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    let n = read_run(c, &mut chars, row, cols)?;
                    cells.extend(std::iter::repeat(GridCell::Empty).take(n));
                } else if is_piece(c) {
                    cells.push(GridCell::Char(c));
                } else {
                    return Err(PositionError::BadCharacter { row, found: c });
                }
                if cells.len() > cols {
                    break;
                }
            }
            if cells.len() != cols {
                return Err(PositionError::RowLength {
                    row,
                    expected: cols,
                    found: cells.len(),
                });
            }
            grid.push(cells);
        }
        Ok(Grid {
            rows: grid,
            to_move,
        })
    }

    /// A grid from rows of optional characters (the far side's row first), as tests and tools
    /// that place pieces by square build them.
    pub fn from_chars<R: AsRef<[Option<char>]>>(rows: &[R], to_move: Player) -> Grid {
        Grid {
            rows: rows
                .iter()
                .map(|row| {
                    row.as_ref()
                        .iter()
                        .map(|c| c.map_or(GridCell::Empty, GridCell::Char))
                        .collect()
                })
                .collect(),
            to_move,
        }
    }

    /// Writes the grid back as a position string, runs of empty cells as numbers.
    pub fn to_text(&self) -> String {
        let rows = self.rows.iter().map(|row| {
            row.iter().map(|cell| match cell {
                GridCell::Empty => None,
                GridCell::Char(c) => Some(*c),
            })
        });
        write_rows(rows, self.to_move)
    }
}

/// Reads the run of empty cells whose first digit is `first` (the rest follow in `chars`): a
/// number from 1 to `most`, the cells left in `row`.
pub(crate) fn read_run(
    first: char,
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    row: usize,
    most: usize,
) -> Result<usize, PositionError> {
    let mut number = first.to_string();
    while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
        number.push(d);
        chars.next();
    }
    match number.parse() {
        Ok(n) if n > 0 && n <= most => Ok(n),
        _ => Err(PositionError::BadNumber { row, found: number }),
    }
}

/// Writes rows of cells (the far side's first; `None` for an empty cell, else what stands
/// there) and the side to move as a position string, runs of empty cells as numbers.
pub(crate) fn write_rows<T: std::fmt::Display>(
    rows: impl IntoIterator<Item = impl IntoIterator<Item = Option<T>>>,
    to_move: Player,
) -> String {
    let mut out = String::new();
    for (r, row) in rows.into_iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(token) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    let _ = write!(out, "{token}");
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
    }
    out.push(' ');
    out.push(to_move.letter());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Grid, PositionError> {
        Grid::parse(text, 3, 12, |c| "KRQkrq-".contains(c))
    }

    #[test]
    fn a_grid_from_characters_writes_runs() {
        let rows = [[None, Some('K'), None], [None, None, None]];
        assert_eq!(Grid::from_chars(&rows, Player::Black).to_text(), "1K1/3 b");
    }

    #[test]
    fn multi_digit_runs_round_trip() {
        let g = parse("12/2RK8/11q b").unwrap();
        assert_eq!(g.to_move, Player::Black);
        assert_eq!(g.rows[1][2], GridCell::Char('R'));
        assert_eq!(g.rows[2][11], GridCell::Char('q'));
        assert_eq!(g.to_text(), "12/2RK8/11q b");
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!(parse(""), Err(PositionError::Empty));
        assert!(matches!(
            parse("12/12/12"),
            Err(PositionError::SideToMove(_))
        ));
        assert!(matches!(
            parse("12/12/12 x"),
            Err(PositionError::SideToMove(_))
        ));
        assert!(matches!(
            parse("12/12 w"),
            Err(PositionError::RowCount {
                expected: 3,
                found: 2
            })
        ));
        assert!(matches!(
            parse("12/11/12 w"),
            Err(PositionError::RowLength { row: 2, .. })
        ));
        assert!(matches!(
            parse("12/13/12 w"),
            Err(PositionError::BadNumber { row: 2, .. })
        ));
        assert!(matches!(
            parse("12/11Z/12 w"),
            Err(PositionError::BadCharacter { row: 2, found: 'Z' })
        ));
        assert!(matches!(
            parse("12/0/12 w"),
            Err(PositionError::BadNumber { .. })
        ));
        assert!(matches!(
            parse("12/99999999999999999999999/12 w"),
            Err(PositionError::BadNumber { .. })
        ));
    }
}
