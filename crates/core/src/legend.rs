//! How a board looks, as data: the styles of its cells and pieces and the colours they share.
//! The SVG renderer, the terminal drawing and the browser all read a board's [`Legend`], so a
//! game says once how its castles or tiles look and no renderer names a game.

use crate::colour::Rgba;
use crate::Player;

/// How one kind of cell is drawn: its colour in pictures, its character in text drawings, and
/// the words that explain it in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellStyle {
    /// The drawing class the cells of this kind carry (see [`crate::CellInfo::classes`]).
    pub class: &'static str,
    /// The fill colour, as CSS and SVG read it.
    pub fill: &'static str,
    /// The character of an empty cell in a text drawing.
    pub glyph: char,
    /// What the cell is, for a key: `White's castle`.
    pub words: &'static str,
}

impl CellStyle {
    /// A plain square: every cell that carries no other style.
    pub const PLAIN: CellStyle = CellStyle {
        class: "plain",
        fill: "#f3e6c8",
        glyph: '.',
        words: "square",
    };
    /// The dark squares of a chequered board (where draughts are played).
    pub const DARK: CellStyle = CellStyle {
        class: "dark",
        fill: "#8b5a2b",
        glyph: '.',
        words: "dark square",
    };
    /// The light squares of a chequered board.
    pub const LIGHT: CellStyle = CellStyle {
        class: "light",
        fill: "#f3e6c8",
        glyph: ' ',
        words: "light square",
    };
}

/// How a piece is drawn: a shape a player can tell apart at a glance, bearing the piece's letter,
/// or a tile covering its cell. Every shape but [`PieceShape::Stone`] and
/// [`PieceShape::SplitTile`] is filled in its owner's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceShape {
    /// A disc: men, pawns, the common piece.
    Disc,
    /// A disc with a second ring inside it: a promoted piece.
    Crowned,
    /// Two discs, one on the other, seen from above and a little in front: a draughts king
    /// made of two men, a Sjek.
    Stacked,
    /// A square standing on its side.
    Square,
    /// A square standing on a corner.
    Diamond,
    /// A triangle pointing away from its owner.
    Triangle,
    /// An eight-pointed star: a leading piece.
    Star,
    /// A rough grey stone that belongs to nobody (its owner in a view is ignored).
    Stone,
    /// A tile covering its whole cell in its owner's colour, without a letter (the solid face
    /// of a Straat tile).
    Tile,
    /// A tile covering its whole cell, split through its centre into the two players' colours:
    /// Black's on the half towards the given side or corner, White's on the other. Every such
    /// tile shows both colours, so a small disc in its owner's colour at its centre says whose
    /// it is; it bears no letter (the half/half face of a Straat tile).
    SplitTile(Towards),
}

/// Where the dark (Black's) half of a [`PieceShape::SplitTile`] lies: one of the eight points
/// of the compass, clockwise from north (the top of the drawing). Towards a side the tile is
/// split straight across into two rectangles; towards a corner it is split from corner to
/// corner into two triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Towards {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Towards {
    /// Every point of the compass, clockwise from north.
    pub const ALL: [Towards; 8] = [
        Towards::North,
        Towards::NorthEast,
        Towards::East,
        Towards::SouthEast,
        Towards::South,
        Towards::SouthWest,
        Towards::West,
        Towards::NorthWest,
    ];

    /// The dark half of a tile that fills its cell, as a polygon around the cell's centre in
    /// cell units with y growing downwards (the cell's corners are at +-0.5): a rectangle
    /// towards a side, a triangle towards a corner.
    pub fn half(self) -> &'static [(f32, f32)] {
        const H: f32 = 0.5;
        match self {
            Towards::North => &[(-H, -H), (H, -H), (H, 0.0), (-H, 0.0)],
            Towards::East => &[(0.0, -H), (H, -H), (H, H), (0.0, H)],
            Towards::South => &[(-H, 0.0), (H, 0.0), (H, H), (-H, H)],
            Towards::West => &[(-H, -H), (0.0, -H), (0.0, H), (-H, H)],
            Towards::NorthEast => &[(-H, -H), (H, -H), (H, H)],
            Towards::SouthEast => &[(H, -H), (H, H), (-H, H)],
            Towards::SouthWest => &[(H, H), (-H, H), (-H, -H)],
            Towards::NorthWest => &[(-H, H), (-H, -H), (H, -H)],
        }
    }
}

