//! The Sjekkers evaluation, in hundredths of a disk, in the spirit of the draughts one:
//! material with a Sjek's worth per ruleset, then the disks' advancement towards the far row,
//! the centre, the far row kept guarded, disks backed from behind, runaway disks and the Sjeks'
//! mobility. Every term is counted on bitboards with masks made at compile time; every term is
//! counted alike for both sides, so the score for the side to move is its own terms less the
//! opponent's.

use denkmeter_core::Player;

use super::state::{at, bit, coords, nearest, ray, Crossings, State, CELLS, FAR_ROW, TABLES};
use super::Move;

/// A disk.
pub(crate) const DISK: i32 = 100;
/// A Sjek where it flies along whole lines and captures from afar (`sjekkers`,
/// `sjekkers-sideways`): six lines on a board of 61 crossings.
pub(crate) const FLYING_SJEK: i32 = 300;
/// A Sjek that steps one crossing at a time, though in all six directions
/// (`sjekkers-checkers`).
pub(crate) const STEPPING_SJEK: i32 = 170;
/// By rows advanced from the own first row (0) to the row before the far one (7).
const ADVANCE: [i32; 8] = [0, 2, 5, 9, 14, 20, 27, 35];
/// A disk within two steps of the centre e5.
const CENTRE: i32 = 5;
/// A disk still on the own first row, while the opponent has disks to promote.
const FIRST_ROW: i32 = 6;
/// A disk with an own piece on a crossing directly behind it.
const BACKED: i32 = 3;
/// A disk no enemy piece stands in the way of, when the opponent has no Sjek: this at the row
/// before the far one, less `RUNAWAY_STEP` for each row farther.
const RUNAWAY: i32 = 70;
const RUNAWAY_STEP: i32 = 15;
/// Each crossing a Sjek can move to.
const SJEK_MOBILITY: i32 = 2;

/// A Sjek's worth in the ruleset.
#[inline]
pub(crate) const fn sjek<const FLYING: bool>() -> i32 {
    if FLYING {
        FLYING_SJEK
    } else {
        STEPPING_SJEK
    }
}

/// The masks the evaluation counts with.
struct Masks {
    /// `rows[p][k]`: the crossings `k` rows ahead of player `p`'s first row.
    rows: [[u64; 9]; 2],
    centre: u64,
    /// `behind[p][sq]`: the up to two crossings directly behind `sq` for player `p`.
    behind: [[u64; CELLS]; 2],
    /// `cone[p][sq]`: the crossings ahead of `sq` for player `p` from which an enemy piece
    /// could step into a disk's path or take it (the triangle widening towards the far row,
    /// one crossing wider on each side).
    cone: [[u64; CELLS]; 2],
}

const fn build_masks() -> Masks {
    let mut m = Masks {
        rows: [[0; 9]; 2],
        centre: 0,
        behind: [[0; CELLS]; 2],
        cone: [[0; CELLS]; 2],
    };
    let mut sq = 0;
    while sq < CELLS {
        let (r, n) = coords(sq as u8);
        let (r, n) = (r as i32, n as i32);
        m.rows[0][r as usize] |= bit(sq as u8);
        m.rows[1][8 - r as usize] |= bit(sq as u8);
        let (dr, dn) = (r - 4, n - 5);
        if dr.abs() <= 2 && dn.abs() <= 2 && (dr - dn).abs() <= 2 {
            m.centre |= bit(sq as u8);
        }
        // Behind White: the two backward neighbours (r-1, n-1) and (r-1, n); behind Black:
        // (r+1, n) and (r+1, n+1).
        m.behind[0][sq] = crossing(r - 1, n - 1) | crossing(r - 1, n);
        m.behind[1][sq] = crossing(r + 1, n) | crossing(r + 1, n + 1);
        let mut other = 0;
        while other < CELLS {
            let (r2, n2) = coords(other as u8);
            let (r2, n2) = (r2 as i32, n2 as i32);
            // White's disk reaches numbers n..n+k on the row k ahead; Black's n-k..n.
            if r2 > r {
                let k = r2 - r;
                if n2 >= n - 1 && n2 <= n + k + 1 {
                    m.cone[0][sq] |= bit(other as u8);
                }
            }
            if r2 < r {
                let k = r - r2;
                if n2 >= n - k - 1 && n2 <= n + 1 {
                    m.cone[1][sq] |= bit(other as u8);
                }
            }
            other += 1;
        }
        sq += 1;
    }
    m
}

/// The bit of the crossing at row `r`, number `n`, or nothing off the board.
const fn crossing(r: i32, n: i32) -> u64 {
    match at(r, n) {
        Some(sq) => bit(sq),
        None => 0,
    }
}

