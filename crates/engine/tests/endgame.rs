//! The exact endgame solver against a plain exhaustive minimax written here (no pruning, no
//! table, the value read from the outcome's score), on random Straat positions of every
//! ruleset; its best moves, lines, limits and refusals; and the computer playing its moves.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use denkmeter_core::{
    Board, Facts, Game, MoveError, MoveView, Outcome, Player, PositionError, PositionView, Reason,
    Status, Viewer,
};
use denkmeter_engine::endgame::{agent_move, solve, BestMoves, SolveError, WIN_VALUE};
use denkmeter_engine::mcts::{self, MctsConfig};
use denkmeter_engine::{Agent, Limits, Registry};
use denkmeter_games::straat::{State, Straat};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// White's final score minus Black's under best play, by visiting every line to the end: the
/// slow reference. Games without a score count a win as [`WIN_VALUE`].
fn minimax<G: Game>(game: &G, state: &G::State) -> i32 {
    if let Status::Over(outcome) = game.status(state) {
        return match (&outcome.score, outcome.winner) {
            (Some(score), _) => (score.white - score.black) as i32,
            (None, Some(Player::White)) => WIN_VALUE,
            (None, Some(Player::Black)) => -WIN_VALUE,
            (None, None) => 0,
        };
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let values = moves.into_iter().map(|mv| {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        minimax(game, &next)
    });
    match game.to_move(state) {
        Player::White => values.max().unwrap(),
        Player::Black => values.min().unwrap(),
    }
}

/// A position `empty` placements from the end, reached by random placements from the start.
fn random_position(game: &Straat, empty: u32, rng: &mut impl Rng) -> State {
    let mut state = game.start();
    let mut moves = Vec::new();
    while game.plies_to_end(&state) > Some(empty) {
        game.legal_moves(&state, &mut moves);
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play_unchecked(&mut state, mv);
    }
    state
}

fn sign(player: Player) -> i32 {
    match player {
        Player::White => 1,
        Player::Black => -1,
    }
}

/// Checks the solver on `state` against the exhaustive minimax: the value, every best move
/// (each root move's child counted exhaustively), and the line played to the end.
fn check_against_minimax(game: &Straat, state: &State) {
    let text = game.position_text(state);
    let solution = solve(game, state, Limits::default(), BestMoves::Every).unwrap();
    let white_value = minimax(game, state);
    assert_eq!(solution.white_value(), white_value, "value of {text}");
    let mover = game.to_move(state);
    assert_eq!(solution.to_move, mover);
    assert_eq!(solution.value, sign(mover) * white_value);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let best: Vec<_> = moves
        .into_iter()
        .filter(|&mv| {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            minimax(game, &next) == white_value
        })
        .collect();
    assert_eq!(solution.best, best, "best moves of {text}");
    let mut end = state.clone();
    for &mv in &solution.line {
        game.play(&mut end, mv).unwrap();
    }
    let score = game.status(&end).outcome().and_then(|o| o.score.clone());
    let score = score.unwrap_or_else(|| panic!("the line of {text} ends the game"));
    assert_eq!(
        (score.white - score.black) as i32,
        white_value,
        "line of {text}"
    );
    assert!(best.contains(&solution.line[0]), "{text}");
    let one = solve(game, state, Limits::default(), BestMoves::One).unwrap();
    assert_eq!(one.value, solution.value);
    assert_eq!(one.best, [solution.line[0]], "{text}");
}

#[test]
fn the_solver_agrees_with_an_exhaustive_count_in_every_ruleset() {
    // The flip ruleset has twice the moves: one empty cell fewer keeps the count quick.
    for (game, deepest, per_depth) in [
        (Straat::new(), 5, 6),
        (Straat::diagonal(), 5, 6),
        (Straat::flip(), 4, 6),
    ] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        for empty in 1..=deepest {
            for _ in 0..per_depth {
                check_against_minimax(&game, &random_position(&game, empty, &mut rng));
            }
        }
    }
}

#[test]
fn the_solver_agrees_with_an_exhaustive_count_six_from_the_end() {
    let game = Straat::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    let state = random_position(&game, 6, &mut rng);
    let solution = solve(&game, &state, Limits::default(), BestMoves::One).unwrap();
    assert_eq!(solution.white_value(), minimax(&game, &state));
}

