//! The puzzles the server offers: the shipped sets (`puzzles/*.jsonl` at the workspace's
//! root, and the problem collections in `puzzles/problems/`, embedded at build time), read
//! once, each line replayed through its rules, and grouped by game family. Their proofs are the test over the shipped files (`denkmeter puzzles verify`); the
//! server only replays their solutions.

use std::collections::{BTreeMap, HashMap};

use denkmeter_core::Player;
use denkmeter_engine::puzzles::{parse_set, Puzzle};
use denkmeter_engine::Registry;

use crate::rating::Rating;

/// The shipped puzzle files: `(file name, text)`.
static FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/puzzle_files.rs"));

/// A puzzle's rating before anyone has tried it: a guess from its length (a win in one move
/// 1200, each move more 250 above), unsure enough (a deviation of 300) that the first
/// attempts set it.
pub fn starting_rating(moves: u32) -> Rating {
    Rating {
        rating: 1200.0 + 250.0 * f64::from(moves.saturating_sub(1).min(8)),
        deviation: 300.0,
        volatility: Rating::NEW.volatility,
    }
}

/// Which collection a puzzle belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    /// Rated puzzles, offered one after another near the player's rating.
    Puzzles,
    /// A numbered problem section of a game (`puzzles/problems/FAMILY.jsonl`): long wins,
    /// solved in any order, not rated.
    Problems,
}

impl Collection {
    pub fn name(self) -> &'static str {
        match self {
            Collection::Puzzles => "puzzles",
            Collection::Problems => "problems",
        }
    }
}

/// A puzzle with what the server needs beside it.
#[derive(Clone, Debug)]
pub struct BookPuzzle {
    pub puzzle: Puzzle,
    pub family: &'static str,
    /// The player to move, who solves it.
    pub solver: Player,
    pub collection: Collection,
    /// Its number in its family's collection, from 1 (the file's order).
    pub number: usize,
}

/// Every puzzle the server offers, by id, and by collection and family.
#[derive(Debug, Default)]
pub struct PuzzleBook {
    puzzles: Vec<BookPuzzle>,
    by_id: HashMap<String, usize>,
    /// The rated puzzles of each family, in file order.
    by_family: BTreeMap<&'static str, Vec<usize>>,
    /// The problems of each family, in file order.
    problems: BTreeMap<&'static str, Vec<usize>>,
}

impl PuzzleBook {
    /// The shipped puzzles. A puzzle whose ruleset the registry lacks, whose position it cannot
    /// read or whose line it does not play and write as written, is an error: the files and
    /// the rules ship together.
    pub fn shipped(registry: &Registry) -> Result<PuzzleBook, String> {
        PuzzleBook::from_files(registry, FILES)
    }

    /// The puzzles of `files` (`(name, text)`), as [`PuzzleBook::shipped`] reads them.
    pub fn from_files(registry: &Registry, files: &[(&str, &str)]) -> Result<PuzzleBook, String> {
        let mut book = PuzzleBook::default();
        for (name, text) in files {
            let collection = if name.starts_with("problems/") {
                Collection::Problems
            } else {
                Collection::Puzzles
            };
            let set = parse_set(text).map_err(|e| format!("puzzles/{name}: {e}"))?;
            for puzzle in set {
                let game = registry.find(&puzzle.ruleset).ok_or_else(|| {
                    format!(
                        "puzzles/{name}: puzzle {}: no ruleset {:?}",
                        puzzle.id, puzzle.ruleset
                    )
                })?;
                let solver = puzzle
                    .solver(game.as_ref())
                    .map_err(|e| format!("puzzles/{name}: puzzle {}: {e}", puzzle.id))?;
                // The line as the rules write it, as attempts are compared with it; the proof
                // is the test's (`denkmeter puzzles verify`).
                let mut replay = game
                    .new_game(Some(&puzzle.position))
                    .map_err(|e| format!("puzzles/{name}: puzzle {}: {e}", puzzle.id))?;
                for text in &puzzle.line {
                    match replay.play(text) {
                        Ok(written) if written == *text => {}
                        _ => {
                            return Err(format!(
                                "puzzles/{name}: puzzle {}: its move {text:?} is not one the \
                                 rules write",
                                puzzle.id
                            ))
                        }
                    }
                }
                if book.by_id.contains_key(&puzzle.id) {
                    return Err(format!("puzzles/{name}: puzzle {} twice", puzzle.id));
                }
                let family = game.facts().family;
                let index = book.puzzles.len();
                book.by_id.insert(puzzle.id.clone(), index);
                let list = match collection {
                    Collection::Puzzles => &mut book.by_family,
                    Collection::Problems => &mut book.problems,
                };
                let list = list.entry(family).or_default();
                list.push(index);
                let number = list.len();
                book.puzzles.push(BookPuzzle {
                    puzzle,
                    family,
                    solver,
                    collection,
                    number,
                });
            }
        }
        Ok(book)
    }

    pub fn get(&self, id: &str) -> Option<&BookPuzzle> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// The families that have puzzles in `collection`, by name, with their puzzles in order.
    pub fn families(
        &self,
        collection: Collection,
    ) -> impl Iterator<Item = (&'static str, Vec<&BookPuzzle>)> + '_ {
        self.lists(collection)
            .iter()
            .map(|(family, indices)| (*family, indices.iter().map(|&i| &self.puzzles[i]).collect()))
    }

    /// The puzzles of one family in `collection`, in order.
    pub fn of_family(&self, collection: Collection, family: &str) -> Vec<&BookPuzzle> {
        self.lists(collection)
            .get(family)
            .map(|indices| indices.iter().map(|&i| &self.puzzles[i]).collect())
            .unwrap_or_default()
    }

    fn lists(&self, collection: Collection) -> &BTreeMap<&'static str, Vec<usize>> {
        match collection {
            Collection::Puzzles => &self.by_family,
            Collection::Problems => &self.problems,
        }
    }

    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }
}
