//! The move generator, compiled once per ruleset: every choice of the [`Variant`] is a constant
//! here, so no ruleset pays for another's rules.
//!
//! Captures are searched depth first from every piece that can start one. The capturing piece is
//! lifted from its square (it may pass over or end on it); the pieces it captures stay on the
//! board until the move ends, so they block lines and landings, and a piece already captured is
//! never jumped again. Each complete sequence is handed to a [`Sink`]: the move list keeps one
//! move per start, end and captured set (and, with the majority rule, only the longest), the
//! notation collects the routes.

use std::marker::PhantomData;

use denkmeter_core::Player;

use super::draw;
use super::geometry::{bit, nearest, shifted, Geometry, Squares, NONE};
use super::state::State;
use super::variant::{geometry, man_captures, man_steps, Variant};
use super::Move;

/// The most captures one move can make (a side has at most 50 pieces), plus one.
const MAX_ROUTE: usize = 64;

/// Receives every complete capture sequence.
pub(crate) trait Sink {
    /// A sequence from `from` ending on `to` that captures `captured`; `route` holds the squares
    /// the piece lands on, in order, `to` last.
    fn capture(&mut self, from: u8, to: u8, captured: u64, route: &[u8]);
}

/// The move list: one move per start, end and captured set; with the majority rule only those
/// that capture the most.
struct MoveSink<'a, V> {
    moves: &'a mut Vec<Move>,
    /// The greatest number of pieces captured so far (majority rule).
    best: u32,
    /// Where the moves of the current piece start in `moves` (duplicates share a piece).
    piece_start: usize,
    variant: PhantomData<V>,
}

impl<V: Variant> Sink for MoveSink<'_, V> {
    #[inline(always)]
    fn capture(&mut self, from: u8, to: u8, captured: u64, _route: &[u8]) {
        let count = captured.count_ones();
        if V::MAJORITY {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.best = count;
                self.moves.clear();
                self.piece_start = 0;
            }
        }
        let mv = Move { captured, from, to };
        // One capture is reached by one route only; longer ones may repeat a move.
        if count > 1 && self.moves[self.piece_start..].contains(&mv) {
            return;
        }
        self.moves.push(mv);
    }
}

/// The capture search of one piece.
struct Search<'a, V, S> {
    geo: &'static Geometry,
    /// The opponent's pieces, captured ones included (they stay until the move ends).
    them: u64,
    /// Every piece but the capturing one.
    occupied: u64,
    /// The capturing piece's promotion row.
    far_row: u64,
    from: u8,
    route: [u8; MAX_ROUTE],
    sink: &'a mut S,
    variant: PhantomData<V>,
}

impl<'a, V: Variant, S: Sink> Search<'a, V, S> {
    fn new(state: &State, from: u8, sink: &'a mut S) -> Self {
        let geo = geometry::<V>();
        let us = state.to_move;
        Search {
            geo,
            them: state.pieces[!us],
            occupied: (state.pieces[us] | state.pieces[!us]) & !bit(from),
            far_row: geo.far_row[us.index()],
            from,
            route: [NONE; MAX_ROUTE],
            sink,
            variant: PhantomData,
        }
    }

