//! Denkmeter's engine: search (alpha-beta, Monte Carlo tree search, and an exact endgame
//! solver for games with a fixed end), agents and matches, and the object-safe layer and
//! registry that the command line and the server use. No game names live here; perft and the
//! mate solver, which need no heuristics, live beside the rules in core.

pub mod agent;
pub mod dynamic;
pub mod endgame;
pub mod ismcts;
mod limits;
pub mod matches;
pub mod mcts;
pub mod pdn;
pub mod pimc;
pub mod puzzles;
mod registry;
pub mod review;
pub mod search;

pub use agent::{level_limits, parse_time_limit, Agent, AgentError, MAX_DEPTH, MAX_LEVEL};
pub use limits::{Limits, TimeLeft, TimePlan};
pub use registry::Registry;
pub use search::{SearchOptions, SearchResult, SearchTable};