impl PieceShape {
    /// Every shape, in the order of the enum (split tiles by one split, towards north).
    pub const ALL: [PieceShape; 10] = [
        PieceShape::Disc,
        PieceShape::Crowned,
        PieceShape::Stacked,
        PieceShape::Square,
        PieceShape::Diamond,
        PieceShape::Triangle,
        PieceShape::Star,
        PieceShape::Stone,
        PieceShape::Tile,
        PieceShape::SplitTile(Towards::North),
    ];

    /// The shape's name in the JSON the browser reads.
    pub fn name(self) -> &'static str {
        match self {
            PieceShape::Disc => "disc",
            PieceShape::Crowned => "crowned",
            PieceShape::Stacked => "stacked",
            PieceShape::Square => "square",
            PieceShape::Diamond => "diamond",
            PieceShape::Triangle => "triangle",
            PieceShape::Star => "star",
            PieceShape::Stone => "stone",
            PieceShape::Tile => "tile",
            PieceShape::SplitTile(_) => "split-tile",
        }
    }

    /// The outline as a polygon around the piece's centre, in units of the piece's radius with
    /// y growing downwards (towards White's side), or `None` for the round shapes and the
    /// tiles (which fill their cell, see [`PieceShape::fills_cell`]). Renderers turn a triangle
    /// of Black's upside down, so that it points away from its owner.
    pub fn outline(self) -> Option<&'static [(f32, f32)]> {
        match self {
            PieceShape::Disc | PieceShape::Crowned | PieceShape::Stacked => None,
            PieceShape::Tile | PieceShape::SplitTile(_) => None,
            PieceShape::Square => {
                Some(&[(-0.82, -0.82), (0.82, -0.82), (0.82, 0.82), (-0.82, 0.82)])
            }
            PieceShape::Diamond => Some(&[(0.0, -1.1), (1.1, 0.0), (0.0, 1.1), (-1.1, 0.0)]),
            PieceShape::Triangle => Some(&[(0.0, -1.1), (1.05, 0.85), (-1.05, 0.85)]),
            PieceShape::Star => Some(STAR.as_slice()),
            PieceShape::Stone => Some(STONE.as_slice()),
        }
    }

    /// Whether the piece belongs to nobody and is drawn in the palette's stone colours.
    pub fn is_neutral(self) -> bool {
        self == PieceShape::Stone
    }

    /// Whether the piece is a tile covering its whole cell, drawn as part of the board's
    /// picture: it turns and mirrors with the board, and carries no letter.
    pub fn fills_cell(self) -> bool {
        matches!(self, PieceShape::Tile | PieceShape::SplitTile(_))
    }

    /// For a split tile, its dark (Black's) half as a polygon around the cell's centre in cell
    /// units, y down (see [`Towards::half`]); the rest of the tile is White's colour.
    pub fn dark_half(self) -> Option<&'static [(f32, f32)]> {
        match self {
            PieceShape::SplitTile(towards) => Some(towards.half()),
            _ => None,
        }
    }
}

/// How much of its cell a tile covers in a drawing, as a fraction of the cell's side: the gap
/// left between neighbouring tiles shows the frame.
pub const TILE_SCALE: f32 = 0.92;

const STAR: [(f32, f32); 16] = [
    (0.000, -1.000),
    (0.237, -0.573),
    (0.707, -0.707),
    (0.573, -0.237),
    (1.000, 0.000),
    (0.573, 0.237),
    (0.707, 0.707),
    (0.237, 0.573),
    (0.000, 1.000),
    (-0.237, 0.573),
    (-0.707, 0.707),
    (-0.573, 0.237),
    (-1.000, 0.000),
    (-0.573, -0.237),
    (-0.707, -0.707),
    (-0.237, -0.573),
];
const STONE: [(f32, f32); 8] = [
    (0.189, -0.931),
    (0.683, -0.453),
    (0.951, 0.193),
    (0.475, 0.717),
    (-0.185, 0.911),
    (-0.667, 0.442),
    (-0.941, -0.191),
    (-0.470, -0.708),
];

/// What a piece bears on its face, in its owner's ink: a figure a player knows it by, its
/// letter, or nothing where the shape says it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emblem {
    /// Nothing: a plain man, a shape that is the piece's name.
    Plain,
    /// The piece's letter (for a piece no figure fits yet).
    Letter,
    /// A question mark: a piece whose kind is hidden from the viewer.
    Unknown,
    /// A crown with a cross: a king.
    Crown,
    /// A coronet of five points, each with a pearl: a queen.
    Coronet,
    /// A tower with battlements: a rook.
    Tower,
    /// A sword, point up: a warrior or soldier.
    Sword,
}

impl Emblem {
    /// Every emblem, in the order of the enum.
    pub const ALL: [Emblem; 7] = [
        Emblem::Plain,
        Emblem::Letter,
        Emblem::Unknown,
        Emblem::Crown,
        Emblem::Coronet,
        Emblem::Tower,
        Emblem::Sword,
    ];

