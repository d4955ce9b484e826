//! The shipped puzzles (`puzzles/FAMILY.jsonl`): at least 200 for every game family, and the
//! problem collections (`puzzles/problems/`), each proved again here by the plain mate solver
//! alone (no table, no search, no heuristics): the shortest win is the stated one, at each of
//! the winner's turns exactly one move wins, and the line ends in the win. Also: the finder's
//! prover agrees with the plain solver, the miner finds what it claims, the same seed mines the
//! same puzzles, and a puzzle with a defect is refused.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use denkmeter_core::solver::{self, Prover};
use denkmeter_core::{Game, RulesetVisitor};
use denkmeter_engine::puzzles::{
    check, mine, parse_set, puzzle_id, write_set, FindLimits, MineOptions, Puzzle, PuzzleDefect,
};
use denkmeter_engine::Registry;

/// The fewest puzzles a family ships with.
const PER_FAMILY: usize = 200;

fn registry() -> Registry {
    Registry::from_list(denkmeter_games::visit_rulesets)
}

fn puzzle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../puzzles")
}

fn shipped(family: &str) -> Vec<Puzzle> {
    let path = puzzle_dir().join(format!("{family}.jsonl"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/mine-puzzles.sh)", path.display()));
    parse_set(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Proves every puzzle of a family's file, and that there are enough, all of the family.
fn prove_family(family: &str) {
    let registry = registry();
    let puzzles = shipped(family);
    assert!(
        puzzles.len() >= PER_FAMILY,
        "{family}: {} puzzles, fewer than {PER_FAMILY}",
        puzzles.len()
    );
    let mut ids = HashSet::new();
    for puzzle in &puzzles {
        assert!(
            ids.insert(puzzle.id.clone()),
            "{family}: {} twice",
            puzzle.id
        );
        let game = registry.find(&puzzle.ruleset).expect("a known ruleset");
        assert_eq!(game.facts().family, family, "{}", puzzle.id);
        if let Err(defect) = check(&registry, puzzle) {
            panic!(
                "{family}: puzzle {} ({}): {defect}",
                puzzle.id, puzzle.position
            );
        }
    }
}

macro_rules! prove {
    ($($test:ident: $family:literal,)*) => {
        $(
            #[test]
            fn $test() {
                prove_family($family);
            }
        )*

        #[test]
        fn every_family_has_its_puzzle_file() {
            let families: HashSet<&str> = registry()
                .rulesets()
                .iter()
                .map(|g| g.facts().family)
                .collect();
            let proved: HashSet<&str> = [$($family),*].into_iter().collect();
            assert_eq!(families, proved, "a family without puzzles, or a file without a family");
        }
    };
}

prove! {
    chad_puzzles_are_proved: "chad",
    shakti_puzzles_are_proved: "shakti",
    schada_puzzles_are_proved: "schada",
    scandinavian_puzzles_are_proved: "scandinavian",
    international_puzzles_are_proved: "international",
    english_puzzles_are_proved: "english",
    sjekkers_puzzles_are_proved: "sjekkers",
    kamelen_puzzles_are_proved: "kamelen",
    fort_chitral_puzzles_are_proved: "fort-chitral",
    straat_puzzles_are_proved: "straat",
    trangalla_puzzles_are_proved: "trangalla",
}

/// The fewest problems a game's problem collection holds, and their shortest win.
const PROBLEMS: usize = 20;
const PROBLEM_MOVES: u32 = 3;
/// The games with a problem collection.
const PROBLEM_GAMES: [&str; 2] = ["chad", "shakti"];

/// The problem collections (`puzzles/problems/FAMILY.jsonl`), each of long wins, each proved
/// like a puzzle.
#[test]
fn the_problem_collections_are_proved() {
    let registry = registry();
    let mut families = Vec::new();
    for entry in std::fs::read_dir(puzzle_dir().join("problems")).unwrap() {
        let path = entry.unwrap().path();
        let family = path.file_stem().unwrap().to_str().unwrap().to_string();
        let problems = parse_set(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(problems.len() >= PROBLEMS, "{family}: {}", problems.len());
        let mut ids = HashSet::new();
        for problem in &problems {
            assert!(
                ids.insert(problem.id.clone()),
                "{family}: {} twice",
                problem.id
            );
            assert!(problem.moves >= PROBLEM_MOVES, "{family}: {}", problem.id);
            let game = registry.find(&problem.ruleset).expect("a known ruleset");
            assert_eq!(game.facts().family, family);
            if let Err(defect) = check(&registry, problem) {
                panic!("{family}: problem {}: {defect}", problem.id);
            }
        }
        families.push(family);
    }
    families.sort();
    assert_eq!(families, PROBLEM_GAMES);
}

/// The finder's prover (a table, move ordering) against the plain solver, at the first
/// puzzles of every file, shipped and problems: the same shortest win, and the same winning
/// moves at the root (every other move of the winner is refuted by both), within the win's
/// length and one move less.
#[test]
fn the_prover_agrees_with_the_plain_solver_on_shipped_positions() {
    struct Compare {
        puzzles: BTreeMap<String, Vec<Puzzle>>,
        compared: usize,
    }
    impl RulesetVisitor for Compare {
        fn visit<G: Game>(&mut self, game: G) {
            for puzzle in self.puzzles.get(game.name()).into_iter().flatten() {
                let state = game.parse_position(&puzzle.position).unwrap();
                let attacker = game.to_move(&state);
                let mut prover = Prover::new(&game, attacker, u64::MAX, 1 << 20);
                let moves = puzzle.moves;
                assert_eq!(
                    prover.shortest(&state, moves),
                    Some(Some(moves)),
                    "{}",
                    puzzle.id
                );
                for within in [moves - 1, moves] {
                    assert_eq!(
                        prover.winning_moves(&state, within),
                        Some(solver::winning_moves(&game, &state, within)),
                        "{} within {within}",
                        puzzle.id
                    );
                }
                self.compared += 1;
            }
        }
    }
    let mut puzzles: BTreeMap<String, Vec<Puzzle>> = BTreeMap::new();
    let registry = registry();
    let mut files: Vec<PathBuf> = registry
        .rulesets()
        .iter()
        .map(|g| puzzle_dir().join(format!("{}.jsonl", g.facts().family)))
        .collect();
    files.sort();
    files.dedup();
    let mut take = vec![8; files.len()];
    for game in PROBLEM_GAMES {
        // The problems' long wins cost the plain solver most: two of each collection.
        files.push(puzzle_dir().join(format!("problems/{game}.jsonl")));
        take.push(2);
    }
    for (path, take) in files.iter().zip(take) {
        let text = std::fs::read_to_string(path).unwrap();
        for puzzle in parse_set(&text).unwrap().into_iter().take(take) {
            puzzles
                .entry(puzzle.ruleset.clone())
                .or_default()
                .push(puzzle);
        }
    }
    let expected = puzzles.values().map(Vec::len).sum::<usize>();
    let mut compare = Compare {
        puzzles,
        compared: 0,
    };
    denkmeter_games::visit_rulesets(&mut compare);
    assert_eq!(compare.compared, expected);
    assert!(expected >= 8 * 11 + 2 * PROBLEM_GAMES.len(), "{expected}");
}

/// The first shipped puzzle of a family with `moves` moves.
fn first_of(family: &str, moves: u32) -> Puzzle {
    shipped(family)
        .into_iter()
        .find(|p| p.moves == moves)
        .unwrap_or_else(|| panic!("a {family} puzzle in {moves}"))
}

#[test]
fn puzzles_with_a_defect_are_refused() {
    let registry = registry();
    let good = first_of("shakti", 2);
    assert_eq!(check(&registry, &good), Ok(()));
    let refused = |change: &dyn Fn(&mut Puzzle)| {
        let mut bad = good.clone();
        change(&mut bad);
        bad.id = puzzle_id(&bad.ruleset, &bad.position);
        check(&registry, &bad).expect_err("a defect")
    };
    // Claimed longer than it is: the winner has a shorter win.
    assert!(matches!(
        refused(&|p| p.moves += 1),
        PuzzleDefect::Shorter { ply: 0, .. }
    ));
    // Claimed shorter than it is.
    assert!(matches!(
        refused(&|p| p.moves -= 1),
        PuzzleDefect::NotUnique {
            ply: 0,
            count: 0,
            ..
        }
    ));
    // Another first move, legal but not winning.
    let game = registry.find(&good.ruleset).unwrap();
    let other = game
        .new_game(Some(&good.position))
        .unwrap()
        .legal_moves()
        .into_iter()
        .map(|m| m.text)
        .find(|m| *m != good.line[0])
        .unwrap();
    assert!(matches!(
        refused(&|p| p.line[0] = other.clone()),
        PuzzleDefect::WrongMove { ply: 0, .. }
    ));
    // Cut short: it does not end in the win.
    assert!(matches!(
        refused(&|p| {
            p.line.pop();
        }),
        PuzzleDefect::Count { .. } | PuzzleDefect::NoWin
    ));
    assert!(matches!(
        refused(&|p| p.line.push("a1".into())),
        PuzzleDefect::Illegal { .. } | PuzzleDefect::LineLength
    ));
    assert!(matches!(
        refused(&|p| p.line[0] = "z9-z10".into()),
        PuzzleDefect::Illegal { ply: 0, .. }
    ));
    assert!(matches!(
        refused(&|p| p.position = "garbage".into()),
        PuzzleDefect::Position(_)
    ));
    assert!(matches!(
        refused(&|p| p.ruleset = "no-such-game".into()),
        PuzzleDefect::UnknownRuleset(_)
    ));
    let mut wrong_id = good.clone();
    wrong_id.id = "000000000000".into();
    assert!(matches!(
        check(&registry, &wrong_id),
        Err(PuzzleDefect::WrongId { .. })
    ));
    // A proof that needs more than the miner's budget is not a proof.
    assert_eq!(
        game.check_puzzle(&good.position, good.moves, &good.line, 10),
        Err(PuzzleDefect::Unproved { ply: 0, nodes: 10 })
    );
    assert_eq!(
        game.check_puzzle(&good.position, good.moves, &good.line, 5_000_000),
        Ok(())
    );
}

#[test]
fn a_puzzle_file_reads_back_and_bad_lines_are_named() {
    let puzzles = shipped("trangalla");
    assert_eq!(parse_set(&write_set(&puzzles)).unwrap(), puzzles);
    let error = parse_set("\n{\"id\": 1}\n").unwrap_err();
    assert_eq!(error.line, 2);
}

#[test]
fn the_same_seed_mines_the_same_puzzles_and_each_is_proved() {
    let registry = registry();
    let rulesets: Vec<_> = registry
        .rulesets()
        .iter()
        .filter(|g| g.facts().family == "trangalla")
        .cloned()
        .collect();
    let options = |threads| MineOptions {
        rulesets: rulesets.clone(),
        count: 12,
        seed: 7,
        limits: FindLimits {
            max_moves: 2,
            ..FindLimits::default()
        },
        per_game: 1,
        max_games: 400,
        threads,
        players: Vec::new(),
    };
    let one = mine(&options(1), &mut |_, _| {});
    let two = mine(&options(2), &mut |_, _| {});
    assert_eq!(one.len(), 12);
    assert_eq!(one, two, "the threads change nothing");
    let mut lengths = BTreeMap::new();
    for puzzle in &one {
        assert_eq!(check(&registry, puzzle), Ok(()), "{}", puzzle.id);
        *lengths.entry(puzzle.moves).or_insert(0) += 1;
    }
    assert!(lengths.keys().all(|&m| (1..=2).contains(&m)), "{lengths:?}");
}
