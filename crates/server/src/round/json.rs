//! What a viewer is sent: JSON shapes of boards, rulesets, games and moves (see docs/api.md).
//! Everything here passes through the viewer's eyes: hidden pieces stay hidden.

use std::sync::Arc;

use denkmeter_core::{
    Board, ByPlayer, Cell, Highlight, MoveView, PieceView, Player, Reason, Shape, Status, Viewer,
    PALETTE,
};
use denkmeter_engine::dynamic::{AnyGame, AnySession, LegalMove};
use denkmeter_engine::Registry;
use serde::Serialize;
use serde_json::value::RawValue;

use super::{LiveGame, RoundError};
use crate::clock::Clock;
use crate::rating::Rating;
use crate::seat::Seat;
use crate::store::{GameSummary, RatingChange, SeatAccount};

/// JSON written once and sent as it is, shared by every copy (a game's board, in every view).
#[derive(Debug, Clone)]
pub struct RawJson(Arc<RawValue>);

impl RawJson {
    pub fn of(value: &impl Serialize) -> RawJson {
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|error| {
            // Only a map with keys other than strings could fail, and there is none.
            tracing::error!(%error, "cannot write JSON");
            RawValue::NULL.to_owned()
        });
        RawJson(Arc::from(raw))
    }

    /// JSON text kept as it is (checked to be JSON).
    pub fn from_text(text: String) -> Result<RawJson, serde_json::Error> {
        Ok(RawJson(Arc::from(RawValue::from_string(text)?)))
    }
}

impl Serialize for RawJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[derive(Debug, Serialize)]
pub struct CellJson {
    pub name: String,
    pub x: f32,
    pub y: f32,
    pub shape: &'static str,
    pub classes: Vec<&'static str>,
    /// The class of the cell's style in the legend (`plain` if it has none).
    pub style: &'static str,
    /// The number players give the cell, where they number cells (draughts' 1 to 50).
    pub number: Option<u16>,
}

/// How a kind of cell looks (see `Legend` in core).
#[derive(Debug, Serialize)]
pub struct CellStyleJson {
    pub class: &'static str,
    pub fill: &'static str,
    pub glyph: char,
    pub words: &'static str,
}

#[derive(Debug, Serialize)]
pub struct PieceStyleJson {
    pub kind: &'static str,
    pub letter: char,
    pub shape: &'static str,
    /// The shape's polygon around the piece's centre in units of its radius (y down), if it
    /// is not round.
    pub outline: Option<Vec<[f32; 2]>>,
    /// Whether the piece belongs to nobody (drawn in the palette's stone colours).
    pub neutral: bool,
    /// Whether the piece is a tile covering its cell (drawn without a letter, turning and
    /// mirroring with the board).
    pub fills_cell: bool,
    /// For a tile split into the two players' colours: the polygon of Black's half around the
    /// cell's centre in cell units (corners at +-0.5, y down); the rest is White's colour.
    pub dark_half: Option<Vec<[f32; 2]>>,
    /// What the piece's face bears: `plain`, `letter`, `unknown`, `crown`, ...
    pub emblem: &'static str,
    /// The emblem's figure as SVG path data in units of the piece's radius around its centre
    /// (y down), filled in the owner's ink, if it is a figure.
    pub emblem_path: Option<&'static str>,
    /// The text the face bears (its letter, or `?`), if any.
    pub emblem_text: Option<String>,
}

/// A board's key: the styles of its cells and pieces, and the colours every board shares.
#[derive(Debug, Serialize)]
pub struct LegendJson {
    /// The plain style first, then every style the board uses.
    pub cells: Vec<CellStyleJson>,
    /// What a cell out of play stands for, if cells can leave play.
    pub absent: Option<&'static str>,
    pub pieces: Vec<PieceStyleJson>,
    /// Whether the first player's (`white`'s) pieces are drawn in the palette's dark colours
    /// and `black`'s in the light ones (English checkers).
    pub first_player_dark: bool,
    /// The colours every board shares, by name (`background`, `white_piece`, ...).
    pub palette: std::collections::BTreeMap<&'static str, &'static str>,
}

