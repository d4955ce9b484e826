//! Boards as data: named cells with drawing coordinates and shapes, neighbour tables per
//! direction, and the lines to draw between points. One renderer draws every board from this.

use std::fmt;
use std::sync::Arc;

use crate::legend::{CellStyle, Legend, PieceStyle};

/// A cell of a board: an index into [`Board::cells`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A unit square centred on the cell's coordinates.
    Square,
    /// A point where lines cross (pieces stand on intersections).
    Point,
}

/// One cell: its name in the notation, where it is drawn and how.
#[derive(Clone, Debug, PartialEq)]
pub struct CellInfo {
    pub name: String,
    /// Drawing coordinates, in cell units; y grows downwards (White at the bottom).
    pub x: f32,
    pub y: f32,
    pub shape: Shape,
    /// Drawing classes, e.g. `dark`, `castle-white`, `wall-black`.
    pub classes: Vec<&'static str>,
}

impl CellInfo {
    /// The cell name split into its letters and its digits (`D12` -> `("D", "12")`), which
    /// label the columns and rows of a drawing.
    pub fn name_parts(&self) -> (&str, &str) {
        let at = self
            .name
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(self.name.len());
        self.name.split_at(at)
    }
}

/// A label beside a row or under a column of a drawing: `at` is the row's `y` or the column's
/// `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeLabel {
    pub at: f32,
    pub text: String,
}

/// A direction of a board, with its name (`n`, `ne`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Direction {
    pub name: &'static str,
}

/// The eight directions of a square board, in this order: N, NE, E, SE, S, SW, W, NW.
pub const SQUARE_DIRECTIONS: [(&str, i32, i32); 8] = [
    ("n", 0, 1),
    ("ne", 1, 1),
    ("e", 1, 0),
    ("se", 1, -1),
    ("s", 0, -1),
    ("sw", -1, -1),
    ("w", -1, 0),
    ("nw", -1, 1),
];

/// A board: cells, directions, a neighbour table and lines to draw. It is shared, not copied,
/// when cloned: a game's every copy (one per move stored, one per search) holds the same board.
#[derive(Clone, Debug, PartialEq)]
pub struct Board(Arc<BoardData>);

#[derive(Clone, Debug, PartialEq)]
struct BoardData {
    cells: Vec<CellInfo>,
    directions: Vec<Direction>,
    /// `neighbours[cell * directions + dir]`.
    neighbours: Vec<Option<Cell>>,
    /// Pairs of cells joined by a drawn line (for boards of points).
    lines: Vec<(Cell, Cell)>,
    /// Size of the bounding grid in cell units, for drawing.
    width: f32,
    height: f32,
    /// How the cells and pieces look.
    legend: Legend,
    /// Markings printed on cells (Schada's paths), drawn over everything.
    marks: Vec<Mark>,
    /// The number players give each cell, where they number them (draughts' 1 to 50), indexed
    /// by cell; empty for a board without numbers.
    numbers: Vec<Option<u16>>,
    /// The cells in the order the position string writes them: its rows, the first written
    /// first, each row's cells from left to right.
    position_rows: Vec<Vec<Cell>>,
}

/// A marking printed on a cell: a row of dots from the cell's centre through `points`, given
/// relative to that centre in cell units with y growing downwards. Schada's board shows each
/// square's paths this way.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub cell: Cell,
    pub points: Vec<(f32, f32)>,
}

