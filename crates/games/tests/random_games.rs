//! Property tests over random games of every game: each move's text reads back as the same
//! move, position strings round-trip with the same repetition hash and (while the game goes
//! on) moves, the hash equals a fresh
//! recomputation, a game has moves exactly while it is not over, the plies to the end (where a
//! game knows them) count down to its end, the score margin agrees with the outcome, and records
//! round-trip. Every ruleset of the list is played.

use denkmeter_core::{Game, Playthrough, Record, RulesetVisitor};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn check_random_game<G: Game>(game: G, seed: u64, max_plies: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut play = Playthrough::new(game.clone());
    let mut moves = Vec::new();
    let mut plies_to_end = game.plies_to_end(play.state()).map(|n| n + 1);
    for _ in 0..max_plies {
        let state = play.state().clone();
        let text = game.position_text(&state);
        let reread = game
            .parse_position(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.position_text(&reread), text);
        // The text says what repetition compares; the full hash may cover more (draughts'
        // draw counts, which a position read from text starts at 0).
        assert_eq!(
            game.repetition_hash(&reread),
            game.repetition_hash(&state),
            "hash of {text}"
        );
        let mut reread_moves = Vec::new();
        game.legal_moves(&reread, &mut reread_moves);
        game.legal_moves(&state, &mut moves);
        if !game.status(&state).is_over() {
            assert_eq!(reread_moves, moves, "moves of {text}");
        }
        let status = game.status(&state);
        assert_eq!(moves.is_empty(), status.is_over(), "{text}");
        let margin = status
            .outcome()
            .and_then(|o| o.score.as_ref())
            .map(|s| s.white - s.black);
        assert_eq!(game.score_margin(&state), margin, "score margin of {text}");
        let left = game.plies_to_end(&state);
        assert_eq!(
            left,
            plies_to_end.map(|n| n - 1),
            "plies to the end of {text}"
        );
        assert!(
            left.map_or(true, |n| (n == 0) == status.is_over()),
            "{text}"
        );
        plies_to_end = left;
        for &mv in &moves {
            let mv_text = game.move_text(&state, mv);
            assert_eq!(
                game.parse_move(&state, &mv_text),
                Ok(mv),
                "{mv_text} in {text}"
            );
        }
        play.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        play.play(mv).expect("a legal move is accepted");
    }
    let record = Record::of(&play, &[("White", "random"), ("Black", "random")]);
    let text = record.to_string();
    let reread: Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(reread, record);
    let replayed = reread
        .replay(game.clone())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.move_texts(), play.move_texts());
    assert_eq!(
        game.position_text(replayed.state()),
        game.position_text(play.state())
    );
    assert_eq!(replayed.status(), play.status());
}

/// Plays one random game of each ruleset it visits.
struct RandomGames {
    seed: u64,
}

impl RulesetVisitor for RandomGames {
    fn visit<G: Game>(&mut self, game: G) {
        check_random_game(game, self.seed, 200);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_of_every_ruleset_hold_invariants(seed in any::<u64>()) {
        denkmeter_games::visit_rulesets(&mut RandomGames { seed });
    }
}
