//! What each viewer is shown: the observation, views, move texts and move views never reveal
//! a king the viewer may not see; determinization completes an observation consistently.

use denkmeter_core::random_play::random_states;
use denkmeter_core::{Game, Player, Viewer};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{game, position};
use crate::trangalla::state::{points, State};
use crate::trangalla::{KING, UNKNOWN};

const EXAMPLE: &str = "2ss1/3ks/S3s/SK3/1SS2 w";

fn kinds(state: &State, viewer: Viewer) -> Vec<(String, &'static str)> {
    let g = game();
    let mut out: Vec<_> = g
        .position_view(state, viewer)
        .pieces
        .iter()
        .map(|p| (g.board().name(p.cell).to_string(), p.kind))
        .collect();
    out.sort();
    out
}

#[test]
fn each_player_sees_his_own_king_and_only_colours_of_the_other_side() {
    let state = position(EXAMPLE);
    let white = kinds(&state, Viewer::Player(Player::White));
    assert!(white.contains(&("b2".to_string(), KING)));
    assert!(white.contains(&("d4".to_string(), UNKNOWN)));
    assert_eq!(white.iter().filter(|(_, k)| *k == KING).count(), 1);
    let black = kinds(&state, Viewer::Player(Player::Black));
    assert!(black.contains(&("d4".to_string(), KING)));
    assert!(black.contains(&("b2".to_string(), UNKNOWN)));
    let spectator = kinds(&state, Viewer::Spectator);
    assert!(
        spectator.iter().all(|(_, k)| *k == UNKNOWN),
        "{spectator:?}"
    );
    let everyone = kinds(&state, Viewer::Everyone);
    assert_eq!(everyone.iter().filter(|(_, k)| *k == KING).count(), 2);
}

#[test]
fn a_flipped_piece_is_known_to_be_a_soldier() {
    // White flips Black's soldier on c3 (c2xc4): it is White's now, and nobody can take it
    // for White's king, since a king cannot be flipped.
    let g = game();
    let mut state = position("k4/3S1/2s2/2S2/4K w");
    let mv = g.parse_move(&state, "c2xc4").expect("legal");
    g.play_unchecked(&mut state, mv);
    let black = kinds(&state, Viewer::Player(Player::Black));
    assert!(black.contains(&("c3".to_string(), "soldier")), "{black:?}");
    let candidates = g
        .observation(&state, Player::Black)
        .king_candidates(Player::White);
    assert!(!candidates.contains(&g.board().cell_by_name("c3").expect("c3")));
}

#[test]
fn the_other_players_setup_move_reads_k_at_question_mark() {
    let g = game();
    let text = "K@b2";
    assert_eq!(
        g.move_text_for(text, Player::White, Viewer::Player(Player::Black)),
        "K@?"
    );
    assert_eq!(
        g.move_text_for(text, Player::White, Viewer::Spectator),
        "K@?"
    );
    assert_eq!(
        g.move_text_for(text, Player::White, Viewer::Player(Player::White)),
        text
    );
    assert_eq!(g.move_text_for(text, Player::White, Viewer::Everyone), text);
    assert_eq!(
        g.move_text_for("b2-c2", Player::White, Viewer::Spectator),
        "b2-c2"
    );
}

#[test]
fn a_jump_on_offer_does_not_say_whether_it_takes_the_king() {
    let g = game();
    let state = position("s4/5/2k2/2S2/4K w");
    let mv = g.parse_move(&state, "c2xc4").expect("legal");
    let truth = g.move_view(&state, mv);
    assert_eq!(truth.captured.len(), 1, "the truth: the king is taken");
    let offered = g.move_view_for(&state, mv, Viewer::Player(Player::White));
    assert!(offered.captured.is_empty());
    assert_eq!(offered.flipped, truth.captured);
}

/// `state` with `player`'s king moved to `to` (one of his never-flipped pieces).
fn king_moved(state: &State, player: Player, to: u8) -> State {
    let mut other = state.clone();
    other.kings &= !state.pieces[player];
    other.kings |= 1 << to;
    other
}