impl Board {
    /// A rectangular board of squares with eight directions. Cell `file + rank * files` is named
    /// by a letter from `a` and a rank number from 1 (`uppercase` gives `A1`). Rank 1 is drawn at
    /// the bottom.
    ///
    /// # Panics
    /// If the board has more than 26 files or more than 65535 cells (a programming error).
    pub fn rectangle(files: usize, ranks: usize, uppercase: bool) -> Board {
        assert!(files <= 26 && files * ranks <= u16::MAX as usize);
        let mut cells = Vec::with_capacity(files * ranks);
        for rank in 0..ranks {
            for file in 0..files {
                let letter = (b'a' + file as u8) as char;
                let letter = if uppercase {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                cells.push(CellInfo {
                    name: format!("{letter}{}", rank + 1),
                    x: file as f32,
                    y: (ranks - 1 - rank) as f32,
                    shape: Shape::Square,
                    classes: Vec::new(),
                });
            }
        }
        let directions = SQUARE_DIRECTIONS
            .iter()
            .map(|&(name, _, _)| Direction { name })
            .collect::<Vec<_>>();
        let mut neighbours = Vec::with_capacity(cells.len() * directions.len());
        for rank in 0..ranks as i32 {
            for file in 0..files as i32 {
                for &(_, df, dr) in &SQUARE_DIRECTIONS {
                    let (f, r) = (file + df, rank + dr);
                    neighbours.push(
                        (f >= 0 && r >= 0 && f < files as i32 && r < ranks as i32)
                            .then(|| Cell((f + r * files as i32) as u16)),
                    );
                }
            }
        }
        // The far rank first, each from file a.
        let position_rows = (0..ranks)
            .rev()
            .map(|rank| {
                (0..files)
                    .map(|file| Cell((file + rank * files) as u16))
                    .collect()
            })
            .collect();
        Board(Arc::new(BoardData {
            cells,
            directions,
            neighbours,
            lines: Vec::new(),
            width: files as f32,
            height: ranks as f32,
            legend: Legend::default(),
            marks: Vec::new(),
            numbers: Vec::new(),
            position_rows,
        }))
    }

    /// A board from explicit parts. `neighbours` holds, for each cell, one entry per direction.
    ///
    /// # Panics
    /// If the neighbour table does not have `cells * directions` entries or names a cell that
    /// does not exist (a programming error in a board definition).
    pub fn from_parts(
        cells: Vec<CellInfo>,
        directions: Vec<Direction>,
        neighbours: Vec<Option<Cell>>,
        lines: Vec<(Cell, Cell)>,
    ) -> Board {
        assert_eq!(neighbours.len(), cells.len() * directions.len());
        assert!(neighbours.iter().flatten().all(|c| c.index() < cells.len()));
        let width = cells.iter().map(|c| c.x).fold(0.0, f32::max) + 1.0;
        let height = cells.iter().map(|c| c.y).fold(0.0, f32::max) + 1.0;
        Board(Arc::new(BoardData {
            cells,
            directions,
            neighbours,
            lines,
            width,
            height,
            legend: Legend::default(),
            marks: Vec::new(),
            numbers: Vec::new(),
            position_rows: Vec::new(),
        }))
    }

    /// The board with the order in which position strings write its cells (see
    /// [`Board::position_rows`]); a board from parts has none until it is given one.
    ///
    /// # Panics
    /// If a row names a cell that does not exist (a programming error in a board definition).
    pub fn with_position_rows(mut self, rows: Vec<Vec<Cell>>) -> Board {
        assert!(rows
            .iter()
            .flatten()
            .all(|c| c.index() < self.0.cells.len()));
        Arc::make_mut(&mut self.0).position_rows = rows;
        self
    }

    /// The cells in the order position strings write them: the rows, the first written first,
    /// each from left to right. Every cell of a rectangular board is in it, by rank from the
    /// far side.
    pub fn position_rows(&self) -> &[Vec<Cell>] {
        &self.0.position_rows
    }

    /// Paints the squares of a rectangular board dark and light as on a chequered board: `a1`
    /// is dark if `a1_dark`, else light (as on Scandinavian boards).
    pub fn checkered(mut self, a1_dark: bool) -> Board {
        for id in 0..self.0.cells.len() {
            let cell = &self.0.cells[id];
            let (file, y) = (cell.x as i64, cell.y as i64);
            let rank = self.0.height as i64 - 1 - y;
            let dark = ((file + rank) % 2 == 0) == a1_dark;
            let style = if dark {
                CellStyle::DARK
            } else {
                CellStyle::LIGHT
            };
            self.paint(Cell(id as u16), style);
        }
        self
    }

    /// Gives a cell a style: the cell carries its class and the legend explains it.
    pub fn paint(&mut self, cell: Cell, style: CellStyle) {
        let data = Arc::make_mut(&mut self.0);
        data.cells[cell.index()].classes.push(style.class);
        data.legend.add(style);
    }

    /// The board with its pieces named in the legend.
    pub fn with_pieces(mut self, pieces: &[PieceStyle]) -> Board {
        Arc::make_mut(&mut self.0).legend.pieces = pieces.to_vec();
        self
    }

    /// The board of a game whose first player's pieces are the dark ones (English checkers,
    /// where Black moves first): pictures draw White's pieces, in the rules' sense, dark.
    pub fn with_first_player_dark(mut self) -> Board {
        Arc::make_mut(&mut self.0).legend.first_player_dark = true;
        self
    }

    /// The board of a game whose cells can leave play; `words` say what such a cell stands for
    /// (`no tile`).
    pub fn with_absent_cells(mut self, words: &'static str) -> Board {
        Arc::make_mut(&mut self.0).legend.absent = Some(words);
        self
    }

    /// Prints a marking on a cell (see [`Mark`]).
    pub fn mark(&mut self, cell: Cell, points: Vec<(f32, f32)>) {
        Arc::make_mut(&mut self.0).marks.push(Mark { cell, points });
    }

    /// The markings printed on the cells.
    pub fn marks(&self) -> &[Mark] {
        &self.0.marks
    }

    /// The board with cells numbered as players number them (draughts' squares 1 to 50), which
    /// a drawing may write on them. Cells not listed have no number.
    pub fn with_numbers(mut self, numbers: impl IntoIterator<Item = (Cell, u16)>) -> Board {
        let data = Arc::make_mut(&mut self.0);
        data.numbers = vec![None; data.cells.len()];
        for (cell, number) in numbers {
            if let Some(slot) = data.numbers.get_mut(cell.index()) {
                *slot = Some(number);
            }
        }
        self
    }

    /// A cell's number, if the board numbers its cells (see [`Board::with_numbers`]).
    pub fn number(&self, cell: Cell) -> Option<u16> {
        self.0.numbers.get(cell.index()).copied().flatten()
    }

    /// How the cells and pieces look.
    pub fn legend(&self) -> &Legend {
        &self.0.legend
    }

    /// The style of a cell.
    pub fn style(&self, cell: Cell) -> &CellStyle {
        self.0.legend.style(&self.0.cells[cell.index()].classes)
    }

    pub fn len(&self) -> usize {
        self.0.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.cells.is_empty()
    }

    pub fn cells(&self) -> &[CellInfo] {
        &self.0.cells
    }

    pub fn cell_ids(&self) -> impl Iterator<Item = Cell> {
        (0..self.0.cells.len() as u16).map(Cell)
    }

    pub fn info(&self, cell: Cell) -> &CellInfo {
        &self.0.cells[cell.index()]
    }

    pub fn name(&self, cell: Cell) -> &str {
        &self.0.cells[cell.index()].name
    }

    /// Looks a cell up by name, ignoring case.
    pub fn cell_by_name(&self, name: &str) -> Option<Cell> {
        self.0
            .cells
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| Cell(i as u16))
    }