#[derive(Debug, Serialize)]
pub struct LabelJson {
    pub at: f32,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct BoardJson {
    pub cells: Vec<CellJson>,
    pub lines: Vec<[u16; 2]>,
    /// Labels beside the rows (`at` is a row's y) and under the columns (`at` is a column's x).
    pub row_labels: Vec<LabelJson>,
    pub column_labels: Vec<LabelJson>,
    pub width: f32,
    pub height: f32,
    pub legend: LegendJson,
    /// Markings printed on cells: `{cell, points: [[x, y], ...]}`, points relative to the
    /// cell's centre in cell units, y down (Schada's paths).
    pub marks: Vec<MarkJson>,
}

#[derive(Debug, Serialize)]
pub struct MarkJson {
    pub cell: u16,
    pub points: Vec<[f32; 2]>,
}

impl BoardJson {
    pub fn of(board: &Board) -> BoardJson {
        let (width, height) = board.extent();
        let legend = board.legend();
        let style = |s: &denkmeter_core::CellStyle| CellStyleJson {
            class: s.class,
            fill: s.fill,
            glyph: s.glyph,
            words: s.words,
        };
        BoardJson {
            cells: board
                .cells()
                .iter()
                .enumerate()
                .map(|(i, c)| CellJson {
                    name: c.name.clone(),
                    x: c.x,
                    y: c.y,
                    shape: match c.shape {
                        Shape::Square => "square",
                        Shape::Point => "point",
                    },
                    classes: c.classes.clone(),
                    style: board.style(Cell(i as u16)).class,
                    number: board.number(Cell(i as u16)),
                })
                .collect(),
            lines: board.lines().iter().map(|(a, b)| [a.0, b.0]).collect(),
            row_labels: board
                .row_labels()
                .into_iter()
                .map(|l| LabelJson {
                    at: l.at,
                    text: l.text,
                })
                .collect(),
            column_labels: board
                .column_labels()
                .into_iter()
                .map(|l| LabelJson {
                    at: l.at,
                    text: l.text,
                })
                .collect(),
            width,
            height,
            marks: board
                .marks()
                .iter()
                .map(|m| MarkJson {
                    cell: m.cell.0,
                    points: m.points.iter().map(|&(x, y)| [x, y]).collect(),
                })
                .collect(),
            legend: LegendJson {
                cells: std::iter::once(&denkmeter_core::CellStyle::PLAIN)
                    .chain(&legend.cells)
                    .map(style)
                    .collect(),
                absent: legend.absent,
                pieces: legend
                    .pieces
                    .iter()
                    .map(|p| PieceStyleJson {
                        kind: p.kind,
                        letter: p.letter,
                        shape: p.shape.name(),
                        outline: p
                            .shape
                            .outline()
                            .map(|o| o.iter().map(|&(x, y)| [x, y]).collect()),
                        neutral: p.shape.is_neutral(),
                        fills_cell: p.shape.fills_cell(),
                        dark_half: p
                            .shape
                            .dark_half()
                            .map(|o| o.iter().map(|&(x, y)| [x, y]).collect()),
                        emblem: p.emblem.name(),
                        emblem_path: p.emblem.path(),
                        emblem_text: p.emblem.text(p.letter).map(String::from),
                    })
                    .collect(),
                first_player_dark: legend.first_player_dark,
                palette: PALETTE.entries().into_iter().collect(),
            },
        }
    }
}

#[derive(Debug, Serialize)]
pub struct RulesetSummary {
    pub name: String,
    /// The ruleset's name for people (`Fort Chitral`); `name` is its stable key.
    pub display_name: String,
    pub family: &'static str,
    pub description: String,
    pub hidden_information: bool,
    /// The name of the default board file, for rulesets whose board is data (Schada): a game
    /// can be created on another board file.
    pub board_name: Option<String>,
    /// What the game's tradition calls each seat (English checkers: `white` is "Black").
    pub side_names: SideNamesJson,
    /// Whether its games are draughts, read and written as PDN.
    pub pdn: bool,
}

/// What the game's tradition calls each seat: the rules' `white` moves first.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct SideNamesJson {
    pub white: &'static str,
    pub black: &'static str,
}

impl SideNamesJson {
    pub fn of(game: &dyn AnyGame) -> SideNamesJson {
        let names = game.facts().side_names;
        SideNamesJson {
            white: names.white,
            black: names.black,
        }
    }
}

