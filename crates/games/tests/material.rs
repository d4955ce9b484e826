//! `Game::material`: White's pieces minus Black's, in hundredths of each game's basic piece, as
//! a match adjudicates a game stopped at its ply limit.

use denkmeter_core::{Game, RulesetVisitor};
use denkmeter_games::chad::Chad;
use denkmeter_games::draughts::{English, International, Scandinavian8x8};
use denkmeter_games::fort_chitral::FortChitral;
use denkmeter_games::kamelen::Kamelen;
use denkmeter_games::schada::Schada;
use denkmeter_games::shakti::Shakti;
use denkmeter_games::sjekkers::Sjekkers;
use denkmeter_games::straat::Straat;
use denkmeter_games::trangalla::Trangalla;

/// The material of a position string.
fn material<G: Game>(game: &G, position: &str) -> Option<i32> {
    let state = game
        .parse_position(position)
        .unwrap_or_else(|e| panic!("{}: {position}: {e}", game.name()));
    game.material(&state)
}

/// A dame is worth what the evaluation gives it in each ruleset: 450 where it flies along every
/// line (Scandinavian), 320 where it flies along the diagonals (International), 150 where it
/// steps (English).
#[test]
fn draughts_counts_a_man_100_and_a_dame_by_the_ruleset() {
    let game = Scandinavian8x8::new();
    assert_eq!(game.material(&game.start()), Some(0));
    assert_eq!(material(&game, "D7/8/8/8/8/8/8/1d6 w"), Some(0));
    assert_eq!(material(&game, "D7/8/8/8/8/8/8/1M6 w"), Some(550));
    assert_eq!(material(&game, "m7/8/8/8/8/8/8/1D6 b"), Some(350));
    // From White's side whoever is to move.
    assert_eq!(material(&game, "m7/8/8/8/8/8/8/7d w"), Some(-550));
    assert_eq!(material(&game, "m7/8/8/8/8/8/8/7d b"), Some(-550));
    let game = English::new();
    assert_eq!(material(&game, "8/8/8/8/8/8/8/M7 w"), Some(100));
    assert_eq!(material(&game, "8/8/8/8/8/8/8/D7 w"), Some(150));
    let game = International::new();
    assert_eq!(game.material(&game.start()), Some(0));
    assert_eq!(
        material(&game, "10/10/10/10/10/10/10/10/10/D9 w"),
        Some(320)
    );
}

#[test]
fn sjekkers_counts_a_disk_100_and_a_sjek_300() {
    let game = Sjekkers::new();
    assert_eq!(game.material(&game.start()), Some(0));
    assert_eq!(material(&game, "S4/6/7/8/9/8/7/6/s4 w"), Some(0));
    assert_eq!(material(&game, "5/6/7/8/9/8/7/6/D4 b"), Some(100));
    assert_eq!(material(&game, "S4/6/7/8/9/8/7/6/5 b"), Some(300));
    assert_eq!(material(&game, "d4/6/7/8/9/8/7/6/S4 w"), Some(200));
}

#[test]
fn chad_counts_a_rook_100_and_a_queen_300_and_no_king() {
    let game = Chad::new();
    assert_eq!(game.material(&game.start()), Some(0));
    // One black rook fewer than at the start.
    assert_eq!(
        material(
            &game,
            "12/12/7rr3/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w"
        ),
        Some(100)
    );
    // Four white rooks against a rook and a queen.
    assert_eq!(
        material(&game, "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w"),
        Some(0)
    );
    // The same without the h7 rook.
    assert_eq!(
        material(&game, "12/12/12/3R3rk3/12/12/12/12/2RKR7/12/4q7/12 w"),
        Some(-100)
    );
}

#[test]
fn shakti_counts_the_warriors() {
    let game = Shakti::new();
    assert_eq!(game.material(&game.start()), Some(0));
    assert_eq!(
        material(&game, "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w"),
        Some(-100)
    );
    assert_eq!(material(&game, "-5-/1w1k3/7/7/7/1W1K1W1/-5- w"), Some(100));
}

#[test]
fn fort_chitral_counts_every_piece_100() {
    let game = FortChitral::new();
    assert_eq!(game.material(&game.start()), Some(0));
    assert_eq!(
        material(
            &game,
            "ppppppppppppppp3/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/PPPPPPPPPPPPPPPPP1 w"
        ),
        Some(200)
    );
}

#[test]
fn kamelen_counts_a_dromedary_100_and_a_camel_200() {
    let game = Kamelen::new();
    assert_eq!(game.material(&game.start()), Some(0));
    let start = game.position_text(&game.start());
    assert_eq!(
        start,
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w"
    );
    // A black camel fewer.
    assert_eq!(
        material(
            &game,
            "ddddd1ddddd/1ccc2cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w"
        ),
        Some(200)
    );
    // A white dromedary fewer.
    assert_eq!(
        material(
            &game,
            "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDD2DDDDD b"
        ),
        Some(-100)
    );
}

#[test]
fn schada_counts_what_the_score_counts() {
    let game = Schada::new();
    assert_eq!(game.material(&game.start()), Some(0));
    // Without White's g1 Field Officer.
    assert_eq!(
        material(&game, "ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFO1O w"),
        Some(-200)
    );
    // Without Black's a8 Officer and two Pawns, which score nothing.
    assert_eq!(
        material(&game, "1fofofof/pppppp2/8/8/8/8/PPPPPPPP/FOFOFOFO w"),
        Some(100)
    );
}

#[test]
fn games_without_material_say_so() {
    let game = Straat::new();
    assert_eq!(game.material(&game.start()), None);
    let game = Trangalla::new();
    assert_eq!(game.material(&game.start()), None);
}

/// Every ruleset answers for its start position, where the sides are equal.
#[test]
fn every_start_position_is_even() {
    struct Check(Vec<String>);
    impl RulesetVisitor for Check {
        fn visit<G: Game>(&mut self, game: G) {
            let material = game.material(&game.start());
            if material.is_some_and(|m| m != 0) {
                self.0.push(format!("{}: {material:?}", game.name()));
            }
        }
    }
    let mut check = Check(Vec::new());
    denkmeter_games::visit_rulesets(&mut check);
    assert!(check.0.is_empty(), "{:?}", check.0);
}
