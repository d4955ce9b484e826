//! PDN brought in and written out: published games replayed, random games of every draughts
//! ruleset round-tripped, and bad games refused one by one with their number, move and reason.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use denkmeter_core::pdn::{read_collection, result_from_pdn};
use denkmeter_core::{Record, Status};
use denkmeter_engine::pdn::{export, import, ImportError};
use denkmeter_engine::{Agent, Registry};

fn registry() -> Registry {
    Registry::from_list(denkmeter_games::visit_rulesets)
}

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/pdn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn published_world_championship_games_replay_to_their_results() {
    let registry = registry();
    let games = read_collection(&data("wk2003-round1.pdn"));
    assert_eq!(games.len(), 4);
    let mut results = Vec::new();
    for game in &games {
        let pdn = game.as_ref().unwrap();
        let imported =
            import(pdn, &registry, None).unwrap_or_else(|e| panic!("{}: {e}", pdn.label()));
        assert_eq!(imported.game.name(), "international");
        assert_eq!(imported.record.tag("White"), pdn.tag("White"));
        results.push(imported.record.result.clone());
        // Written back out, the moves are the published ones.
        let text = export(&*imported.game, &imported.record).unwrap();
        let again = read_collection(&text);
        let again = again[0].as_ref().unwrap();
        assert_eq!(again.moves, pdn.moves, "{text}");
        // International's results in points: 2-0, 1-1, 0-2.
        assert_eq!(
            result_from_pdn(again.result()),
            result_from_pdn(pdn.result())
        );
        assert!(["2-0", "1-1", "0-2"].contains(&again.result()), "{text}");
        assert_eq!(again.tag("GameType"), Some("20"));
    }
    assert_eq!(results, ["1/2-1/2", "0-1", "1-0", "1-0"]);
    // Jansen-Valneris: 48. 15x4 crowns a king, which then takes four men: 49. 4x36.
    let jansen = import(games[2].as_ref().unwrap(), &registry, None).unwrap();
    assert!(jansen.record.moves.contains(&"4x36".to_string()));
}

#[test]
fn published_checkers_games_replay_with_black_moving_first() {
    let registry = registry();
    let games = read_collection(&data("oca-1847.pdn"));
    assert_eq!(games.len(), 4);
    // The archive has no GameType tag: without a ruleset to go by, each game says so.
    let refused = import(games[0].as_ref().unwrap(), &registry, None).unwrap_err();
    assert!(matches!(refused, ImportError::NoRuleset), "{refused}");
    for game in &games {
        let pdn = game.as_ref().unwrap();
        let imported = import(pdn, &registry, Some("english"))
            .unwrap_or_else(|e| panic!("{}: {e}", pdn.label()));
        // Black, checkers' first player, is the rules' white.
        assert_eq!(imported.record.tag("White"), pdn.tag("Black"));
        assert_eq!(imported.record.result, pdn.result());
        let text = export(&*imported.game, &imported.record).unwrap();
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        let black = format!("[Black \"{}\"]", pdn.tag("Black").unwrap());
        assert!(text.contains(&black), "{text}");
        let again = read_collection(&text);
        let again = again[0].as_ref().unwrap();
        assert_eq!(again.result(), pdn.result());
        // Captures are written the short way unless two share their start and end:
        // 26x17x10x1 is 26x1 again.
        let replayed = import(again, &registry, None).unwrap();
        assert_eq!(replayed.record.moves, imported.record.moves);
    }
    // Manchester 1841 ends with White's triple capture onto the king row, written in full.
    let first = import(games[0].as_ref().unwrap(), &registry, Some("english")).unwrap();
    assert_eq!(first.record.moves.last().map(String::as_str), Some("26x1"));
}