/// Everything `viewer` is given in `state`, as text: the view, the observation (for a player)
/// and, when he is to move, the moves on offer and what they show.
fn given(state: &State, viewer: Viewer) -> String {
    let g = game();
    let mut out = format!("{:?}", g.position_view(state, viewer));
    if let Viewer::Player(player) = viewer {
        out += &format!("{:?}", g.observation(state, player));
        if state.to_move == player {
            let mut moves = Vec::new();
            g.legal_moves(state, &mut moves);
            for mv in moves {
                out += &g.move_text(state, mv);
                out += &format!("{:?}", g.move_view_for(state, mv, viewer));
            }
        }
    }
    out
}

#[test]
fn no_viewer_is_given_anything_that_depends_on_a_king_he_may_not_see() {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7a11);
    let mut checked = 0;
    // A finished game shows everything to everyone.
    let unfinished = random_states(&g, &mut rng, 200, 60)
        .into_iter()
        .filter(|s| !g.status(s).is_over());
    for state in unfinished {
        for hidden in Player::BOTH {
            let Some(king) = state.king(hidden) else {
                continue;
            };
            for candidate in points(state.pieces[hidden] & state.unflipped) {
                if u16::from(candidate) == king.0 {
                    continue;
                }
                let other = king_moved(&state, hidden, candidate);
                for viewer in [Viewer::Player(!hidden), Viewer::Spectator] {
                    assert_eq!(
                        given(&state, viewer),
                        given(&other, viewer),
                        "{viewer:?} tells {} from {}",
                        g.position_text(&state),
                        g.position_text(&other)
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} pairs");
}

#[test]
fn determinizing_an_observation_keeps_what_was_observed() {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7a12);
    for state in random_states(&g, &mut rng, 100, 40) {
        for player in Player::BOTH {
            let seen = g.observation(&state, player);
            let full = g.determinize(&seen, player, &mut rng);
            assert_eq!(g.observation(&full, player), seen);
            assert!(!full.hides_king_of(!player));
            assert_eq!(full.king(player), state.king(player), "his own king stays");
            if let Some(king) = full.king(!player) {
                assert!(seen.king_candidates(!player).contains(&king));
            }
        }
    }
}

#[test]
fn determinizing_reaches_every_candidate() {
    let g = game();
    let seen = g.observation(&position(EXAMPLE), Player::White);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut kings: Vec<_> = (0..200)
        .filter_map(|_| {
            g.determinize(&seen, Player::White, &mut rng)
                .king(Player::Black)
        })
        .collect();
    kings.sort();
    kings.dedup();
    assert_eq!(kings.len(), 5, "any of Black's five pieces may be his king");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An observation is the same whichever of the other side's candidates is the king.
    #[test]
    fn an_observation_never_reveals_the_other_king(seed in any::<u64>(), pick in 0usize..10) {
        let g = game();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for state in random_states(&g, &mut rng, 1, 50) {
            if g.status(&state).is_over() {
                continue;
            }
            for player in Player::BOTH {
                let candidates: Vec<u8> =
                    points(state.pieces[!player] & state.unflipped).collect();
                if state.king(!player).is_none() || candidates.is_empty() {
                    continue;
                }
                let other = king_moved(&state, !player, candidates[pick % candidates.len()]);
                prop_assert_eq!(g.observation(&state, player), g.observation(&other, player));
                prop_assert_eq!(
                    g.position_view(&state, Viewer::Player(player)),
                    g.position_view(&other, Viewer::Player(player))
                );
            }
        }
    }
}

#[test]
fn parse_position_and_moves_never_panic_on_junk() {
    let g = game();
    let state = position(EXAMPLE);
    for text in [
        "\u{0}",
        "5/5/5/5/5 w setup setup",
        "9/5/5/5/5 w",
        "K@",
        "a1xa1",
        "xx",
        "-",
    ] {
        let _ = g.parse_position(text);
        let _ = g.parse_move(&state, text);
    }
}