    /// Short jumps over an adjacent piece in `dirs` to the square just beyond, from `sq` after
    /// capturing `captured` in `depth` jumps. `MAN`: the piece is a man (English men stop when
    /// they reach the far row).
    fn short<const MAN: bool>(&mut self, sq: u8, captured: u64, depth: usize, dirs: u8) {
        let g = self.geo;
        let victims = self.them & !captured;
        let mut found = false;
        let mut m = dirs;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            if g.can_jump[d] & bit(sq) == 0 {
                continue;
            }
            let over = (i32::from(sq) + g.shift[d]) as u8;
            let land = (i32::from(sq) + 2 * g.shift[d]) as u8;
            if victims & bit(over) == 0 || self.occupied & bit(land) != 0 {
                continue;
            }
            found = true;
            let captured = captured | bit(over);
            self.route[depth] = land;
            if MAN && V::CROWNING_ENDS_MOVE && self.far_row & bit(land) != 0 {
                self.sink
                    .capture(self.from, land, captured, &self.route[..=depth]);
            } else {
                self.short::<MAN>(land, captured, depth + 1, dirs);
            }
        }
        if !found && depth > 0 {
            self.sink
                .capture(self.from, sq, captured, &self.route[..depth]);
        }
    }

    /// Long captures of a flying dame from `sq`: along each line over empty squares to one
    /// uncaptured enemy piece, landing on any empty square beyond it before the next piece.
    fn flying(&mut self, sq: u8, captured: u64, depth: usize) {
        let g = self.geo;
        let victims = self.them & !captured;
        let mut found = false;
        let mut m = V::DAME_DIRECTIONS;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let blockers = g.ray[d][usize::from(sq)] & self.occupied;
            if blockers == 0 {
                continue;
            }
            let shift = g.shift[d];
            let victim = nearest(blockers, shift);
            if victims & bit(victim) == 0 {
                continue;
            }
            let beyond = g.ray[d][usize::from(victim)];
            let stops = beyond & self.occupied;
            let landings = if stops == 0 {
                beyond
            } else {
                let stop = nearest(stops, shift);
                beyond & !(g.ray[d][usize::from(stop)] | bit(stop))
            };
            if landings == 0 {
                continue;
            }
            found = true;
            let captured = captured | bit(victim);
            for land in Squares(landings) {
                self.route[depth] = land;
                self.flying(land, captured, depth + 1);
            }
        }
        if !found && depth > 0 {
            self.sink
                .capture(self.from, sq, captured, &self.route[..depth]);
        }
    }
}

/// Hands every complete capture sequence of the piece on `from` (of the side to move) to `sink`.
#[inline(always)]
fn search_piece<V: Variant, S: Sink>(state: &State, from: u8, is_dame: bool, sink: &mut S) {
    let mut search = Search::<V, S>::new(state, from, sink);
    if !is_dame {
        search.short::<true>(from, 0, 0, man_captures::<V>(state.to_move));
    } else if V::FLYING {
        search.flying(from, 0, 0);
    } else {
        search.short::<false>(from, 0, 0, V::DAME_DIRECTIONS);
    }
}

/// Every legal move of the side to move (none if the game is over).
pub(crate) fn legal_moves<V: Variant>(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    let g = geometry::<V>();
    let us = state.to_move;
    let own = state.pieces[us];
    let them = state.pieces[!us];
    let occupied = own | them;
    let empty = g.valid & !occupied;
    let men = own & !state.dames;
    let dames = own & state.dames;

    let jumpers = jumping_men::<V>(us, men, them, empty);
    if jumpers | dames != 0 {
        let mut sink = MoveSink::<V> {
            moves,
            best: 0,
            piece_start: 0,
            variant: PhantomData,
        };
        for from in Squares(jumpers) {
            sink.piece_start = sink.moves.len();
            search_piece::<V, _>(state, from, false, &mut sink);
        }
        for from in Squares(dames) {
            sink.piece_start = sink.moves.len();
            search_piece::<V, _>(state, from, true, &mut sink);
        }
        if !moves.is_empty() {
            return;
        }
    }

    let mut m = man_steps(us);
    while m != 0 {
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        let s = g.shift[d];
        for to in Squares(shifted(men & g.can_step[d], s) & empty) {
            moves.push(Move {
                captured: 0,
                from: (i32::from(to) - s) as u8,
                to,
            });
        }
    }
    for from in Squares(dames) {
        let mut m = V::DAME_DIRECTIONS;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let targets = if V::FLYING {
                let ray = g.ray[d][usize::from(from)];
                let blockers = ray & occupied;
                if blockers == 0 {
                    ray
                } else {
                    let stop = nearest(blockers, g.shift[d]);
                    ray & !(g.ray[d][usize::from(stop)] | bit(stop))
                }
            } else {
                shifted(bit(from) & g.can_step[d], g.shift[d]) & empty
            };
            for to in Squares(targets) {
                moves.push(Move {
                    captured: 0,
                    from,
                    to,
                });
            }
        }
    }
}

