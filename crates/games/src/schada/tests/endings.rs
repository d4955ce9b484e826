//! The five endings, checked in their order, and the repetition through the game's history.

use denkmeter_core::Playthrough;

use super::*;

fn ending(text: &str) -> Option<String> {
    game().ending(&position(text))
}

#[test]
fn a_player_with_every_high_piece_on_the_goal_line_ends_the_game() {
    // White's only high piece stands on c8; Black still has work to do.
    assert_eq!(
        ending("2F5/8/8/3o4/8/8/8/8 b").as_deref(),
        Some("every high piece of White stands on its goal line")
    );
    // A player with no high piece left meets it too.
    assert_eq!(
        ending("8/8/8/3o4/8/8/P7/8 w").as_deref(),
        Some("every high piece of White stands on its goal line")
    );
    let g = game();
    let state = position("2F5/8/8/3o4/8/8/8/8 b");
    match g.status(&state) {
        Status::Over(o) => {
            assert_eq!(o.winner, Some(Player::White));
            assert_eq!(o.reason, Reason::Score);
        }
        Status::Ongoing => panic!("the game is over"),
    }
    assert!(moves(&state).is_empty(), "a finished game has no moves");
}

#[test]
fn a_player_blocked_by_enemy_pieces_ends_the_game() {
    // White's Officer on d3: S S would return to the base line, c3 and e4 are taken by Black.
    assert_eq!(
        ending("8/8/8/4o3/4p3/2pO4/8/8 w").as_deref(),
        Some("White's high pieces are blocked")
    );
    // Blocked by its own pieces only: the game goes on (the pawns can move).
    assert_eq!(ending("8/8/8/4o3/4P3/2PO4/8/8 w"), None);
}

#[test]
fn the_goal_line_ending_comes_before_the_blocked_one() {
    // Black has no high pieces (ending 1 for Black) and White is blocked (ending 2).
    assert_eq!(
        ending("8/8/8/8/4p3/2pO4/8/8 w").as_deref(),
        Some("every high piece of Black stands on its goal line")
    );
}

#[test]
fn both_players_shuffling_ends_the_game() {
    // White's Officer b1 <-> d1 along its base line, Black's g8 <-> e8 along its own.
    let g = game();
    let mut play = Playthrough::from_state(g.clone(), position("6o1/8/8/8/8/8/8/1O6 w"));
    for mv in ["b1-d1", "g8-e8", "d1-b1"] {
        play.play_text(mv).unwrap();
    }
    assert!(!play.status().is_over(), "Black has not shuffled back yet");
    play.play_text("e8-g8").unwrap();
    match play.status() {
        Status::Over(o) => {
            assert_eq!(o.reason, Reason::Score);
            assert!(
                o.score
                    .unwrap()
                    .breakdown
                    .starts_with("both players shuffled"),
                "the ending says why"
            );
        }
        Status::Ongoing => panic!("both players shuffled"),
    }
    // The position alone does not show it: it is the history's business, like repetition.
    assert_eq!(g.ending(play.state()), None);
    // One player shuffling is not enough: a pawn going back and forth is no shuffle.
    let mut pawns = Playthrough::from_state(g.clone(), position("6Oo/8/8/8/8/8/8/Fp6 w"));
    for mv in ["g8-e8", "b1-d1", "e8-g8", "d1-b1"] {
        pawns.play_text(mv).unwrap();
    }
    assert!(!pawns.status().is_over());
}

#[test]
fn the_third_repetition_ends_the_game_and_it_is_scored() {
    // White's Officer shuffles on its goal line, Black's pawn on rank 1: no shuffling ending.
    let g = game();
    let start = position("6Oo/8/8/8/8/8/8/Fp6 w");
    let mut game = Playthrough::from_state(g.clone(), start);
    for _ in 0..2 {
        for mv in ["g8-e8", "b1-d1", "e8-g8", "d1-b1"] {
            assert!(!game.status().is_over());
            game.play_text(mv).unwrap();
        }
    }
    match game.status() {
        Status::Over(o) => {
            assert_eq!(o.reason, Reason::Repetition);
            assert_eq!(o.winner, Some(Player::White), "{o}");
            assert_eq!(o.score.map(|s| (s.white, s.black)), Some((1, 0)));
        }
        Status::Ongoing => panic!("the third repetition ends the game"),
    }
}

#[test]
fn a_player_without_a_move_ends_the_game() {
    // White's Officer on h1 is hemmed in by its own pawns and Black's Officer on g1 (on its
    // goal line, so it cannot be taken); the pawns are stuck behind Black's pawns. With its own
    // pieces lifted the Officer could go to f3, so White is not blocked: it just cannot move.
    let text = "o7/8/8/8/8/4p1pp/5PPP/6oO w";
    assert_eq!(ending(text).as_deref(), Some("White cannot move"));
}