    /// The emblem's name in the JSON the browser reads.
    pub fn name(self) -> &'static str {
        match self {
            Emblem::Plain => "plain",
            Emblem::Letter => "letter",
            Emblem::Unknown => "unknown",
            Emblem::Crown => "crown",
            Emblem::Coronet => "coronet",
            Emblem::Tower => "tower",
            Emblem::Sword => "sword",
        }
    }

    /// The figure as SVG path data around the piece's centre, in units of the piece's radius
    /// with y down, filled in the owner's ink; `None` for the emblems that are text or nothing.
    /// Every figure stays within 0.7 of the centre, inside a crowned piece's ring.
    pub fn path(self) -> Option<&'static str> {
        match self {
            Emblem::Plain | Emblem::Letter | Emblem::Unknown => None,
            Emblem::Crown => Some(CROWN),
            Emblem::Coronet => Some(CORONET),
            Emblem::Tower => Some(TOWER),
            Emblem::Sword => Some(SWORD),
        }
    }

    /// The text the piece bears, given its letter: the letter itself (upper case), a question
    /// mark, or `None` for a figure or nothing.
    pub fn text(self, letter: char) -> Option<char> {
        match self {
            Emblem::Letter => Some(letter.to_ascii_uppercase()),
            Emblem::Unknown => Some('?'),
            _ => None,
        }
    }
}

const CROWN: &str = "M-0.52 0.2H0.52V0.4H-0.52Z\
M-0.52 0.13L-0.6 -0.28L-0.26 0L0 -0.34L0.26 0L0.6 -0.28L0.52 0.13Z\
M-0.05 -0.66H0.05V-0.34H-0.05Z\
M-0.15 -0.58H0.15V-0.48H-0.15Z";
const CORONET: &str = "M-0.5 0.2H0.5V0.4H-0.5Z\
M-0.5 0.13L-0.58 -0.3L-0.4 -0.02L-0.3 -0.42L-0.15 -0.04L0 -0.5L0.15 -0.04L0.3 -0.42L0.4 -0.02\
L0.58 -0.3L0.5 0.13Z\
M-0.62 -0.31a0.08 0.08 0 1 0 0.16 0a0.08 0.08 0 1 0 -0.16 0Z\
M-0.38 -0.46a0.08 0.08 0 1 0 0.16 0a0.08 0.08 0 1 0 -0.16 0Z\
M-0.08 -0.55a0.08 0.08 0 1 0 0.16 0a0.08 0.08 0 1 0 -0.16 0Z\
M0.22 -0.46a0.08 0.08 0 1 0 0.16 0a0.08 0.08 0 1 0 -0.16 0Z\
M0.46 -0.31a0.08 0.08 0 1 0 0.16 0a0.08 0.08 0 1 0 -0.16 0Z";
const TOWER: &str = "M-0.42 0.46H0.42V0.3H0.3L0.26 -0.18H0.4V-0.5H0.22V-0.36H0.08V-0.5H-0.08\
V-0.36H-0.22V-0.5H-0.4V-0.18H-0.26L-0.3 0.3H-0.42Z";
const SWORD: &str = "M0 -0.68L0.12 -0.5V0.12H-0.12V-0.5Z\
M-0.34 0.12H0.34V0.26H-0.34Z\
M-0.075 0.26H0.075V0.45H-0.075Z\
M-0.1 0.54a0.1 0.1 0 1 0 0.2 0a0.1 0.1 0 1 0 -0.2 0Z";

/// How one kind of piece is drawn and named in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceStyle {
    /// The game's word for the piece, as in [`crate::PieceView::kind`].
    pub kind: &'static str,
    /// White's letter for it (Black's is the lower case), in text drawings and records.
    pub letter: char,
    pub shape: PieceShape,
    /// What its face bears in pictures.
    pub emblem: Emblem,
}

