//! The fast rules against the independent reference in `tests/reference/` (written from the
//! rules texts by someone who had not seen the fast code): on random positions from random
//! games (from the start and from the perft data's positions, half of them drawn towards the
//! game's own evaluation), the same legal moves, the same position after each move and the same
//! outcome; and the same perft counts for the vectors in `tests/perft/*.txt` that are small
//! enough for it. Rulesets the reference does not know are skipped. Like perft, the comparison sees positions
//! without history: repetition and Schada's shuffling (`Game::ending_by_history`) are tested in
//! the games' own tests.

mod reference;

use std::path::Path;

use denkmeter_core::{Game, Reason, RulesetVisitor, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::Reference;

/// Random games per ruleset and their longest length in plies.
const GAMES: usize = 40;
const MAX_PLIES: usize = 600;
/// Perft vectors are counted by the reference up to this many leaves.
const MAX_REFERENCE_LEAVES: u64 = 400_000;

/// The outcome as the reference writes it: the result, then ` double` for a double win or
/// the goal-line score ` W-B` for a scored game.
fn outcome_text<G: Game>(game: &G, state: &G::State) -> Option<String> {
    let Status::Over(outcome) = game.status(state) else {
        return None;
    };
    let mut text = outcome.result_token().to_string();
    if outcome.reason == Reason::DoubleWin {
        text.push_str(" double");
    } else if let Some(score) = &outcome.score {
        text.push_str(&format!(" {}-{}", score.white, score.black));
    }
    Some(text)
}

/// The move after which the opponent's evaluation is lowest (the first of equals).
fn best_by_evaluation<G: Game>(game: &G, state: &G::State, moves: &[G::Move]) -> G::Move {
    let mut best = (i32::MAX, moves[0]);
    for &mv in moves {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        let score = match game.status(&next) {
            Status::Over(_) => i32::MIN,
            Status::Ongoing => game.evaluate(&next),
        };
        if score < best.0 {
            best = (score, mv);
        }
    }
    best.1
}

fn perft_vectors(ruleset: &str) -> Vec<(String, String, Vec<u64>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("tests/perft exists") {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).expect("a readable perft file");
        for (i, line) in text.lines().enumerate() {
            let parts: Vec<&str> = line.split(';').map(str::trim).collect();
            if line.trim_start().starts_with('#') || parts.len() != 3 || parts[0] != ruleset {
                continue;
            }
            let counts = parts[2]
                .split_whitespace()
                .map(|c| c.parse().expect("a count"))
                .collect();
            let place = format!("{}:{}", path.display(), i + 1);
            out.push((place, parts[1].to_string(), counts));
        }
    }
    out
}

#[derive(Default)]
struct Compare {
    rulesets: Vec<&'static str>,
}

