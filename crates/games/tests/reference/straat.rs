//! Straat, from `straat.md` and the shared rulings (`tests/reference/rulings-straat.md`).
//!
//! Plain data throughout: a board is 16 optional tiles; for scoring, each side of the frame
//! (front, back) is turned into an explicit list of pieces (quarter-cells or triangles), each with
//! its colour, the sides of the frame it has an edge on and its edge neighbours, and the streets
//! are counted by a flood fill over that list.

use super::{result_text, Side};

/// "A transparent 4x4 frame" (straat.md "Equipment").
pub const SIZE: i32 = 4;

/// The four sides of a cell or of the frame, in clockwise order from north. A tile's
/// orientation letter names one of them (rulings "Tiles and orientations").
pub const SIDES: [char; 4] = ['n', 'e', 's', 'w'];

/// The side after `side`, clockwise (n -> e -> s -> w -> n).
pub fn clockwise(side: char) -> char {
    let index = SIDES
        .iter()
        .position(|&s| s == side)
        .expect("a side letter");
    SIDES[(index + 1) % 4]
}

/// The side across the cell from `side` (n <-> s, e <-> w).
pub fn opposite(side: char) -> char {
    clockwise(clockwise(side))
}

/// The options of the three rulesets (rulings, first lines).
#[derive(Clone, Copy, Debug)]
pub struct Straat {
    /// `straat-diagonal`: "the split runs corner to corner (two triangles)".
    pub diagonal: bool,
    /// `straat-flip`: "a player may also lay a tile solid face up".
    pub flip: bool,
}

/// One placed tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// "White owns the 8 solid-white tiles, Black the 8 solid-black" (straat.md "Equipment");
    /// the solid face is its owner's colour (rulings "Tiles and orientations").
    pub owner: Side,
    /// `n`, `e`, `s` or `w`, always named as seen from the front (rulings "Tiles and
    /// orientations").
    pub orientation: char,
    /// Solid face up (front shows the solid colour, back the half/half face); `flip` only.
    pub solid_up: bool,
}

/// A colour of the faces. Each player's colour is the colour of their solid faces, so the
/// colours are named after the players: `Side::White` is white, `Side::Black` black.
pub type Colour = Side;

/// Sixteen cells, `tiles[rank * 4 + file]` (a1 is index 0, d1 index 3, a2 index 4), and the side
/// to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub tiles: Vec<Option<Tile>>,
    pub to_move: Side,
}

/// The name of a cell, `a1`..`d4` (rulings "Cells and coordinates").
pub fn cell_name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Board {
    pub fn tile(&self, file: i32, rank: i32) -> Option<Tile> {
        self.tiles[(rank * SIZE + file) as usize]
    }

    /// How many tiles a player has placed.
    pub fn count(&self, owner: Side) -> usize {
        self.tiles
            .iter()
            .filter(|tile| matches!(tile, Some(t) if t.owner == owner))
            .count()
    }

    pub fn is_full(&self) -> bool {
        self.tiles.iter().all(|tile| tile.is_some())
    }
}

/// "Start: `4/4/4/4 w`" (straat.md "Position string"): empty frame, White to move.
pub fn start() -> Board {
    Board {
        tiles: vec![None; (SIZE * SIZE) as usize],
        to_move: Side::White,
    }
}