/// The colours every board shares. There is one palette, here; renderers read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Behind the board.
    pub background: &'static str,
    /// The outline of a square.
    pub edge: &'static str,
    /// The lines joining points, and the points themselves.
    pub line: &'static str,
    /// The outline of the last move's cells.
    pub marked: &'static str,
    /// A cell out of play (a removed tile).
    pub absent: &'static str,
    /// The outline of a piece.
    pub piece_edge: &'static str,
    /// White's and Black's pieces, and the ink of their letters.
    pub white_piece: &'static str,
    pub white_ink: &'static str,
    pub black_piece: &'static str,
    pub black_ink: &'static str,
    /// Pieces that belong to nobody (rocks), and the ink of their letters.
    pub stone: &'static str,
    pub stone_ink: &'static str,
    /// Regions pointed out in White's colour and in Black's (Straat's streets at the end).
    pub white_highlight: &'static str,
    pub black_highlight: &'static str,
    /// The marks of a game's interface, as `#rrggbbaa`: a square is tinted with the colour at
    /// its opacity, a point is ringed in the colour made opaque. The last move's cells...
    pub last_move: &'static str,
    /// ... the cells of a suggested move (a hint) ...
    pub hint: &'static str,
    /// ... and the cells picked so far for a move. See [`Legend::mark_clashes`].
    pub selected: &'static str,
}

impl Palette {
    /// Every colour by its name (`background`, `white_piece`, ...), for serialisers.
    pub fn entries(&self) -> [(&'static str, &'static str); 17] {
        [
            ("background", self.background),
            ("edge", self.edge),
            ("line", self.line),
            ("marked", self.marked),
            ("absent", self.absent),
            ("piece_edge", self.piece_edge),
            ("white_piece", self.white_piece),
            ("white_ink", self.white_ink),
            ("black_piece", self.black_piece),
            ("black_ink", self.black_ink),
            ("stone", self.stone),
            ("stone_ink", self.stone_ink),
            ("white_highlight", self.white_highlight),
            ("black_highlight", self.black_highlight),
            ("last_move", self.last_move),
            ("hint", self.hint),
            ("selected", self.selected),
        ]
    }
}

/// The palette.
pub const PALETTE: Palette = Palette {
    background: "#fbf7ee",
    edge: "#6b5a3e",
    line: "#555555",
    marked: "#dd3333",
    absent: "#ebe3d3",
    piece_edge: "#000000",
    white_piece: "#ffffff",
    white_ink: "#000000",
    black_piece: "#222222",
    black_ink: "#ffffff",
    stone: "#8f8a80",
    stone_ink: "#ffffff",
    white_highlight: "#e8590c",
    black_highlight: "#1c9ad6",
    last_move: "#f5c40099",
    hint: "#a020f099",
    selected: "#00664d99",
};

/// How different (CIE76 ΔE*ab, see [`crate::colour`]) a mark must look from every kind of cell
/// of a board and from the other marks, so that a marked cell is never taken for another kind
/// of cell or another mark.
pub const MIN_MARK_CONTRAST: f32 = 25.0;

/// A board's key: the styles of its cells (every class a cell carries that has a look), what a
/// cell out of play means, and its pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Legend {
    /// The styles in use, in the order a key lists them. A cell takes the last style among its
    /// classes, or [`CellStyle::PLAIN`].
    pub cells: Vec<CellStyle>,
    /// What a cell out of play stands for (`no tile`), if cells can leave play.
    pub absent: Option<&'static str>,
    pub pieces: Vec<PieceStyle>,
    /// Whether the first player's (White's, in the rules' sense) pieces are drawn in the dark
    /// colours and the second player's in the light ones, as in English checkers.
    pub first_player_dark: bool,
}

impl Legend {
    /// The fill and the ink of a player's pieces: the light or the dark ones of the palette.
    pub fn piece_colours(&self, owner: Player) -> (&'static str, &'static str) {
        if (owner == Player::White) != self.first_player_dark {
            (PALETTE.white_piece, PALETTE.white_ink)
        } else {
            (PALETTE.black_piece, PALETTE.black_ink)
        }
    }

    /// The style of a cell with these classes.
    pub fn style(&self, classes: &[&str]) -> &CellStyle {
        classes
            .iter()
            .rev()
            .find_map(|class| self.cells.iter().find(|s| s.class == *class))
            .unwrap_or(&CellStyle::PLAIN)
    }

    /// Adds a style if no style has its class yet.
    pub fn add(&mut self, style: CellStyle) {
        if !self.cells.iter().any(|s| s.class == style.class) {
            self.cells.push(style);
        }
    }