/// The men of `us` next to an enemy piece with an empty square beyond it, in a direction they
/// capture in: the men that can start a capture.
#[inline(always)]
fn jumping_men<V: Variant>(us: Player, men: u64, them: u64, empty: u64) -> u64 {
    let g = geometry::<V>();
    let mut jumpers = 0;
    let mut m = man_captures::<V>(us);
    while m != 0 {
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        let s = g.shift[d];
        jumpers |= g.can_jump[d] & shifted(them, -s) & shifted(empty, -2 * s);
    }
    jumpers & men
}

/// Whether the side to move can capture (and so must).
pub(crate) fn has_capture<V: Variant>(state: &State) -> bool {
    let g = geometry::<V>();
    let us = state.to_move;
    let own = state.pieces[us];
    let them = state.pieces[!us];
    let occupied = own | them;
    let empty = g.valid & !occupied;
    if jumping_men::<V>(us, own & !state.dames, them, empty) != 0 {
        return true;
    }
    for from in Squares(own & state.dames) {
        let mut m = V::DAME_DIRECTIONS;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let victim = if V::FLYING {
                let blockers = g.ray[d][usize::from(from)] & occupied;
                if blockers == 0 {
                    continue;
                }
                nearest(blockers, g.shift[d])
            } else {
                g.step[d][usize::from(from)]
            };
            if victim == NONE || them & bit(victim) == 0 {
                continue;
            }
            let beyond = g.step[d][usize::from(victim)];
            if beyond != NONE && empty & bit(beyond) != 0 {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move has a legal move.
pub(crate) fn has_move<V: Variant>(state: &State) -> bool {
    let g = geometry::<V>();
    let us = state.to_move;
    let own = state.pieces[us];
    let empty = g.valid & !(own | state.pieces[!us]);
    let men = own & !state.dames;
    let dames = own & state.dames;
    let steps = |pieces: u64, dirs: u8| {
        (0..8).any(|d| {
            dirs & (1 << d) != 0 && shifted(pieces & g.can_step[d], g.shift[d]) & empty != 0
        })
    };
    if steps(men, man_steps(us)) || steps(dames, V::DAME_DIRECTIONS) {
        return true;
    }
    let mut moves = Vec::new();
    legal_moves::<V>(state, &mut moves);
    !moves.is_empty()
}

/// Whether the move crowns the piece: a man ending its move on the far row.
#[inline(always)]
pub(crate) fn promotes<V: Variant>(state: &State, mv: Move) -> bool {
    let g = geometry::<V>();
    state.dames & bit(mv.from) == 0 && g.far_row[state.to_move.index()] & bit(mv.to) != 0
}

/// Plays a legal move, counting it for the draw rules.
#[inline(always)]
pub(crate) fn play<V: Variant>(state: &mut State, mv: Move) {
    let promotes = promotes::<V>(state, mv);
    let man_moved = state.dames & bit(mv.from) == 0;
    let before = draw::endgame_before::<V>(state, mv, promotes);
    state.apply(mv.from, mv.to, mv.captured, promotes);
    draw::count::<V>(state, mv, man_moved, promotes, before);
}

/// One complete capture sequence: where it ends, what it captures and where it lands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    pub to: u8,
    pub captured: u64,
    pub landings: Vec<u8>,
}

/// Collects every complete capture sequence.
#[derive(Debug, Default)]
struct RouteSink(Vec<Route>);

impl Sink for RouteSink {
    fn capture(&mut self, _from: u8, to: u8, captured: u64, route: &[u8]) {
        self.0.push(Route {
            to,
            captured,
            landings: route.to_vec(),
        });
    }
}

/// Every complete capture sequence of the piece of the side to move on `from`, whether or not
/// the majority rule allows it (none if there is no such piece).
pub(crate) fn capture_routes<V: Variant>(state: &State, from: u8) -> Vec<Route> {
    let mut sink = RouteSink::default();
    let us: Player = state.to_move;
    if state.pieces[us] & bit(from) != 0 {
        let is_dame = state.dames & bit(from) != 0;
        search_piece::<V, _>(state, from, is_dame, &mut sink);
    }
    sink.0
}