/// The position string (README "Position string", straat.md "Position string"): rows from rank
/// 4 down to rank 1, runs of empty cells as numbers, a tile as its orientation letter (uppercase
/// for White's tile), followed by `*` when it lies solid face up.
pub fn print(board: &Board) -> String {
    let mut rows = Vec::new();
    for rank in (0..SIZE).rev() {
        let mut row = String::new();
        let mut run = 0;
        for file in 0..SIZE {
            match board.tile(file, rank) {
                None => run += 1,
                Some(tile) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    let letter = match tile.owner {
                        Side::White => tile.orientation.to_ascii_uppercase(),
                        Side::Black => tile.orientation,
                    };
                    row.push(letter);
                    if tile.solid_up {
                        row.push('*');
                    }
                }
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    let side = match board.to_move {
        Side::White => "w",
        Side::Black => "b",
    };
    format!("{} {side}", rows.join("/"))
}

impl Straat {
    /// Reads a position string. Refused: a `*` outside `straat-flip` or not after a tile, unknown
    /// letters, rows of the wrong length, and impossible tile counts (rulings "Moves": "White to
    /// move needs equal counts, Black to move needs White one ahead").
    pub fn parse(&self, text: &str) -> Result<Board, String> {
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
        if rows.len() != SIZE as usize {
            return Err(format!(
                "position {text:?}: {} rows, expected {SIZE}",
                rows.len()
            ));
        }
        let mut board = start();
        board.to_move = to_move;
        for (index, row) in rows.iter().enumerate() {
            // The first row written is rank 4.
            let rank = SIZE - 1 - index as i32;
            let mut file = 0;
            let mut run = String::new();
            // The cell of the last tile read, while a `*` may still follow it.
            let mut last_tile: Option<usize> = None;
            for c in row.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    run.push(c);
                    last_tile = None;
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
                if c == '*' {
                    if !self.flip {
                        return Err(format!(
                            "position {text:?}: `*` (solid face up) exists only in straat-flip"
                        ));
                    }
                    let Some(index) = last_tile.take() else {
                        return Err(format!("position {text:?}: `*` not after a tile"));
                    };
                    if let Some(tile) = board.tiles[index].as_mut() {
                        tile.solid_up = true;
                    }
                    continue;
                }
                let lower = c.to_ascii_lowercase();
                if !SIDES.contains(&lower) {
                    return Err(format!("position {text:?}: unknown tile letter {c:?}"));
                }
                if file >= SIZE {
                    return Err(format!("position {text:?}: row {row:?} is too long"));
                }
                let owner = if c.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                };
                let index = (rank * SIZE + file) as usize;
                board.tiles[index] = Some(Tile {
                    owner,
                    orientation: lower,
                    solid_up: false,
                });
                last_tile = Some(index);
                file += 1;
            }
            if file != SIZE {
                return Err(format!(
                    "position {text:?}: row {row:?} has {file} cells, expected {SIZE}"
                ));
            }
        }
        // Rulings "Moves": each player has 8 tiles, White places first, players alternate.
        let white = board.count(Side::White);
        let black = board.count(Side::Black);
        let possible = match to_move {
            Side::White => white == black,
            Side::Black => white == black + 1,
        };
        if !possible {
            return Err(format!(
                "position {text:?}: {white} White and {black} Black tiles are impossible with {} to move",
                parts[1]
            ));
        }
        Ok(board)
    }

    /// Every legal move with the position after it (rulings "Moves"): one of the mover's tiles on
    /// any empty cell, in each of the 4 orientations, and in `flip` also solid face up (`*`).
    /// None once all 16 cells are full; never a pass.
    pub fn successors(&self, board: &Board) -> Vec<(String, Board)> {
        let mut moves = Vec::new();
        if board.is_full() {
            return moves;
        }
        let faces: &[bool] = if self.flip { &[false, true] } else { &[false] };
        for rank in 0..SIZE {
            for file in 0..SIZE {
                if board.tile(file, rank).is_some() {
                    continue;
                }
                for orientation in SIDES {
                    for &solid_up in faces {
                        let mut after = board.clone();
                        after.tiles[(rank * SIZE + file) as usize] = Some(Tile {
                            owner: board.to_move,
                            orientation,
                            solid_up,
                        });
                        after.to_move = board.to_move.other();
                        let mut text = format!("{}{orientation}", cell_name(file, rank));
                        if solid_up {
                            text.push('*');
                        }
                        moves.push((text, after));
                    }
                }
            }
        }
        moves
    }

    /// Perft (README "Conventions"): move sequences of the given length.
    pub fn perft(&self, board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let next = self.successors(board);
        if depth == 1 {
            return next.len() as u64;
        }
        next.iter()
            .map(|(_, after)| self.perft(after, depth - 1))
            .sum()
    }

    /// The pieces the FRONT is made of (rulings "Streets"): quarter-cells for the straight
    /// split, triangles for the diagonal split.
    pub fn front_pieces(&self, board: &Board) -> Vec<Piece> {
        if self.diagonal {
            triangle_grid(&|file, rank, triangle| {
                let tile = board.tile(file, rank)?;
                Some(if tile.solid_up {
                    tile.owner
                } else {
                    triangle_colour(tile.orientation, triangle)
                })
            })
        } else {
            quarter_grid(&|file, rank, right, top| {
                let tile = board.tile(file, rank)?;
                // A solid-face-up tile is four quarters of its solid colour.
                Some(if tile.solid_up {
                    tile.owner
                } else {
                    quarter_colour(tile.orientation, right, top)
                })
            })
        }
    }

    /// The pieces the BACK is made of (rulings "Streets", "Back"): each cell one square of its
    /// solid colour, counted as four equal quarter-cells; a solid-face-up tile shows its half/half
    /// face there, named as seen from the front. Mirroring does not change connectivity, so the
    /// back is kept in front coordinates.
    pub fn back_pieces(&self, board: &Board) -> Vec<Piece> {
        quarter_grid(&|file, rank, right, top| {
            let tile = board.tile(file, rank)?;
            Some(if tile.solid_up {
                // Only `straat-flip` has solid-up tiles, and its split is straight.
                quarter_colour(tile.orientation, right, top)
            } else {
                tile.owner
            })
        })
    }

    /// (white front, white back, black front, black back) streets, for a full or a partly filled
    /// board (rulings "Streets": empty cells belong to no region).
    pub fn scores(&self, board: &Board) -> (u32, u32, u32, u32) {
        let front = self.front_pieces(board);
        let back = self.back_pieces(board);
        (
            streets(&front, Side::White),
            streets(&back, Side::White),
            streets(&front, Side::Black),
            streets(&back, Side::Black),
        )
    }

    /// `None` while a cell is empty (rulings "Streets": "the game ends only when all 16 cells are
    /// full"); else the result and ` W-B`: each player's own-colour streets, front plus back.
    /// "Higher wins; equal is a draw."
    pub fn outcome(&self, board: &Board) -> Option<String> {
        if !board.is_full() {
            return None;
        }
        let (white_front, white_back, black_front, black_back) = self.scores(board);
        let white = white_front + white_back;
        let black = black_front + black_back;
        let winner = if white > black {
            Some(Side::White)
        } else if black > white {
            Some(Side::Black)
        } else {
            None
        };
        Some(format!("{} {white}-{black}", result_text(winner)))
    }
}