    pub fn directions(&self) -> &[Direction] {
        &self.0.directions
    }

    /// The neighbour of `cell` in direction number `dir`.
    #[inline]
    pub fn neighbour(&self, cell: Cell, dir: usize) -> Option<Cell> {
        self.0.neighbours[cell.index() * self.0.directions.len() + dir]
    }

    /// The cells from `cell` (excluded) outwards in direction `dir` up to the edge.
    pub fn ray(&self, cell: Cell, dir: usize) -> Ray<'_> {
        Ray {
            board: self,
            at: cell,
            dir,
        }
    }

    /// Labels beside the rows: for each row of cells (the same `y`), the part of the name its
    /// cells share (`3` on a square board, `c` on the Sjekkers board), if they share one.
    pub fn row_labels(&self) -> Vec<EdgeLabel> {
        self.edge_labels(|c| c.y)
    }

    /// Labels under the columns: for each column of cells (the same `x`), the part of the name
    /// its cells share (`c` on a square board), if they share one.
    pub fn column_labels(&self) -> Vec<EdgeLabel> {
        self.edge_labels(|c| c.x)
    }

    fn edge_labels(&self, key: impl Fn(&CellInfo) -> f32) -> Vec<EdgeLabel> {
        let mut groups: Vec<(f32, Vec<&CellInfo>)> = Vec::new();
        for cell in &self.0.cells {
            let at = key(cell);
            match groups.iter_mut().find(|(k, _)| (*k - at).abs() < 1e-3) {
                Some((_, group)) => group.push(cell),
                None => groups.push((at, vec![cell])),
            }
        }
        groups.sort_by(|a, b| a.0.total_cmp(&b.0));
        groups
            .into_iter()
            .filter_map(|(at, group)| {
                if group.len() < 2 {
                    return None;
                }
                let shared = |digits: bool| {
                    let part = |c: &CellInfo| {
                        let (letters, numbers) = c.name_parts();
                        if digits {
                            numbers.to_string()
                        } else {
                            letters.to_string()
                        }
                    };
                    let first = part(group[0]);
                    (!first.is_empty() && group.iter().all(|&c| part(c) == first)).then_some(first)
                };
                let text = shared(false).or_else(|| shared(true))?;
                Some(EdgeLabel { at, text })
            })
            .collect()
    }

    pub fn lines(&self) -> &[(Cell, Cell)] {
        &self.0.lines
    }

    /// Width and height of the drawing, in cell units.
    pub fn extent(&self) -> (f32, f32) {
        (self.0.width, self.0.height)
    }
}