impl RulesetSummary {
    pub fn of(game: &dyn AnyGame) -> RulesetSummary {
        RulesetSummary {
            name: game.name().to_string(),
            display_name: game.facts().display_name(),
            family: game.facts().family,
            description: game.facts().description.to_string(),
            hidden_information: game.facts().hidden_information,
            board_name: game.board_file().map(|(name, _)| name.to_string()),
            side_names: SideNamesJson::of(game),
            pdn: game.facts().pdn.is_draughts(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct RulesetDetail {
    #[serde(flatten)]
    pub summary: RulesetSummary,
    /// The rules page in Markdown, and rendered as HTML (see `crate::markdown`).
    pub rules: &'static str,
    pub rules_html: String,
    pub board: BoardJson,
    pub start_position: String,
    /// The text of the default board file (see `board_name`), to read or to edit.
    pub board_file: Option<String>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct SeatJson {
    pub kind: &'static str,
    pub level: Option<u8>,
    /// A friend took the seat through its invite link: the link holds nothing any more.
    pub claimed: bool,
    /// The account holding the seat, if any.
    pub player: Option<SeatPlayerJson>,
}

/// The account in a seat: its name (null once deleted) and its rating in the game's category,
/// rounded, if it has one.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct SeatPlayerJson {
    pub name: Option<String>,
    pub rating: Option<i64>,
    pub provisional: bool,
}

impl SeatJson {
    pub fn of(
        seat: Seat,
        claimed: bool,
        account: Option<&SeatAccount>,
        rating: Option<Rating>,
    ) -> SeatJson {
        let player = account.map(|account| SeatPlayerJson {
            name: account.name.clone(),
            rating: rating.map(|r| r.rating.round() as i64),
            provisional: rating.map_or(true, |r| r.is_provisional()),
        });
        match seat {
            Seat::Human => SeatJson {
                kind: "human",
                level: None,
                claimed,
                player,
            },
            Seat::Computer(level) => SeatJson {
                kind: "computer",
                level: Some(level),
                claimed: false,
                player: None,
            },
        }
    }
}

/// What a rated game did to a seat's rating, to a tenth of a point.
#[derive(Debug, Serialize, PartialEq)]
pub struct RatingChangeJson {
    pub before: f64,
    pub after: f64,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct RatingChangesJson {
    pub white: Option<RatingChangeJson>,
    pub black: Option<RatingChangeJson>,
}

impl RatingChangesJson {
    fn of(changes: &ByPlayer<Option<RatingChange>>) -> RatingChangesJson {
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        let one = |c: &Option<RatingChange>| {
            c.map(|c| RatingChangeJson {
                before: tenth(c.before.rating),
                after: tenth(c.after.rating),
            })
        };
        RatingChangesJson {
            white: one(&changes.white),
            black: one(&changes.black),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct MoveJson {
    pub text: String,
    pub from: Option<u16>,
    pub via: Vec<u16>,
    pub to: Option<u16>,
    pub choice: Option<String>,
    pub captured: Vec<u16>,
    pub removed: Vec<u16>,
    pub flipped: Vec<u16>,
    pub promotes: bool,
    /// The kind of piece a placement puts on `to`, for a preview.
    pub places: Option<&'static str>,
}

impl MoveJson {
    fn of(text: String, view: &MoveView) -> MoveJson {
        let ids = |cells: &[denkmeter_core::Cell]| cells.iter().map(|c| c.0).collect();
        MoveJson {
            text,
            from: view.from.map(|c| c.0),
            via: ids(&view.via),
            to: view.to.map(|c| c.0),
            choice: view.choice.clone(),
            captured: ids(&view.captured),
            removed: ids(&view.removed),
            flipped: ids(&view.flipped),
            promotes: view.promotes,
            places: view.places,
        }
    }

    fn of_legal(m: LegalMove) -> MoveJson {
        MoveJson::of(m.text, &m.view)
    }
}

#[derive(Debug, Serialize)]
pub struct PieceJson {
    pub cell: u16,
    pub owner: &'static str,
    pub kind: &'static str,
    pub letter: String,
}

impl PieceJson {
    fn all(pieces: &[PieceView]) -> Vec<PieceJson> {
        pieces
            .iter()
            .map(|p| PieceJson {
                cell: p.cell.0,
                owner: p.owner.name(),
                kind: p.kind,
                letter: p.letter.to_string(),
            })
            .collect()
    }
}

/// A region pointed out on one side of the board (see `Highlight` in core).
#[derive(Debug, Serialize)]
pub struct HighlightJson {
    /// `front` or `back`.
    pub side: &'static str,
    pub owner: &'static str,
    pub label: String,
    pub value: u32,
    /// Polygons in board coordinates (cell units, y down) that tile the region.
    pub parts: Vec<Vec<[f32; 2]>>,
    /// The region's outline as segments `[x1, y1, x2, y2]`.
    pub outline: Vec<[f32; 4]>,
}

impl HighlightJson {
    pub fn of(h: &Highlight) -> HighlightJson {
        HighlightJson {
            side: h.side.name(),
            owner: h.owner.name(),
            label: h.label.clone(),
            value: h.value,
            parts: h
                .parts
                .iter()
                .map(|part| part.iter().map(|&(x, y)| [x, y]).collect())
                .collect(),
            outline: h
                .outline()
                .into_iter()
                .map(|[(x1, y1), (x2, y2)]| [x1, y1, x2, y2])
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ScoreJson {
    pub white: i64,
    pub black: i64,
    pub breakdown: String,
}

#[derive(Debug, Serialize)]
pub struct ResultJson {
    pub token: &'static str,
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    pub text: String,
    pub score: Option<ScoreJson>,
}

/// A timed game's clocks as of one moment: each side's time left (the computer's too) and
/// whose clock runs.
#[derive(Debug, Serialize)]
pub struct ClockJson {
    /// `per-move` (every move within `main_ms`) or `main` (`main_ms` for the game, plus
    /// `increment_ms` after each move).
    pub kind: &'static str,
    pub main_ms: i64,
    pub increment_ms: i64,
    pub white_ms: i64,
    pub black_ms: i64,
    /// The seat whose time is running, while a game goes on and both
    /// sides have made their first move (the first moves are not charged).
    pub running: Option<&'static str>,
    /// While a first move is awaited: the time left to make it, after which the
    /// game is lost on time (`crate::clock::Clock::first_move_ms`).
    pub first_move_ms: Option<i64>,
}

impl ClockJson {
    pub fn of(game: &LiveGame, clock: &Clock, now: i64) -> ClockJson {
        let (kind, main_ms, increment_ms) = clock.control.columns();
        let status = game.session.status();
        let deadline = game.deadline();
        let opening = game.is_opening();
        let running = deadline
            .filter(|_| !opening)
            .map(|_| game.session.to_move());
        let first_move_ms = deadline
            .filter(|_| opening)
            .map(|d| d.saturating_sub(now).max(0));
        let left = |p: Player| {
            let lost_on_time = status
                .outcome()
                .is_some_and(|o| o.reason == Reason::TimeForfeit && o.winner == Some(!p));
            match running {
                _ if lost_on_time => 0,
                Some(r) if r == p => clock.left_at(p, false, now).max(0),
                _ => clock.remaining[p],
            }
        };
        ClockJson {
            kind,
            main_ms,
            increment_ms,
            white_ms: left(Player::White),
            black_ms: left(Player::Black),
            running: running.map(Player::name),
            first_move_ms,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: String,
    /// The stored version this view shows: it grows with every change to the game.
    pub version: i64,
    pub ruleset: String,
    /// The ruleset's name for people.
    pub display_name: String,
    pub family: &'static str,
    pub description: String,
    pub hidden_information: bool,
    /// What the game's tradition calls each seat (see [`SideNamesJson`]).
    pub side_names: SideNamesJson,
    /// A [`BoardJson`].
    pub board: RawJson,
    /// The board file the game is played on, for games whose board is data (Schada).
    pub board_name: Option<String>,
    pub white: SeatJson,
    pub black: SeatJson,
    pub you: Option<&'static str>,
    pub ply: usize,
    pub first_to_move: &'static str,
    pub moves: Vec<String>,
    pub position: Option<String>,
    /// The position as a FEN, where the ruleset has one and the position may be seen.
    pub fen: Option<String>,
    /// Whether the game is draughts, whose record is also given as PDN (`record.pdn`).
    pub pdn: bool,
    /// The pieces, both sides of the board, the regions pointed out and the absent cells.
    #[serde(flatten)]
    pub drawn: DrawnJson,
    pub to_move: &'static str,
    pub last_move: Option<MoveJson>,
    pub legal_moves: Vec<MoveJson>,
    /// For the viewer whose move it is, when that move is a secret, final choice (Trangalla's
    /// king): the words asking for it, to be confirmed before it is sent. Null otherwise.
    pub secret_choice: Option<&'static str>,
    /// What this viewer alone knows, in words (where his Trangalla king stands), while the
    /// game hides it from the others; null for spectators and the other player.
    pub secret_note: Option<String>,
    pub status: &'static str,
    pub result: Option<ResultJson>,
    pub draw_offer: Option<&'static str>,
    /// The seat that asked to take back its last move, until the other answers.
    pub takeback_offer: Option<&'static str>,
    /// A timed game's clocks, as of this view.
    pub clock: Option<ClockJson>,
    pub thinking: bool,
    /// The game counts for ratings, in this category (`chad/blitz`).
    pub rated: bool,
    pub category: Option<String>,
    /// Once a rated game is over: what it did to each seat's rating (null for the computer or
    /// a seat without an account).
    pub rating_changes: Option<RatingChangesJson>,
}

/// How the holder of `seat` (`None`: a spectator) sees `game`: everything once it is over or if
/// it hides nothing.
pub fn viewer_of(game: &LiveGame, seat: Option<Player>) -> Viewer {
    if !game.ruleset.facts().hidden_information || game.session.status().is_over() {
        Viewer::Everyone
    } else {
        seat.map_or(Viewer::Spectator, Viewer::Player)
    }
}

/// The game after `ply` moves (`None`: now) as the holder of `seat` may see it.
pub fn game_view(
    game: &LiveGame,
    seat: Option<Player>,
    ply: Option<usize>,
) -> Result<GameView, RoundError> {
    let ruleset = game.ruleset.as_ref();
    let all_moves = game.session.moves();
    let replay = match ply {
        Some(n) if n > all_moves.len() => {
            return Err(RoundError::BadPly {
                ply: n,
                played: all_moves.len(),
            })
        }
        Some(n) if n < all_moves.len() => Some(position_after(game, n)?),
        _ => None,
    };
    let session: &dyn AnySession = replay.as_deref().unwrap_or(game.session.as_ref());
    let status = game.session.status();
    let over = status.is_over();
    let viewer = viewer_of(game, seat);
    let mine = seat == Some(session.to_move());
    let legal_moves = if replay.is_none() && mine && !over {
        session
            .legal_moves_for(viewer)
            .into_iter()
            .map(MoveJson::of_legal)
            .collect()
    } else {
        Vec::new()
    };
    let result = match (&replay, &status) {
        (None, Status::Over(o)) => Some(ResultJson {
            token: o.result_token(),
            winner: o.winner.map(Player::name),
            reason: o.reason.key(),
            text: o.describe(ruleset.facts().side_names),
            score: o.score.as_ref().map(|s| ScoreJson {
                white: s.white,
                black: s.black,
                breakdown: s.breakdown.clone(),
            }),
        }),
        _ => None,
    };
    Ok(GameView {
        board_name: ruleset.board_file().map(|(name, _)| name.to_string()),
        id: game.id.clone(),
        version: game.version,
        ruleset: ruleset.name().to_string(),
        display_name: ruleset.facts().display_name(),
        family: ruleset.facts().family,
        description: ruleset.facts().description.to_string(),
        hidden_information: ruleset.facts().hidden_information,
        side_names: SideNamesJson::of(ruleset),
        pdn: ruleset.facts().pdn.is_draughts(),
        board: game.board_json.clone(),
        white: SeatJson::of(
            game.seats.white,
            game.is_claimed(Player::White),
            game.accounts.white.as_ref(),
            game.ratings.white,
        ),
        black: SeatJson::of(
            game.seats.black,
            game.is_claimed(Player::Black),
            game.accounts.black.as_ref(),
            game.ratings.black,
        ),
        rated: game.rated,
        category: game.category().filter(|_| game.rated),
        rating_changes: (game.rated && over && replay.is_none())
            .then(|| RatingChangesJson::of(&game.rating_changes)),
        you: seat.map(Player::name),
        ply: session.moves().len(),
        first_to_move: session.first_to_move().name(),
        moves: session.moves_for(viewer),
        position: (viewer == Viewer::Everyone).then(|| session.position()),
        fen: (viewer == Viewer::Everyone)
            .then(|| session.fen())
            .flatten(),
        drawn: DrawnJson::of(session, viewer),
        to_move: session.to_move().name(),
        last_move: session.last_move(viewer).map(MoveJson::of_legal),
        legal_moves,
        secret_choice: (replay.is_none() && mine && !over)
            .then(|| session.secret_choice_prompt())
            .flatten(),
        secret_note: match viewer {
            Viewer::Player(player) => session.secret_note(player),
            _ => None,
        },
        status: if replay.is_none() && over {
            "over"
        } else {
            "ongoing"
        },
        result,
        draw_offer: game.draw_offer.map(Player::name),
        takeback_offer: game.takeback_offer.map(Player::name),
        clock: game
            .clock
            .as_ref()
            .map(|clock| ClockJson::of(game, clock, super::now_ms())),
        // While the computer is to move (after a takeback its dropped search may still run).
        thinking: !over && matches!(game.seats[game.session.to_move()], Seat::Computer(_)),
    })
}

/// What a position shows a viewer.
#[derive(Debug, Serialize)]
pub struct DrawnJson {
    pub pieces: Vec<PieceJson>,
    /// The pieces seen from the back of a transparent board, on their cells as named from the
    /// front (Straat); null for a board with one side.
    pub back: Option<Vec<PieceJson>>,
    /// Regions to point out on either side (the streets of a finished Straat game).
    pub highlights: Vec<HighlightJson>,
    pub absent: Vec<u16>,
}

impl DrawnJson {
    pub fn of(session: &dyn AnySession, viewer: Viewer) -> DrawnJson {
        let view = session.view(viewer);
        DrawnJson {
            pieces: PieceJson::all(&view.pieces),
            back: session
                .back_view(viewer)
                .map(|back| PieceJson::all(&back.pieces)),
            highlights: session
                .highlights(viewer)
                .iter()
                .map(HighlightJson::of)
                .collect(),
            absent: view.absent.iter().map(|c| c.0).collect(),
        }
    }
}

/// A position as everyone sees it, without a game around it: what the analysis page draws for
/// each ply of a game analysed.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    pub ply: usize,
    #[serde(flatten)]
    pub drawn: DrawnJson,
    pub to_move: &'static str,
    pub last_move: Option<MoveJson>,
    /// Every legal move, with what a person clicks for it (to point out the engine's best).
    pub legal_moves: Vec<MoveJson>,
    /// `ongoing` or `over`.
    pub status: &'static str,
}

impl PositionJson {
    pub fn of(session: &dyn AnySession) -> PositionJson {
        let viewer = Viewer::Everyone;
        PositionJson {
            ply: session.moves().len(),
            drawn: DrawnJson::of(session, viewer),
            to_move: session.to_move().name(),
            last_move: session.last_move(viewer).map(MoveJson::of_legal),
            legal_moves: session
                .legal_moves_for(viewer)
                .into_iter()
                .map(MoveJson::of_legal)
                .collect(),
            status: if session.status().is_over() {
                "over"
            } else {
                "ongoing"
            },
        }
    }
}

/// The game replayed to `ply` moves.
pub fn position_after(game: &LiveGame, ply: usize) -> Result<Box<dyn AnySession>, RoundError> {
    let played = game.session.moves().len();
    if ply > played {
        return Err(RoundError::BadPly { ply, played });
    }
    let corrupt = |e: String| RoundError::Corrupt(format!("game {}: replay: {e}", game.id));
    let mut session = game
        .ruleset
        .new_game(game.start_position.as_deref())
        .map_err(|e| corrupt(e.to_string()))?;
    for text in game.session.moves().iter().take(ply) {
        session.play(text).map_err(|e| corrupt(e.to_string()))?;
    }
    Ok(session)
}

#[derive(Debug, Serialize)]
pub struct GameListItem {
    pub id: String,
    pub ruleset: String,
    /// The ruleset's name for people (its key for a ruleset this server no longer has).
    pub display_name: String,
    pub white: SeatJson,
    pub black: SeatJson,
    pub status: &'static str,
    pub result: String,
    pub moves: i64,
    pub updated_at: i64,
}

impl GameListItem {
    pub fn of(summary: &GameSummary, registry: &Registry) -> GameListItem {
        let g = &summary.game;
        GameListItem {
            id: g.id.clone(),
            ruleset: g.ruleset.clone(),
            display_name: registry
                .find(&g.ruleset)
                .map_or_else(|| g.ruleset.clone(), |game| game.facts().display_name()),
            white: SeatJson::of(
                g.seats.white,
                g.invites.white.is_some(),
                g.accounts.white.as_ref(),
                None,
            ),
            black: SeatJson::of(
                g.seats.black,
                g.invites.black.is_some(),
                g.accounts.black.as_ref(),
                None,
            ),
            status: if g.outcome.is_some() {
                "over"
            } else {
                "ongoing"
            },
            result: g
                .outcome
                .as_ref()
                .map_or("*", |o| o.result_token())
                .to_string(),
            moves: summary.moves,
            updated_at: g.updated_at,
        }
    }
}