/// The colour of a quarter-cell of a straight-split half/half face (rulings "Tiles and
/// orientations": "orientation `n` has its black half on the north side of the cell (its two
/// northern quarter-cells black, the two southern white); `e`, `s`, `w` likewise").
/// `right`: the eastern column of the cell; `top`: the northern row.
pub fn quarter_colour(orientation: char, right: bool, top: bool) -> Colour {
    let black = match orientation {
        'n' => top,
        's' => !top,
        'e' => right,
        'w' => !right,
        other => panic!("not an orientation: {other:?}"),
    };
    if black {
        Side::Black
    } else {
        Side::White
    }
}

/// The colour of a triangle (`n`, `e`, `s`, `w`: the triangle with its outer edge on that side)
/// of a diagonal-split half/half face (rulings: "Orientation `n` means ... the N and E triangles
/// are black, S and W white. `e`: E and S black; `s`: S and W black; `w`: W and N black").
pub fn triangle_colour(orientation: char, triangle: char) -> Colour {
    if triangle == orientation || triangle == clockwise(orientation) {
        Side::Black
    } else {
        Side::White
    }
}

/// One piece of a side of the frame: a quarter-cell or a triangle.
#[derive(Clone, Debug)]
pub struct Piece {
    /// `None` on an empty cell: "empty cells belong to no region".
    pub colour: Option<Colour>,
    /// The sides of the frame (`n`, `e`, `s`, `w`) this piece has an edge on.
    pub touches: Vec<char>,
    /// The pieces it shares an edge with.
    pub neighbours: Vec<usize>,
}

