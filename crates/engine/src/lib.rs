//! Denkmeter's engine: perft, the generic Monte Carlo tree search, the mate solver, matches, and
//! the object-safe layer that the command line and the server use. No game names live here.

pub mod alphabeta;
pub mod dynamic;
pub mod matches;
pub mod mcts;
pub mod perft;
pub mod solver;
