//! The board editor over every ruleset: its rows hold every cell once, and on positions of
//! random games the tokens it reads are the pieces the view draws, and setting them up again
//! gives the same position.

use std::collections::HashMap;

use denkmeter_core::{Cell, Player, Viewer};
use denkmeter_engine::Registry;

fn registry() -> Registry {
    Registry::from_list(denkmeter_games::visit_rulesets)
}

#[test]
fn every_board_writes_each_cell_once() {
    for game in registry().rulesets() {
        let board = game.board();
        let mut seen: Vec<Cell> = board.position_rows().iter().flatten().copied().collect();
        seen.sort();
        let all: Vec<Cell> = board.cell_ids().collect();
        assert_eq!(seen, all, "{}", game.name());
        assert!(!game.editor_tokens().is_empty(), "{}", game.name());
    }
}

#[test]
fn tokens_are_the_pieces_drawn_and_set_up_again_give_the_position() {
    let mut checked = 0;
    for game in registry().rulesets() {
        let tokens = game.editor_tokens();
        let mut session = game.new_game(None).unwrap();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for ply in 0..40 {
            let position = session.position();
            // A game in its setup (Trangalla's kings) is not a position set up by hand.
            if !position.contains("setup") {
                let grid = game.position_grid(&position).unwrap();
                let view = session.view(Viewer::Everyone);
                let mut pieces: HashMap<Cell, (Option<Player>, &str, char)> = view
                    .pieces
                    .iter()
                    .map(|p| (p.cell, (Some(p.owner), p.kind, p.letter)))
                    .collect();
                for (cell, text) in &grid {
                    let token = tokens
                        .iter()
                        .find(|t| &t.text == text)
                        .unwrap_or_else(|| panic!("{}: {text:?} is no token", game.name()));
                    if text == "-" {
                        assert!(view.absent.contains(cell), "{} {position}", game.name());
                        continue;
                    }
                    let drawn = pieces.remove(cell).unwrap_or_else(|| {
                        panic!("{} {position}: nothing drawn on {cell:?}", game.name())
                    });
                    // A neutral piece's owner in a view means nothing.
                    let owner = token.owner.or(drawn.0);
                    assert_eq!(
                        (owner, token.kind, token.letter),
                        drawn,
                        "{} {position}: {text}",
                        game.name()
                    );
                }
                assert!(pieces.is_empty(), "{} {position}: {pieces:?}", game.name());
                let again = game
                    .compose_position(&grid, session.to_move())
                    .unwrap_or_else(|e| panic!("{} {position}: {e}", game.name()));
                assert_eq!(again, position, "{} after {ply} plies", game.name());
                checked += 1;
            }
            let legal = session.legal_moves();
            if legal.is_empty() || session.status().is_over() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let pick = &legal[(seed % legal.len() as u64) as usize];
            session.play(&pick.text).unwrap();
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn the_rules_refuse_what_they_do_not_allow() {
    let registry = registry();
    let chad = registry.find("chad").unwrap();
    let rook = vec![(chad.board().cell_by_name("A1").unwrap(), "R".to_string())];
    let refused = chad.compose_position(&rook, Player::White).unwrap_err();
    assert!(
        refused.to_string().starts_with("invalid position"),
        "{refused}"
    );
    let unknown = vec![(Cell(0), "Z".to_string())];
    let refused = chad.compose_position(&unknown, Player::White).unwrap_err();
    assert!(
        refused.to_string().contains("not a piece of this game"),
        "{refused}"
    );
    let draughts = registry.find("scandinavian-8x8-weak-free").unwrap();
    let men = vec![
        (
            draughts.board().cell_by_name("a2").unwrap(),
            "M".to_string(),
        ),
        (
            draughts.board().cell_by_name("d7").unwrap(),
            "m".to_string(),
        ),
    ];
    assert_eq!(
        draughts.compose_position(&men, Player::Black).unwrap(),
        "8/3m4/8/8/8/8/M7/8 b"
    );
}

/// Every token of every game stands somewhere in a position the rules accept: on a position of
/// a game under way, each token is tried on each cell until the rules take it, and reads back.
#[test]
fn every_token_can_be_set_up() {
    for game in registry().rulesets() {
        let mut session = game.new_game(None).unwrap();
        // Past any setup (Trangalla's kings), a few moves in.
        for _ in 0..6 {
            let legal = session.legal_moves();
            let Some(first) = legal.first() else { break };
            session.play(&first.text).unwrap();
        }
        let position = session.position();
        assert!(!position.contains("setup"), "{}", game.name());
        let grid = game.position_grid(&position).unwrap();
        let cells: Vec<Cell> = game
            .board()
            .position_rows()
            .iter()
            .flatten()
            .copied()
            .collect();
        for token in game.editor_tokens() {
            let placed = cells.iter().any(|&cell| {
                let mut tried: Vec<(Cell, String)> =
                    grid.iter().filter(|(c, _)| *c != cell).cloned().collect();
                tried.push((cell, token.text.clone()));
                game.compose_position(&tried, session.to_move())
                    .ok()
                    .and_then(|text| game.position_grid(&text).ok())
                    .is_some_and(|back| back.contains(&(cell, token.text.clone())))
            });
            assert!(placed, "{}: {} stands nowhere", game.name(), token.text);
        }
    }
}