impl RulesetVisitor for Compare {
    fn visit<G: Game>(&mut self, game: G) {
        let Ok(reference) = Reference::new(game.name(), None) else {
            return;
        };
        let name = game.name();
        self.rulesets.push(name);
        assert_eq!(
            reference.start(),
            game.position_text(&game.start()),
            "{name}: start"
        );
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0009);
        let (mut positions, mut endings, mut captures) = (0, 0, 0);
        let mut moves = Vec::new();
        // The games start from the start and from every position of the ruleset's perft data
        // (crowded middle games, passes, near-ends), in turn.
        let mut starts = vec![game.start()];
        for (_, position, _) in perft_vectors(name) {
            if position != "start" {
                starts.push(
                    game.parse_position(&position)
                        .expect("a perft position reads"),
                );
            }
        }
        for game_number in 0..GAMES {
            let mut state = starts[game_number % starts.len()].clone();
            for _ in 0..MAX_PLIES {
                // Through the text, so that both certainly see the same thing.
                let text = game.position_text(&state);
                state = game
                    .parse_position(&text)
                    .expect("a printed position reads back");
                game.legal_moves(&state, &mut moves);
                let mut fast: Vec<String> =
                    moves.iter().map(|&m| game.move_text(&state, m)).collect();
                fast.sort();
                let slow = reference
                    .moves(&text)
                    .expect("the reference reads the position");
                assert_eq!(fast, slow, "{name}: moves of {text}");
                assert_eq!(
                    outcome_text(&game, &state),
                    reference.outcome(&text).expect("an outcome"),
                    "{name}: outcome of {text}"
                );
                positions += 1;
                captures += moves
                    .iter()
                    .filter(|&&m| !game.move_view(&state, m).captured.is_empty())
                    .count();
                if moves.is_empty() {
                    endings += 1;
                    break;
                }
                // Half the games are random; the other half pick the move the game's own
                // evaluation likes best two times in three, so that the armies meet (random
                // Fort Chitral games never capture) and games end.
                let mv = if game_number % 2 == 1 && rng.gen_range(0..3) > 0 {
                    best_by_evaluation(&game, &state, &moves)
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                let mv_text = game.move_text(&state, mv);
                game.play_unchecked(&mut state, mv);
                assert_eq!(
                    game.position_text(&state),
                    reference
                        .play(&text, &mv_text)
                        .expect("the reference plays it"),
                    "{name}: {mv_text} in {text}"
                );
            }
        }
        eprintln!("{name}: {positions} positions, {endings} endings, {captures} captures seen");
        // Straat games are 16 placements long; the others run to hundreds of plies.
        assert!(positions > GAMES * 5, "{name}: {positions} positions");
        // Straat places tiles and never captures; every other game here does.
        if game.facts().family != "straat" {
            assert!(captures > 0, "{name}: no capture was ever on offer");
        }
        assert!(endings > 0, "{name}: no game ended");
        for (place, position, counts) in perft_vectors(name) {
            let text = if position == "start" {
                reference.start()
            } else {
                position
            };
            for (depth, &count) in counts.iter().enumerate() {
                if count > MAX_REFERENCE_LEAVES {
                    break;
                }
                let slow = reference
                    .perft(&text, depth as u32 + 1)
                    .expect("the reference counts");
                assert_eq!(slow, count, "{place}: depth {}", depth + 1);
            }
        }
    }
}

#[test]
fn the_fast_rules_agree_with_the_independent_reference() {
    let mut compare = Compare::default();
    denkmeter_games::visit_rulesets(&mut compare);
    for ruleset in [
        "schada",
        "kamelen",
        "kamelen-11x12",
        "kamelen-11x13",
        "fort-chitral",
        "fort-chitral-orthogonal",
        "fort-chitral-no-loss-at-three",
        "straat",
        "straat-diagonal",
        "straat-flip",
        "trangalla",
    ] {
        assert!(
            compare.rulesets.contains(&ruleset),
            "{ruleset} was not compared; compared: {:?}",
            compare.rulesets
        );
    }
}

/// Another board than the reconstruction: every square of ranks 1-4 also gets the path `N E`,
/// so that paths bend more often and ends coincide.
#[test]
fn schada_on_another_board_agrees_too() {
    use denkmeter_games::schada::{Schada, RECONSTRUCTION};
    let text: String = RECONSTRUCTION
        .lines()
        .map(|line| {
            let content = line.split('#').next().unwrap_or_default().trim_end();
            let square = content.split_whitespace().next().unwrap_or_default();
            let rank: u8 = square.get(1..).and_then(|r| r.parse().ok()).unwrap_or(0);
            let file = square.as_bytes().first().copied().unwrap_or(b'a');
            if content.is_empty() || rank >= 4 || file == b'h' {
                format!("{content}\n")
            } else {
                format!("{content} ; N E\n")
            }
        })
        .collect();
    let game = Schada::on_board("bent", &text).expect("a valid board");
    let reference = Reference::new("schada", Some(&text)).expect("a valid board");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut moves = Vec::new();
    for _ in 0..10 {
        let mut state = game.start();
        for _ in 0..200 {
            let position = game.position_text(&state);
            state = game.parse_position(&position).expect("reads back");
            game.legal_moves(&state, &mut moves);
            let mut fast: Vec<String> = moves.iter().map(|&m| game.move_text(&state, m)).collect();
            fast.sort();
            assert_eq!(
                fast,
                reference.moves(&position).expect("moves"),
                "{position}"
            );
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(&mut state, moves[rng.gen_range(0..moves.len())]);
        }
    }
}
