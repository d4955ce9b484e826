//! The engine against a game small enough to know everything about: Nim with one pile, where a
//! player takes 1, 2 or 3 and whoever takes the last counter wins. The player to move loses
//! exactly when the pile is a multiple of 4.

use denkmeter_core::solver;
use denkmeter_core::{
    perft, Board, Facts, Game, MoveError, MoveView, Outcome, Player, PositionError, PositionView,
    Reason, Status, Viewer,
};
use denkmeter_engine::mcts::{self, MctsConfig};
use denkmeter_engine::search::eval::WIN;
use denkmeter_engine::{search, Limits};

#[derive(Clone, Debug)]
struct Nim {
    board: Board,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Take(u8);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Pile {
    count: u8,
    to_move: Player,
}

impl Game for Nim {
    type Move = Take;
    type State = Pile;
    fn facts(&self) -> &Facts {
        const FACTS: Facts = Facts::new("nim", "nim", "one pile, take 1-3", "");
        &FACTS
    }
    fn board(&self) -> &Board {
        &self.board
    }
    fn start(&self) -> Pile {
        Pile {
            count: 21,
            to_move: Player::White,
        }
    }
    fn to_move(&self, s: &Pile) -> Player {
        s.to_move
    }
    fn legal_moves(&self, s: &Pile, moves: &mut Vec<Take>) {
        moves.clear();
        moves.extend((1..=3.min(s.count)).map(Take));
    }
    fn play_unchecked(&self, s: &mut Pile, m: Take) {
        s.count -= m.0;
        s.to_move = !s.to_move;
    }
    fn status(&self, s: &Pile) -> Status {
        if s.count == 0 {
            Status::Over(Outcome::win(!s.to_move, Reason::NoPieces))
        } else {
            Status::Ongoing
        }
    }
    fn hash(&self, s: &Pile) -> u64 {
        u64::from(s.count) * 2 + s.to_move.index() as u64
    }
    fn move_text(&self, _: &Pile, m: Take) -> String {
        m.0.to_string()
    }
    fn parse_move(&self, s: &Pile, text: &str) -> Result<Take, MoveError> {
        let n: u8 = text
            .parse()
            .map_err(|_| MoveError::syntax(text, "not a number"))?;
        if (1..=3.min(s.count)).contains(&n) {
            Ok(Take(n))
        } else {
            Err(MoveError::illegal(text, "take 1 to 3"))
        }
    }
    fn position_text(&self, s: &Pile) -> String {
        format!("{} {}", s.count, s.to_move.letter())
    }
    fn parse_position(&self, text: &str) -> Result<Pile, PositionError> {
        let (n, side) = text.split_once(' ').ok_or(PositionError::Empty)?;
        Ok(Pile {
            count: n.parse().map_err(|_| PositionError::Invalid(n.into()))?,
            to_move: side
                .chars()
                .next()
                .and_then(Player::from_letter)
                .ok_or_else(|| PositionError::SideToMove(side.into()))?,
        })
    }
    fn move_view(&self, _: &Pile, _: Take) -> MoveView {
        MoveView::default()
    }
    fn position_view(&self, s: &Pile, _: Viewer) -> PositionView {
        PositionView {
            pieces: Vec::new(),
            absent: Vec::new(),
            to_move: s.to_move,
        }
    }
}

fn nim() -> Nim {
    Nim {
        board: Board::rectangle(1, 1, false),
    }
}

fn pile(count: u8) -> Pile {
    Pile {
        count,
        to_move: Player::White,
    }
}

#[test]
fn perft_counts_compositions() {
    // Sequences of takes of 1-3 from 5: depth 1: 3; depth 2: 3+3+2 = 8 (pile 4, 3, 2 left).
    let table = perft::perft_table(&nim(), &pile(5), 2);
    assert_eq!(table, [(1, 3), (2, 8)]);
    let divide = perft::divide(&nim(), &pile(5), 2);
    assert_eq!(divide, [("1".into(), 3), ("2".into(), 3), ("3".into(), 2)]);
}

#[test]
fn checked_play_refuses_an_illegal_move_and_leaves_the_state() {
    let game = nim();
    let mut state = pile(2);
    assert!(game.play(&mut state, Take(3)).is_err());
    assert_eq!(state, pile(2));
    assert_eq!(game.play(&mut state, Take(2)), Ok(()));
    assert_eq!(state.count, 0);
    assert_ne!(state.to_move, Player::White);
}

#[test]
fn solver_finds_exactly_the_winning_take() {
    let game = nim();
    // From 6, take 2 to leave 4; White then wins on the next move at the latest.
    assert_eq!(solver::winning_moves(&game, &pile(6), 2), [Take(2)]);
    assert!(solver::winning_moves(&game, &pile(6), 1).is_empty());
    assert!(!solver::wins_within(&game, &pile(8), 5));
    assert_eq!(solver::shortest_win(&game, &pile(3), 3), Some(1));
    assert_eq!(solver::shortest_win(&game, &pile(9), 5), Some(3));
}

#[test]
fn the_prover_agrees_with_the_plain_solver_on_every_pile() {
    let game = nim();
    for attacker in [Player::White, Player::Black] {
        // One prover for all questions, as the puzzle finder asks them: its table must not
        // carry an answer over to a question it does not answer.
        let mut prover = solver::Prover::new(&game, attacker, u64::MAX, 1 << 16);
        for count in 0..=24 {
            for to_move in [Player::White, Player::Black] {
                let state = Pile { count, to_move };
                for moves in 0..=7 {
                    let plain = if to_move == attacker {
                        solver::wins_within(&game, &state, moves)
                    } else {
                        // The defender to move: the attacker wins after every take.
                        let mut list = Vec::new();
                        game.legal_moves(&state, &mut list);
                        game.status(&state).outcome().map_or_else(
                            || {
                                list.iter().all(|&take| {
                                    let mut next = state.clone();
                                    game.play_unchecked(&mut next, take);
                                    game.status(&next).outcome().map_or_else(
                                        || solver::wins_within(&game, &next, moves),
                                        |o| o.winner == Some(attacker),
                                    )
                                })
                            },
                            |o| o.winner == Some(attacker),
                        )
                    };
                    assert_eq!(
                        prover.wins_within(&state, moves),
                        Some(plain),
                        "{state:?} within {moves} for {attacker:?}"
                    );
                    if to_move == attacker {
                        assert_eq!(
                            prover.winning_moves(&state, moves),
                            Some(solver::winning_moves(&game, &state, moves)),
                            "{state:?} within {moves}"
                        );
                    }
                }
            }
        }
    }
    // A node limit gives up instead of guessing.
    let mut starved = solver::Prover::new(&game, Player::White, 3, 1 << 16);
    assert_eq!(starved.wins_within(&pile(9), 3), None);
    assert_eq!(starved.shortest(&pile(9), 5), None);
}

#[test]
fn mcts_plays_the_winning_move_and_is_reproducible() {
    let game = nim();
    for count in [5u8, 6, 7, 9, 10, 11] {
        let config = MctsConfig::new(Limits::nodes(3_000), 7);
        let report = mcts::search(&game, &pile(count), &config).unwrap();
        assert_eq!(
            (count - report.best.0) % 4,
            0,
            "from {count} it took {}",
            report.best.0
        );
        assert_eq!(report.nodes, 3_000);
        let again = mcts::search(&game, &pile(count), &config).unwrap();
        assert_eq!(again, report);
    }
    assert!(mcts::search(&game, &pile(0), &MctsConfig::new(Limits::nodes(10), 1)).is_none());
}

#[test]
fn alphabeta_takes_the_winning_move_and_knows_it_wins() {
    let game = nim();
    for count in [5u8, 6, 7, 9, 10, 11] {
        let limits = Limits::depth(12);
        let found = search::search(&game, &pile(count), limits).unwrap();
        assert_eq!(
            (count - found.best.0) % 4,
            0,
            "from {count} it took {}",
            found.best.0
        );
        assert!(
            found.score >= WIN - 1000,
            "from {count}: score {}",
            found.score
        );
    }
    // From a multiple of four every move loses against best play.
    let found = search::search(&game, &pile(8), Limits::depth(12)).unwrap();
    assert!(found.score <= -(WIN - 1000), "score {}", found.score);
    assert!(search::search(&game, &pile(0), Limits::depth(3)).is_none());
}