/// A position three placements from the end where Black has one move that holds the draw,
/// confirmed by the exhaustive count (the command line's test uses it too).
#[test]
fn a_known_position_has_its_known_value() {
    let game = Straat::new();
    let state = game.parse_position("nNnN/nN1n/NN1N/nNn1 b").unwrap();
    let solution = solve(&game, &state, Limits::default(), BestMoves::Every).unwrap();
    assert_eq!(minimax(&game, &state), 0);
    assert_eq!(solution.white_value(), 0);
    let texts = |moves: &[_]| -> Vec<String> {
        let mut position = state.clone();
        moves
            .iter()
            .map(|&mv| {
                let text = game.move_text(&position, mv);
                game.play_unchecked(&mut position, mv);
                text
            })
            .collect()
    };
    assert_eq!(texts(&solution.best), ["c2e"]);
    assert_eq!(texts(&solution.line)[0], "c2e");
    check_against_minimax(&game, &state);
}

#[test]
fn limits_refusals_and_finished_games_give_errors_not_panics() {
    let game = Straat::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let far = random_position(&game, 14, &mut rng);
    assert!(matches!(
        solve(&game, &far, Limits::nodes(10_000), BestMoves::One),
        Err(SolveError::OutOfBudget { nodes }) if nodes < 20_000
    ));
    assert!(matches!(
        solve(
            &game,
            &far,
            Limits::time(std::time::Duration::from_millis(20)),
            BestMoves::One
        ),
        Err(SolveError::OutOfBudget { .. })
    ));
    let full = game.parse_position("NnNn/nNnN/NnNn/nNnN w").unwrap();
    assert_eq!(
        solve(&game, &full, Limits::default(), BestMoves::One),
        Err(SolveError::Over)
    );
    let chad = denkmeter_games::chad::Chad::new();
    assert!(matches!(
        solve(&chad, &chad.start(), Limits::default(), BestMoves::One),
        Err(SolveError::NoFixedEnd { ruleset: "chad" })
    ));
    let registry = Registry::from_list(denkmeter_games::visit_rulesets);
    let straat = registry.find("straat").unwrap();
    assert!(matches!(
        straat.solve(None, 10, Limits::default()),
        Err(SolveError::TooDeep { plies: 16, max: 10 })
    ));
    assert!(matches!(
        straat.solve(Some("4/4/4 w"), 10, Limits::default()),
        Err(SolveError::Position(_))
    ));
    let text = straat
        .solve(Some("NnNn/nNnN/NnNn/nN2 w"), 10, Limits::default())
        .unwrap();
    assert_eq!((text.plies, text.white_value), (2, 0));
    assert_eq!(text.line.len(), 2);
    assert!(text.best.contains(&text.line[0]));
}

/// Every searching agent, near enough to the end, plays a move the solver calls best.
#[test]
fn the_computer_plays_a_best_move_near_the_end() {
    let registry = Registry::from_list(denkmeter_games::visit_rulesets);
    for game in [Straat::new(), Straat::diagonal(), Straat::flip()] {
        let within = game.facts().exact_endgame;
        assert!(within >= 7, "{}", game.name());
        let ruleset = registry.find(game.name()).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
        for empty in [1, 3, 6] {
            let state = random_position(&game, empty, &mut rng);
            let text = game.position_text(&state);
            let solution = solve(&game, &state, Limits::default(), BestMoves::Every).unwrap();
            let best: Vec<String> = solution
                .best
                .iter()
                .map(|&mv| game.move_text(&state, mv))
                .collect();
            let session = ruleset.new_game(Some(&text)).unwrap();
            for agent in [
                Agent::Computer(1),
                Agent::Mcts(Limits::nodes(20)),
                Agent::alpha_beta(Limits::depth(1)),
            ] {
                let chosen = session.choose_move(&agent, 5).unwrap();
                assert!(best.contains(&chosen), "{agent} played {chosen} in {text}");
            }
        }
    }
}

#[test]
fn the_computer_searches_as_usual_outside_the_exact_endgame() {
    let game = Straat::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let limits = Limits::nodes(100);
    let far = random_position(&game, game.facts().exact_endgame + 1, &mut rng);
    assert_eq!(agent_move(&game, &far, limits), Err(limits));
    let near = random_position(&game, 2, &mut rng);
    assert!(agent_move(&game, &near, limits).is_ok());
}