#[test]
fn random_games_of_every_draughts_ruleset_round_trip_through_pdn() {
    let registry = registry();
    let draughts: Vec<_> = registry
        .rulesets()
        .iter()
        .filter(|g| g.facts().pdn.is_draughts())
        .cloned()
        .collect();
    assert_eq!(
        draughts.len(),
        14,
        "12 Scandinavian rulesets, International, English"
    );
    let mut moves_checked = 0;
    for game in draughts {
        for seed in 0..4u64 {
            // From the start, or from a position some random plies in (a FEN setup).
            let mut session = game.new_game(None).unwrap();
            if seed % 2 == 1 {
                for ply in 0..(6 + seed) {
                    match session.choose_move(&Agent::Random, seed * 100 + ply) {
                        Some(mv) => session.play(&mv).unwrap(),
                        None => break,
                    };
                }
                session = game.new_game(Some(&session.position())).unwrap();
            }
            for ply in 0..120 {
                if session.status() != Status::Ongoing {
                    break;
                }
                let mv = session
                    .choose_move(&Agent::Random, seed * 1000 + ply)
                    .unwrap();
                session.play(&mv).unwrap();
            }
            let mut record = session.record(&[("White", "Ann"), ("Black", "Bob")]);
            record.comments = vec![(0, "from here".to_string()), (3, "a {bracket}".to_string())];
            let text = export(&*game, &record).unwrap();
            let games = read_collection(&text);
            assert_eq!(games.len(), 1, "{text}");
            let pdn = games[0].as_ref().unwrap();
            let back = import(pdn, &registry, None)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", game.name()));
            assert_eq!(back.game.name(), game.name());
            assert_eq!(back.record.moves, record.moves, "{text}");
            moves_checked += record.moves.len();
            assert_eq!(back.session.position(), session.position());
            assert_eq!(back.session.start_position(), session.start_position());
            assert_eq!(back.record.result, record.result);
            assert_eq!(back.record.tag("White"), Some("Ann"));
            assert_eq!(
                back.record.comments,
                // A comment ends at its first `}`, so one inside is written as `)`.
                [(0, "from here".to_string()), (3, "a {bracket)".to_string())]
            );
            // And the record Denkmeter keeps reads back as the same game.
            let kept: Record = back.record.to_string().parse().unwrap();
            assert_eq!(
                game.load_record(&kept).unwrap().position(),
                session.position()
            );
        }
    }
    assert!(
        moves_checked > 3000,
        "only {moves_checked} moves were played"
    );
}

#[test]
fn bad_games_are_refused_one_by_one_and_the_rest_come_in() {
    let registry = registry();
    let text = "\
[Event \"fine\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
[Event \"illegal\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 31-27 *\n\n\
[Event \"fen\"]\n[GameType \"20\"]\n[FEN \"W:W31,31:B1\"]\n1. 31-26 *\n\n\
[Event \"russian\"]\n[GameType \"25\"]\n1. c3-d4 *\n\n\
[Event \"unknown tag and variation\"]\n[Annotator \"someone\"]\n[GameType \"21\"]\n\
1. 11-15 (1. 9-13 22-18) 23-19 {the Old Faithful} 2. 8-11 1-0\n\n\
[Event \"forfeit\"]\n[GameType \"20\"]\n1. 32-28 0-0\n";
    let games = read_collection(text);
    assert_eq!(games.len(), 6);
    let outcomes: Vec<Result<String, String>> = games
        .iter()
        .map(|g| {
            let pdn = g.as_ref().map_err(|e| e.to_string())?;
            import(pdn, &registry, None)
                .map(|i| i.record.moves.join(" "))
                .map_err(|e| format!("{}: {e}", pdn.label()))
        })
        .collect();
    assert_eq!(outcomes[0], Ok("32-28 19-23 28x19 14x23".to_string()));
    let error = outcomes[1].as_ref().unwrap_err();
    assert!(
        error.starts_with("game 2 (line 5): move 2. 31-27"),
        "{error}"
    );
    assert!(error.contains("captur"), "{error}");
    let error = outcomes[2].as_ref().unwrap_err();
    assert!(error.contains("[FEN]") && error.contains("31"), "{error}");
    let error = outcomes[3].as_ref().unwrap_err();
    assert!(error.contains("[GameType \"25\"]"), "{error}");
    assert_eq!(outcomes[4], Ok("11-15 23-19 8-11".to_string()));
    let error = outcomes[5].as_ref().unwrap_err();
    assert!(error.contains("double forfeit"), "{error}");
}

#[test]
fn games_that_are_not_draughts_have_no_pdn() {
    let registry = registry();
    let chad = registry.find("chad").unwrap();
    let record = chad.new_game(None).unwrap().record(&[]);
    assert!(matches!(
        export(&*chad, &record),
        Err(ImportError::NotDraughts(_))
    ));
    let games = read_collection("[Ruleset \"chad\"]\n1. D3-D7 *");
    assert!(matches!(
        import(games[0].as_ref().unwrap(), &registry, None),
        Err(ImportError::NotDraughts(_))
    ));
}