/// The 8x8 quarter-cell grid (rulings "Streets"): quarter (x, y), x = 2 * file + (1 if in the
/// eastern column of its cell), y = 2 * rank + (1 if in the northern row). Neighbours: the four
/// quarters sharing an edge. A quarter in the top row has its north edge on the frame, and so on.
/// `colour(file, rank, right, top)` gives each quarter's colour.
pub fn quarter_grid(colour: &dyn Fn(i32, i32, bool, bool) -> Option<Colour>) -> Vec<Piece> {
    let width = 2 * SIZE;
    let index = |x: i32, y: i32| (y * width + x) as usize;
    let mut pieces = Vec::new();
    for y in 0..width {
        for x in 0..width {
            let mut touches = Vec::new();
            if y == width - 1 {
                touches.push('n');
            }
            if x == width - 1 {
                touches.push('e');
            }
            if y == 0 {
                touches.push('s');
            }
            if x == 0 {
                touches.push('w');
            }
            let mut neighbours = Vec::new();
            for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let (nx, ny) = (x + dx, y + dy);
                if (0..width).contains(&nx) && (0..width).contains(&ny) {
                    neighbours.push(index(nx, ny));
                }
            }
            pieces.push(Piece {
                colour: colour(x / 2, y / 2, x % 2 == 1, y % 2 == 1),
                touches,
                neighbours,
            });
        }
    }
    pieces
}

/// The 64-triangle grid (rulings "Streets", diagonal split): piece `(rank * 4 + file) * 4 + t`,
/// t the index of the triangle's side in [`SIDES`]. "Triangle X of a cell shares an edge with
/// the two neighbouring triangles of the same cell (N with E and W, E with N and S, ...) and with
/// the opposite triangle of the neighbouring cell in direction X." "A triangle touches only the
/// side of its outer edge" (and only when its cell is on that side of the frame: a triangle
/// meeting a side only at a frame corner does not touch it).
pub fn triangle_grid(colour: &dyn Fn(i32, i32, char) -> Option<Colour>) -> Vec<Piece> {
    let index = |file: i32, rank: i32, side: char| {
        let t = SIDES.iter().position(|&s| s == side).expect("a side");
        ((rank * SIZE + file) * 4) as usize + t
    };
    let step = |side: char| match side {
        'n' => (0, 1),
        'e' => (1, 0),
        's' => (0, -1),
        _ => (-1, 0),
    };
    let mut pieces = Vec::new();
    for rank in 0..SIZE {
        for file in 0..SIZE {
            for side in SIDES {
                let mut neighbours = vec![
                    index(file, rank, clockwise(side)),
                    index(file, rank, opposite(clockwise(side))),
                ];
                let (df, dr) = step(side);
                let (nf, nr) = (file + df, rank + dr);
                let mut touches = Vec::new();
                if (0..SIZE).contains(&nf) && (0..SIZE).contains(&nr) {
                    neighbours.push(index(nf, nr, opposite(side)));
                } else {
                    // The outer edge of this triangle lies on the frame.
                    touches.push(side);
                }
                pieces.push(Piece {
                    colour: colour(file, rank, side),
                    touches,
                    neighbours,
                });
            }
        }
    }
    pieces
}

/// The streets of one colour over a list of pieces (straat.md "Scoring", rulings "Streets"):
/// regions are maximal sets of pieces of that colour joined through shared edges (found by a
/// flood fill); each region counts 1 if it touches both north and south, plus 1 if it touches
/// both west and east.
pub fn streets(pieces: &[Piece], colour: Colour) -> u32 {
    let mut seen = vec![false; pieces.len()];
    let mut total = 0;
    for start in 0..pieces.len() {
        if seen[start] || pieces[start].colour != Some(colour) {
            continue;
        }
        // Flood fill from `start`, collecting the sides of the frame the region touches.
        let mut touched: Vec<char> = Vec::new();
        let mut waiting = vec![start];
        seen[start] = true;
        while let Some(at) = waiting.pop() {
            touched.extend(pieces[at].touches.iter().copied());
            for &next in &pieces[at].neighbours {
                if !seen[next] && pieces[next].colour == Some(colour) {
                    seen[next] = true;
                    waiting.push(next);
                }
            }
        }
        if touched.contains(&'n') && touched.contains(&'s') {
            total += 1;
        }
        if touched.contains(&'w') && touched.contains(&'e') {
            total += 1;
        }
    }
    total
}
