//! The draws by counting moves, for the rulesets whose governing bodies have them (see the
//! [`Variant`] constants [`Variant::QUIET_PLY_LIMIT`] and [`Variant::ENDGAME_RULES`]):
//!
//! - International draughts (FMJD): 25 moves of each player with only kings moving and no
//!   capture; 16 moves of each player once a lone king faces three pieces, a king among them;
//!   5 moves of each once it faces one or two pieces, a king among them.
//! - English checkers (English Draughts Association): 40 moves of each player without a man
//!   moving and without a capture.
//!
//! The counts live in the [`State`] (plies, like chess's half-move clock), so that `status`
//! and the search see them. A position read from text starts with both counts at 0.

use denkmeter_core::{zobrist, Outcome, Player, Reason};

use super::state::State;
use super::variant::Variant;
use super::Move;

/// Plies of the 16-move rule: 16 moves of each player.
pub const SIXTEEN_MOVE_PLIES: u8 = 32;
/// Plies of the 5-move rule: 5 moves of each player.
pub const FIVE_MOVE_PLIES: u8 = 10;

/// The endgames of the FMJD's move-counting rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Endgame {
    /// A lone king against three pieces, at least one of them a king.
    Sixteen,
    /// A lone king against one or two pieces, at least one of them a king.
    Five,
}

impl Endgame {
    /// The plies the players may play in this endgame before the game is drawn.
    pub(crate) const fn plies(self) -> u8 {
        match self {
            Endgame::Sixteen => SIXTEEN_MOVE_PLIES,
            Endgame::Five => FIVE_MOVE_PLIES,
        }
    }

    const fn reason(self) -> Reason {
        match self {
            Endgame::Sixteen => Reason::SixteenMoveRule,
            Endgame::Five => Reason::FiveMoveRule,
        }
    }
}

/// The endgame of the FMJD's rules that `state` is in, if any.
#[inline(always)]
pub(crate) fn endgame(state: &State) -> Option<Endgame> {
    if (state.pieces.white | state.pieces.black).count_ones() > 4 {
        return None;
    }
    for lone in Player::BOTH {
        let own = state.pieces[lone];
        let other = state.pieces[!lone];
        if own.count_ones() == 1 && own & state.dames != 0 && other & state.dames != 0 {
            return match other.count_ones() {
                3 => Some(Endgame::Sixteen),
                _ => Some(Endgame::Five),
            };
        }
    }
    None
}

/// The endgame `state` is in before `mv` is played, where the move can change it (a capture
/// or a crowning); `None` where it cannot or the ruleset has no endgame rules.
#[inline(always)]
pub(crate) fn endgame_before<V: Variant>(
    state: &State,
    mv: Move,
    promotes: bool,
) -> Option<Endgame> {
    if V::ENDGAME_RULES && (mv.is_capture() || promotes) {
        endgame(state)
    } else {
        None
    }
}

/// Brings the counts of `state`, just after `mv` was played in it, up to date. `man_moved`:
/// the piece that moved was a man; `before`: [`endgame_before`].
#[inline(always)]
pub(crate) fn count<V: Variant>(
    state: &mut State,
    mv: Move,
    man_moved: bool,
    promotes: bool,
    before: Option<Endgame>,
) {
    if V::QUIET_PLY_LIMIT > 0 {
        state.quiet = if man_moved || mv.is_capture() {
            0
        } else {
            state.quiet.saturating_add(1)
        };
    }
    if V::ENDGAME_RULES {
        let now = endgame(state);
        state.endgame = match now {
            None => 0,
            // Only a capture or a crowning changes the endgame; a new one is counted from
            // the position where it arose, but a count already running still ends the game
            // when it runs out (the 16 moves stay a maximum after a capture leads into the
            // 5-move endgame).
            Some(now) if (mv.is_capture() || promotes) && before != Some(now) => match before {
                Some(old) => {
                    let left = old.plies().saturating_sub(state.endgame.saturating_add(1));
                    now.plies().saturating_sub(left.min(now.plies()))
                }
                None => 0,
            },
            Some(_) => state.endgame.saturating_add(1),
        };
    }
}

/// Whether an endgame database's win or loss in `plies` plies (ignoring the counts) stands
/// under the ruleset's counting rules from `state`: always without such rules; otherwise only
/// if no count can run out first. The quiet count only grows by one a ply or starts again at
/// 0; a lone-king endgame's count that starts later has at least the 5-move rule's plies, and
/// one that runs now only loses plies when the endgame changes. Unknown plies: not known to
/// stand. (Cautious: a win of International draughts stands only if shorter than ten plies.)
pub(crate) fn table_result_stands<V: Variant>(state: &State, plies: Option<u32>) -> bool {
    if V::QUIET_PLY_LIMIT == 0 && !V::ENDGAME_RULES {
        return true;
    }
    let Some(plies) = plies else {
        return false;
    };
    if V::QUIET_PLY_LIMIT > 0 && plies + u32::from(state.quiet) >= u32::from(V::QUIET_PLY_LIMIT) {
        return false;
    }
    if V::ENDGAME_RULES {
        // A running count may also stop (the lone king takes the last enemy king) and a new
        // 5-move count start later (a man crowns), so never more than the 5-move rule's plies.
        let left = match endgame(state) {
            Some(now) => u32::from(now.plies().saturating_sub(state.endgame)),
            None => u32::from(FIVE_MOVE_PLIES),
        }
        .min(u32::from(FIVE_MOVE_PLIES));
        if plies >= left {
            return false;
        }
    }
    true
}

/// The draw the counts of `state` call, if any.
#[inline(always)]
pub(crate) fn outcome<V: Variant>(state: &State) -> Option<Outcome> {
    if V::ENDGAME_RULES && state.endgame >= FIVE_MOVE_PLIES {
        if let Some(endgame) = endgame(state) {
            if state.endgame >= endgame.plies() {
                return Some(Outcome::draw(endgame.reason()));
            }
        }
    }
    if V::QUIET_PLY_LIMIT > 0 && state.quiet >= V::QUIET_PLY_LIMIT {
        return Some(Outcome::draw(V::QUIET_REASON));
    }
    None
}

/// Whether a count has run out (a cheap test first: the counts are small in almost every
/// position).
#[inline(always)]
pub(crate) fn counted_out<V: Variant>(state: &State) -> bool {
    (V::QUIET_PLY_LIMIT > 0 && state.quiet >= V::QUIET_PLY_LIMIT)
        || (V::ENDGAME_RULES && state.endgame >= FIVE_MOVE_PLIES && outcome::<V>(state).is_some())
}

/// The Zobrist key family of the counts.
const ZOBRIST_TABLE: u64 = 0xD4A0_6176;
/// Multiplied by the quiet count and xored into the hash.
const QUIET_KEY: u64 = zobrist::key(ZOBRIST_TABLE, 0);
/// Multiplied by the endgame count and xored into the hash.
const ENDGAME_KEY: u64 = zobrist::key(ZOBRIST_TABLE, 1);

/// The hash of the whole state, counts included, for the search's table (whose scores depend
/// on how near a draw by counting is): the position's own hash where both counts are 0, as
/// they always are in the rulesets without these rules.
#[inline(always)]
pub(crate) fn hash(state: &State) -> u64 {
    state.hash
        ^ QUIET_KEY.wrapping_mul(u64::from(state.quiet))
        ^ ENDGAME_KEY.wrapping_mul(u64::from(state.endgame))
}
