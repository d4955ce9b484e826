//! The rules of every Denkmeter game, one module per game, and the one list of rulesets.
//!
//! This crate knows only `denkmeter-core`: search, matches and the object-safe layer live in the
//! engine, which wraps these rulesets (see `denkmeter_engine::Registry`).

use denkmeter_core::RulesetVisitor;

pub mod chad;
pub mod draughts;
pub mod fort_chitral;
pub mod kamelen;
pub mod schada;
pub mod shakti;
pub mod sjekkers;
pub mod straat;
pub mod trangalla;

/// Hands every ruleset to `visitor`, in the order `denkmeter list` shows them: the one place
/// the workspace learns of the games. A new game adds one line here.
pub fn visit_rulesets<V: RulesetVisitor>(visitor: &mut V) {
    chad::rulesets(visitor);
    shakti::rulesets(visitor);
    schada::rulesets(visitor);
    draughts::rulesets(visitor);
    sjekkers::rulesets(visitor);
    kamelen::rulesets(visitor);
    fort_chitral::rulesets(visitor);
    straat::rulesets(visitor);
    trangalla::rulesets(visitor);
}