static MASKS: Masks = build_masks();

/// What `mv` wins at once: the pieces it captures, and a Sjek's worth over a disk when a disk
/// ends on its far row.
#[inline]
pub(crate) fn move_gain<const FLYING: bool>(state: &State, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let sjeks = (mv.captured & state.sjeks).count_ones() as i32;
    let disks = mv.captured.count_ones() as i32 - sjeks;
    let mut gain = disks * DISK + sjeks * sjek::<FLYING>();
    let disk = state.sjeks & bit(mv.from) == 0;
    if disk && FAR_ROW[state.to_move] & bit(mv.to) != 0 {
        gain += sjek::<FLYING>() - DISK;
    }
    gain
}

/// The evaluation for the side to move.
pub(crate) fn evaluate<const FLYING: bool>(state: &State) -> i32 {
    let us = state.to_move;
    side::<FLYING>(state, us) - side::<FLYING>(state, !us)
}

/// One side's terms.
fn side<const FLYING: bool>(state: &State, p: Player) -> i32 {
    let m = &MASKS;
    let pi = p.index();
    let own = state.pieces[p];
    let them = state.pieces[!p];
    let disks = own & !state.sjeks;
    let sjeks = own & state.sjeks;
    let enemy_disks = them & !state.sjeks;
    let enemy_sjeks = them & state.sjeks;

    let mut score = disks.count_ones() as i32 * DISK + sjeks.count_ones() as i32 * sjek::<FLYING>();
    for (row, &weight) in ADVANCE.iter().enumerate().skip(1) {
        score += weight * (disks & m.rows[pi][row]).count_ones() as i32;
    }
    score += CENTRE * (disks & m.centre).count_ones() as i32;
    if enemy_disks != 0 {
        score += FIRST_ROW * (disks & m.rows[pi][0]).count_ones() as i32;
    }
    for sq in Crossings(disks) {
        let s = usize::from(sq);
        if own & m.behind[pi][s] != 0 {
            score += BACKED;
        }
        if enemy_sjeks == 0 && them & m.cone[pi][s] == 0 {
            let (r, _) = coords(sq);
            let rows_left = match p {
                Player::White => 8 - r,
                Player::Black => r,
            } as i32;
            score += (RUNAWAY - RUNAWAY_STEP * (rows_left - 1)).max(0);
        }
    }
    if sjeks != 0 {
        let occupied = own | them;
        let mut reach = 0;
        for sq in Crossings(sjeks) {
            if FLYING {
                for d in 0..6 {
                    let line = ray(sq, d);
                    let blockers = line & occupied;
                    reach += if blockers == 0 {
                        line.count_ones()
                    } else {
                        let stop = nearest(blockers, d);
                        (line & !(ray(stop, d) | bit(stop))).count_ones()
                    };
                }
            } else {
                reach += (TABLES.around[usize::from(sq)] & !occupied).count_ones();
            }
        }
        score += SJEK_MOBILITY * reach as i32;
    }
    score
}

/// The position with colours swapped and the board turned half round, which maps crossing
/// `sq` to `60 - sq` (for tests).
#[cfg(test)]
pub(crate) fn mirrored(state: &State) -> State {
    use denkmeter_core::ByPlayer;
    let turn = |bb: u64| Crossings(bb).fold(0u64, |t, sq| t | bit(CELLS as u8 - 1 - sq));
    State::from_parts(
        ByPlayer::new(turn(state.pieces.black), turn(state.pieces.white)),
        turn(state.sjeks),
        !state.to_move,
    )
}

#[cfg(test)]
mod tests {
    use super::super::state::ALL;
    use super::*;

    #[test]
    fn masks_see_the_board_from_each_side() {
        let m = &MASKS;
        for p in 0..2 {
            let all = m.rows[p].iter().fold(0, |a, r| a | r);
            assert_eq!(all, ALL);
            assert_eq!(m.rows[p][0].count_ones(), 5);
            assert_eq!(m.rows[p][4].count_ones(), 9);
        }
        assert_eq!(m.centre.count_ones(), 19);
        // a1's cone for White on the next row: b1 to b3.
        assert_eq!(m.cone[0][0] & m.rows[0][1], 0b111 << 5);
        // The turned board sees the same from Black's side.
        for sq in 0..CELLS {
            let turned = CELLS - 1 - sq;
            assert_eq!(
                m.cone[0][sq].count_ones(),
                m.cone[1][turned].count_ones(),
                "{sq}"
            );
            assert_eq!(
                m.behind[0][sq].count_ones(),
                m.behind[1][turned].count_ones()
            );
        }
    }
}