    /// Where the palette's marks ([`Palette::last_move`], [`Palette::hint`],
    /// [`Palette::selected`]) would be hard to tell apart on this board: a marked cell of any
    /// kind that looks like a cell of some kind (itself unmarked included), two marks on the same
    /// kind of cell that look alike, or a ring round a point that looks like the background or
    /// the lines. Each clash is a sentence; none means every mark stands out by at least
    /// [`MIN_MARK_CONTRAST`].
    pub fn mark_clashes(&self, palette: &Palette) -> Vec<String> {
        let mut clashes = Vec::new();
        let mut parse = |name: &str, text: &str| match text.parse::<Rgba>() {
            Ok(colour) => Some((name.to_owned(), colour)),
            Err(e) => {
                clashes.push(format!("{name}: {e}"));
                None
            }
        };
        let marks: Vec<_> = [
            ("the last move", palette.last_move),
            ("the hint", palette.hint),
            ("the selection", palette.selected),
        ]
        .iter()
        .filter_map(|(name, text)| parse(name, text))
        .collect();
        let mut cells: Vec<_> = [CellStyle::PLAIN]
            .iter()
            .chain(&self.cells)
            .filter_map(|s| parse(s.words, s.fill))
            .collect();
        if let Some(words) = self.absent {
            cells.extend(parse(words, palette.absent));
        }
        // Styles that differ only by owner (one fill, one name) are one kind of cell.
        let mut seen = Vec::new();
        cells.retain(|cell| {
            let new = !seen.contains(cell);
            seen.push(cell.clone());
            new
        });
        let ground: Vec<_> = [
            ("the background", palette.background),
            ("the lines", palette.line),
        ]
        .iter()
        .filter_map(|(name, text)| parse(name, text))
        .collect();
        let mut near = |what: String, a: Rgba, b: Rgba| {
            let d = a.distance(b);
            if d < MIN_MARK_CONTRAST {
                clashes.push(format!("{what} (ΔE {d:.1} < {MIN_MARK_CONTRAST})"));
            }
        };
        for (k, (mark, colour)) in marks.iter().enumerate() {
            for (cell, fill) in &cells {
                let tinted = colour.over(*fill);
                for (other, other_fill) in &cells {
                    near(
                        format!("{mark} on a {cell} looks like a {other}"),
                        tinted,
                        *other_fill,
                    );
                }
                for (second, second_colour) in &marks[k + 1..] {
                    let what = format!("{mark} and {second} look alike on a {cell}");
                    near(what, tinted, second_colour.over(*fill));
                }
            }
            for (name, ground) in &ground {
                near(
                    format!("a ring of {mark} looks like {name}"),
                    colour.opaque(),
                    *ground,
                );
            }
        }
        clashes
    }

    /// The piece style of a kind, if the legend knows it.
    pub fn piece(&self, kind: &str) -> Option<&PieceStyle> {
        self.pieces.iter().find(|p| p.kind == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASTLE: CellStyle = CellStyle {
        class: "castle",
        fill: "#c9a66b",
        glyph: '+',
        words: "castle",
    };

    #[test]
    fn a_cell_takes_its_last_styled_class_or_the_plain_style() {
        let mut legend = Legend::default();
        legend.add(CellStyle::DARK);
        legend.add(CASTLE);
        legend.add(CASTLE);
        assert_eq!(legend.cells.len(), 2, "a style is added once");
        assert_eq!(legend.style(&["dark", "castle"]).glyph, '+');
        assert_eq!(legend.style(&["castle", "dark"]).glyph, '.');
        assert_eq!(legend.style(&["unknown"]), &CellStyle::PLAIN);
        assert_eq!(legend.style(&[]), &CellStyle::PLAIN);
    }

    #[test]
    fn marks_stand_out_from_the_cells_and_each_other() {
        let mut legend = Legend::default();
        legend.add(CellStyle::DARK);
        legend.add(CASTLE);
        assert_eq!(legend.mark_clashes(&PALETTE), Vec::<String>::new());
        let broken = Palette {
            hint: "blue",
            ..PALETTE
        };
        assert_eq!(
            legend.mark_clashes(&broken),
            vec![r#"the hint: bad colour "blue": expected #rrggbb or #rrggbbaa"#.to_owned()]
        );

        // A blue field, and a hint of a translucent blue (the colour once used for hints).
        legend.add(CellStyle {
            class: "home-black",
            fill: "#6fb3d9",
            glyph: '*',
            words: "blue field",
        });
        let blue_hint = Palette {
            hint: "#286edc73",
            ..PALETTE
        };
        let clashes = legend.mark_clashes(&blue_hint);
        assert!(
            clashes.contains(&"the hint on a square looks like a blue field (ΔE 12.0 < 25)".into()),
            "{clashes:?}"
        );
        let same = Palette {
            selected: PALETTE.last_move,
            line: "#f5c400",
            ..PALETTE
        };
        let clashes = legend.mark_clashes(&same);
        assert!(
            clashes.contains(
                &"the last move and the selection look alike on a castle (ΔE 0.0 < 25)".into()
            ),
            "{clashes:?}"
        );
        assert!(
            clashes
                .iter()
                .any(|c| c.starts_with("a ring of the last move looks like the lines")),
            "{clashes:?}"
        );
    }
}
