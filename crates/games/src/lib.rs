//! The rules of every Denkmeter game, one module per game, and the registry of rulesets.

pub mod chad;
pub mod draughts;
pub mod registry;
pub mod shakti;
pub mod sjekkers;
