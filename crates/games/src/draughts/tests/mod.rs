//! One test per rule of `shared/rules/scandinavian.md` and `shared/rules/draughts-reference.md`
//! and per fact they list, plus cross-checks: published perft counts, a slow obvious move
//! generator, hash recomputation, notation and position round trips over random games.

use std::collections::BTreeSet;

use denkmeter_core::perft::perft;
use denkmeter_core::{Game, MoveError, Player};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::geometry::{bit, Squares};
use super::*;

type Scandinavian8x8Rules = ScandinavianRules<8, STRONG, true>;

/// Perft from the start (`None`) or a position string, depths 1 to n.
type PerftFn = Box<dyn Fn(Option<&str>, u32) -> Result<Vec<u64>, denkmeter_core::PositionError>>;

/// What the tests read of a ruleset this module lists.
struct Listed {
    facts: denkmeter_core::Facts,
    cells: usize,
    start_position: String,
    perft: PerftFn,
}

impl Listed {
    fn name(&self) -> &'static str {
        self.facts.name
    }
}

/// Every ruleset of this module, in its order.
fn rulesets() -> Vec<Listed> {
    struct Collect(Vec<Listed>);
    impl denkmeter_core::RulesetVisitor for Collect {
        fn visit<G: Game>(&mut self, game: G) {
            let start_position = game.position_text(&game.start());
            self.0.push(Listed {
                facts: *game.facts(),
                cells: game.board().len(),
                start_position,
                perft: Box::new(move |position, depth| {
                    let state = match position {
                        Some(text) => game.parse_position(text)?,
                        None => game.start(),
                    };
                    Ok((1..=depth).map(|d| perft(&game, &state, d)).collect())
                }),
            });
        }
    }
    let mut all = Collect(Vec::new());
    super::rulesets(&mut all);
    all.0
}

// ---------------------------------------------------------------- helpers

/// A position string of ruleset `V` from `"D:c4 m:b5 ..."` and the side to move.
fn setup<V: Variant>(pieces: &str, side: char) -> String {
    let size = V::SIZE;
    let mut cells = vec![None; size * size];
    for token in pieces.split_whitespace() {
        let (letter, name) = token.split_once(':').unwrap();
        let file = usize::from(name.as_bytes()[0] - b'a');
        let rank: usize = name[1..].parse().unwrap();
        cells[file + (rank - 1) * size] = Some(letter.chars().next().unwrap());
    }
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..size {
                match cells[file + rank * size] {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(c);
                    }
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            row
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

fn position<V: Variant>(text: &str) -> State {
    Draughts::<V>::new()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn state<V: Variant>(pieces: &str, side: char) -> State {
    position::<V>(&setup::<V>(pieces, side))
}

/// `s` as text keeps it: the draw rules' counts at 0.
fn uncounted(s: &State) -> State {
    State {
        quiet: 0,
        endgame: 0,
        ..s.clone()
    }
}

fn legal<V: Variant>(s: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    Draughts::<V>::new().legal_moves(s, &mut moves);
    moves
}

/// The legal moves' texts by square names (as the rules are written, whatever the ruleset
/// shows), sorted.
fn texts<V: Variant>(s: &State) -> Vec<String> {
    let mut v: Vec<String> = legal::<V>(s)
        .into_iter()
        .map(|m| super::notation::move_text::<V>(s, m))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play<V: Variant>(s: &State, text: &str) -> State {
    let game = Draughts::<V>::new();
    let mv = game
        .parse_move(s, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = s.clone();
    game.play_unchecked(&mut next, mv);
    next
}

fn perft_counts<V: Variant>(s: &State, depth: u32) -> Vec<u64> {
    let game = Draughts::<V>::new();
    (1..=depth).map(|d| perft(&game, s, d)).collect()
}

/// Runs `$check::<V>()` for the variant of every ruleset.
macro_rules! for_every_ruleset {
    ($check:ident) => {
        $check::<ScandinavianRules<10, STRONG, true>>();
        $check::<ScandinavianRules<10, STRONG, false>>();
        $check::<ScandinavianRules<10, MEDIUM, true>>();
        $check::<ScandinavianRules<10, MEDIUM, false>>();
        $check::<ScandinavianRules<10, WEAK, true>>();
        $check::<ScandinavianRules<10, WEAK, false>>();
        $check::<ScandinavianRules<8, STRONG, true>>();
        $check::<ScandinavianRules<8, STRONG, false>>();
        $check::<ScandinavianRules<8, MEDIUM, true>>();
        $check::<ScandinavianRules<8, MEDIUM, false>>();
        $check::<ScandinavianRules<8, WEAK, true>>();
        $check::<ScandinavianRules<8, WEAK, false>>();
        $check::<InternationalRules>();
        $check::<EnglishRules>();
    };
}

/// Plays `games` random games of at most `plies` plies of ruleset `V` and calls `check` before
/// every move.
fn random_games<V: Variant>(
    seed: u64,
    games: usize,
    plies: usize,
    mut check: impl FnMut(&State, &[Move]),
) {
    let game = Draughts::<V>::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = game.start();
        for _ in 0..plies {
            game.legal_moves(&s, &mut moves);
            check(&s, &moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut s, mv);
        }
    }
}

/// A random position of ruleset `V`: a few men and dames of each side on random dark squares.
fn random_position<V: Variant>(rng: &mut impl Rng) -> State {
    let g = geometry::<V>();
    let squares: Vec<u8> = Squares(g.valid).collect();
    let mut pieces = ByPlayer::new(0, 0);
    let mut dames = 0;
    let count = rng.gen_range(2..squares.len() / 2);
    for _ in 0..count {
        let sq = squares[rng.gen_range(0..squares.len())];
        if (pieces.white | pieces.black) & bit(sq) != 0 {
            continue;
        }
        let owner = if rng.gen_bool(0.5) {
            Player::White
        } else {
            Player::Black
        };
        let dame = rng.gen_bool(0.2) || g.far_row[owner.index()] & bit(sq) != 0;
        pieces[owner] |= bit(sq);
        if dame {
            dames |= bit(sq);
        }
    }
    let side = if rng.gen_bool(0.5) {
        Player::White
    } else {
        Player::Black
    };
    State::new(pieces, dames, side)
}

// The sections come after the helpers: `for_every_ruleset!` is in scope only below its
// definition.
mod board_and_setup;
mod bookkeeping;
mod captures;
mod cross_check;
mod dames;
mod draws;
mod dxp;
mod egtb;
mod end;
mod facts;
mod fen;
mod hub;
mod men;
mod move_text;
mod patterns;
mod perft;
mod positions;
mod promotion;
mod slow;
mod tuning;
