//! The two sides of a board and the regions a game points out on them. A game played on a
//! transparent board with two-faced pieces (Straat) is seen from the front during play and from
//! the back once turned over; at the end it may point out regions (Straat's streets) on either
//! side. Renderers draw both without knowing the game.

use crate::Player;

/// A side of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side seen during play.
    Front,
    /// The other side of a transparent board, seen once it is turned over about its vertical
    /// axis: a mirror image of the front, left and right exchanged. Views and highlights of the
    /// back are given in front coordinates (each piece on the cell it lies on, as named from the
    /// front); renderers mirror the picture.
    Back,
}

impl Side {
    /// Both sides, front first.
    pub const BOTH: [Side; 2] = [Side::Front, Side::Back];

    /// `front` or `back`, as the JSON the browser reads names it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Front => "front",
            Side::Back => "back",
        }
    }
}

/// A region a game points out on one side of the board: a street of Straat.
#[derive(Clone, Debug, PartialEq)]
pub struct Highlight {
    pub side: Side,
    /// The player whose colour the region is (renderers draw it in that player's highlight
    /// colour).
    pub owner: Player,
    /// What the region is, for a tooltip: `White's street, north to south`.
    pub label: String,
    /// What the region counts for (Straat: 1, or 2 for a street joining both pairs of sides).
    pub value: u32,
    /// The region as polygons that tile it without overlapping, parts that touch sharing whole
    /// edges. Points are in the board's drawing coordinates: cell units, y growing downwards;
    /// the square cell whose [`crate::CellInfo`] says `(x, y)` spans `x..x + 1`, `y..y + 1`.
    pub parts: Vec<Vec<(f32, f32)>>,
}

impl Highlight {
    /// The region's outline: the edges of its parts that no other part shares, as segments.
    ///
    /// ```
    /// use denkmeter_core::{Highlight, Player, Side};
    ///
    /// let square = |x: f32| vec![(x, 0.0), (x + 1.0, 0.0), (x + 1.0, 1.0), (x, 1.0)];
    /// let two = Highlight {
    ///     side: Side::Front,
    ///     owner: Player::White,
    ///     label: "two cells".into(),
    ///     value: 1,
    ///     parts: vec![square(0.0), square(1.0)],
    /// };
    /// assert_eq!(two.outline().len(), 6, "the shared edge is not part of the outline");
    /// ```
    pub fn outline(&self) -> Vec<[(f32, f32); 2]> {
        // Coordinates are halves and quarters of cells in practice: thousandths tell them apart.
        let key = |(x, y): (f32, f32)| ((x * 1000.0).round() as i64, (y * 1000.0).round() as i64);
        let mut edges = std::collections::BTreeMap::new();
        for part in &self.parts {
            for (i, &a) in part.iter().enumerate() {
                let b = part[(i + 1) % part.len()];
                let (ka, kb) = (key(a), key(b));
                if ka == kb {
                    continue;
                }
                let ends = if ka < kb { (ka, kb) } else { (kb, ka) };
                // An edge met a second time is shared by two parts: inside the region.
                if edges.remove(&ends).is_none() {
                    edges.insert(ends, [a, b]);
                }
            }
        }
        edges.into_values().collect()
    }
}