/// A game without a score and with a fixed end: each player in turn says a bit, three each;
/// White wins if the six bits read as a number divisible by 3, else Black.
#[derive(Clone, Debug)]
struct Bits {
    board: Board,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Said {
    bits: u32,
    count: u32,
}

impl Game for Bits {
    type Move = u8;
    type State = Said;
    fn facts(&self) -> &Facts {
        const FACTS: Facts = Facts::new("bits", "bits", "six bits", "");
        &FACTS
    }
    fn board(&self) -> &Board {
        &self.board
    }
    fn start(&self) -> Said {
        Said { bits: 0, count: 0 }
    }
    fn to_move(&self, s: &Said) -> Player {
        if s.count % 2 == 0 {
            Player::White
        } else {
            Player::Black
        }
    }
    fn legal_moves(&self, s: &Said, moves: &mut Vec<u8>) {
        moves.clear();
        if s.count < 6 {
            moves.extend([0, 1]);
        }
    }
    fn play_unchecked(&self, s: &mut Said, bit: u8) {
        s.bits = s.bits << 1 | u32::from(bit);
        s.count += 1;
    }
    fn status(&self, s: &Said) -> Status {
        match (s.count, s.bits % 3) {
            (6, 0) => Status::Over(Outcome::win(Player::White, Reason::Goal)),
            (6, _) => Status::Over(Outcome::win(Player::Black, Reason::Goal)),
            _ => Status::Ongoing,
        }
    }
    fn hash(&self, s: &Said) -> u64 {
        u64::from(s.bits) << 8 | u64::from(s.count)
    }
    fn plies_to_end(&self, s: &Said) -> Option<u32> {
        Some(6 - s.count)
    }
    fn move_text(&self, _: &Said, bit: u8) -> String {
        bit.to_string()
    }
    fn parse_move(&self, _: &Said, text: &str) -> Result<u8, MoveError> {
        Err(MoveError::syntax(text, "not needed"))
    }
    fn position_text(&self, s: &Said) -> String {
        format!("{:b}/{}", s.bits, s.count)
    }
    fn parse_position(&self, _: &str) -> Result<Said, PositionError> {
        Err(PositionError::Empty)
    }
    fn move_view(&self, _: &Said, _: u8) -> MoveView {
        MoveView::default()
    }
    fn position_view(&self, _: &Said, _: Viewer) -> PositionView {
        PositionView {
            pieces: Vec::new(),
            absent: Vec::new(),
            to_move: Player::White,
        }
    }
}

#[test]
fn a_game_without_a_score_is_solved_as_wins_and_losses() {
    let game = Bits {
        board: Board::rectangle(1, 1, false),
    };
    let states = (0..6).flat_map(|count| (0..1 << count).map(move |bits| Said { bits, count }));
    for state in states {
        let solution = solve(&game, &state, Limits::default(), BestMoves::Every).unwrap();
        let value = minimax(&game, &state);
        assert_eq!(
            solution.white_value(),
            value,
            "{}",
            game.position_text(&state)
        );
        assert!(value.abs() == WIN_VALUE);
        assert_eq!(solution.line.len() as u32 + state.count, 6);
    }
}

/// The final margin for White of a game between Monte Carlo tree search with `limits`, once
/// with the exact endgame and once without; `solver` says which side has it.
fn solver_game(game: &Straat, solver: Player, limits: Limits, seed: u64) -> i64 {
    let mut state = game.start();
    let mut ply = 0;
    while let Status::Ongoing = game.status(&state) {
        let mover = game.to_move(&state);
        let solved = if mover == solver {
            agent_move(game, &state, limits).ok()
        } else {
            None
        };
        let mv = solved.unwrap_or_else(|| {
            let config = MctsConfig::new(limits, seed.wrapping_mul(1_000).wrapping_add(ply));
            mcts::search(game, &state, &config).unwrap().best
        });
        game.play_unchecked(&mut state, mv);
        ply += 1;
    }
    game.score_margin(&state).unwrap()
}

/// Strength, not correctness: the same Monte Carlo player with and without the exact endgame,
/// both colours, per ruleset. Run with
/// `cargo test --release -p denkmeter-engine --test endgame -- --ignored --nocapture`;
/// `ENDGAME_GAMES` and `ENDGAME_ITERATIONS` change the number of game pairs (default 50) and
/// the iterations a move (default 1,500, as `computer:3`).
#[test]
#[ignore]
fn the_exact_endgame_makes_the_computer_stronger() {
    let read = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let pairs = read("ENDGAME_GAMES", 50);
    let limits = Limits::nodes(read("ENDGAME_ITERATIONS", 1_500));
    for game in [Straat::new(), Straat::diagonal(), Straat::flip()] {
        let (mut wins, mut draws, mut losses, mut margin) = (0, 0, 0, 0);
        for seed in 0..pairs {
            for solver in Player::BOTH {
                let mine = sign(solver) as i64 * solver_game(&game, solver, limits, seed);
                margin += mine;
                match mine.signum() {
                    1 => wins += 1,
                    0 => draws += 1,
                    _ => losses += 1,
                }
            }
        }
        let games = 2 * pairs;
        println!(
            "{}: mcts:{} with the exact endgame ({} plies) against without: +{wins} ={draws} -{losses} of {games}, score {:.1}%, mean margin {:+.2} streets",
            game.name(),
            limits.nodes.unwrap_or(0),
            game.facts().exact_endgame,
            100.0 * (wins as f64 + 0.5 * draws as f64) / games as f64,
            margin as f64 / games as f64
        );
    }
}
