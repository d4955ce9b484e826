//! The lab: what a rule does to a game, measured by self-play.
//!
//! A study is a list of independent games: for every ruleset and every player strength, a
//! number of games of the player against itself, each from its own opening and seed
//! ([`study`]). The games are played by the engine's agents and measured ([`play`]): result,
//! ending, length, branching factor along the game, any score. Each game's measurements are
//! stored as it ends ([`store`], SQLite or PostgreSQL, the database being the only coordinator
//! of any number of workers: [`run`]), and the report ([`report`](mod@report): first-player score, draw
//! rate, length, endings, branching, each with a 95 % interval, [`stats`]) and its charts
//! ([`charts`]) are computed from the stored games. See docs/lab.md.

pub mod charts;
pub mod figures;
pub mod play;
pub mod report;
pub mod run;
pub mod stats;
pub mod store;
pub mod study;

pub use figures::{figures, Figure};
pub use play::{GameMeasure, Side};
pub use report::{report, StudyReport};
pub use run::{play_study, work, Prepared, RunError, Worker};
pub use store::{Backend, LabStore, LabStoreError, StoredStudy};
pub use study::{BoardFile, StudyOpenings, StudyRuleset, StudySpec};
