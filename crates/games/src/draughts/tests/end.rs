//! The end of the game.

use denkmeter_core::{Reason, Status};

use super::*;

#[test]
fn a_player_who_cannot_move_loses() {
    type E = EnglishRules;
    let game = English::new();
    // White's man on a1 is blocked by b2, which it cannot jump (c3 is occupied).
    let s = state::<E>("M:a1 m:b2 m:c3", 'w');
    assert!(legal::<E>(&s).is_empty());
    assert_eq!(
        game.status(&s),
        Status::Over(Outcome::win(Player::Black, Reason::NoMoves))
    );
    assert_eq!(perft_counts::<E>(&s, 2), [0, 0]);
    // The same position with Black to move goes on.
    assert_eq!(
        game.status(&state::<E>("M:a1 m:b2 m:c3", 'b')),
        Status::Ongoing
    );
    // A side without pieces has lost.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:d3", 'b');
    assert_eq!(
        Scandinavian8x8::new().status(&s),
        Status::Over(Outcome::win(Player::White, Reason::NoMoves))
    );
    // After the last capture the game is over.
    let s = state::<V>("M:d3 m:d5", 'w');
    let after = play::<V>(&s, "d3xd7");
    assert!(Scandinavian8x8::new().status(&after).is_over());
    assert!(legal::<V>(&after).is_empty());
}

#[test]
fn status_agrees_with_the_legal_moves() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..300 {
            let s = random_position::<V>(&mut rng);
            assert_eq!(
                game.status(&s).is_over(),
                legal::<V>(&s).is_empty(),
                "{}",
                game.position_text(&s)
            );
        }
    }
    for_every_ruleset!(check);
}