/// Iterator over the cells of a ray; see [`Board::ray`].
#[derive(Clone, Debug)]
pub struct Ray<'a> {
    board: &'a Board,
    at: Cell,
    dir: usize,
}

impl Iterator for Ray<'_> {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        let next = self.board.neighbour(self.at, self.dir)?;
        self.at = next;
        Some(next)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_names_and_neighbours() {
        let b = Board::rectangle(7, 7, false);
        assert_eq!(b.len(), 49);
        let d4 = b.cell_by_name("d4").unwrap();
        assert_eq!(b.name(d4), "d4");
        assert_eq!(b.cell_by_name("D4"), Some(d4));
        assert_eq!(b.name(b.neighbour(d4, 0).unwrap()), "d5");
        assert_eq!(b.name(b.neighbour(d4, 1).unwrap()), "e5");
        assert_eq!(b.name(b.neighbour(d4, 5).unwrap()), "c3");
        let a1 = b.cell_by_name("a1").unwrap();
        assert_eq!(b.neighbour(a1, 4), None);
        let ray: Vec<_> = b.ray(a1, 1).map(|c| b.name(c).to_string()).collect();
        assert_eq!(ray, ["b2", "c3", "d4", "e5", "f6", "g7"]);
        assert_eq!(b.cell_by_name("h1"), None);
        assert_eq!(b.info(a1).y, 6.0);
    }

    #[test]
    fn checkered_parity() {
        let international = Board::rectangle(10, 10, false).checkered(true);
        let a1 = international.cell_by_name("a1").unwrap();
        assert!(international.info(a1).classes.contains(&"dark"));
        let scandinavian = Board::rectangle(10, 10, false).checkered(false);
        assert!(scandinavian.info(a1).classes.contains(&"light"));
        let j1 = scandinavian.cell_by_name("j1").unwrap();
        assert!(scandinavian.info(j1).classes.contains(&"dark"));
    }

    #[test]
    fn edge_labels_of_a_square_board() {
        let b = Board::rectangle(3, 2, false);
        let rows: Vec<_> = b.row_labels().into_iter().map(|l| (l.at, l.text)).collect();
        assert_eq!(rows, [(0.0, "2".to_string()), (1.0, "1".to_string())]);
        let columns: Vec<_> = b.column_labels().into_iter().map(|l| l.text).collect();
        assert_eq!(columns, ["a", "b", "c"]);
    }

    #[test]
    fn uppercase_names() {
        let b = Board::rectangle(12, 12, true);
        assert_eq!(b.name(Cell(143)), "L12");
        assert_eq!(b.cell_by_name("l12"), Some(Cell(143)));
    }
}
