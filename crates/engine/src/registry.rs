//! The rulesets by name, as trait objects: built once from the rules crate's list and handed
//! to whoever needs it (the command line builds it; the server receives it as state).

use std::sync::Arc;

use denkmeter_core::{Game, RulesetVisitor};

use crate::dynamic::{AnyGame, Ruleset};

/// Every ruleset, in the order the list gave them.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    rulesets: Vec<Arc<dyn AnyGame>>,
}

impl RulesetVisitor for Registry {
    fn visit<G: Game>(&mut self, game: G) {
        self.rulesets.push(Arc::new(Ruleset(game)));
    }
}

impl Registry {
    /// The registry of the rulesets a list visits, e.g.
    /// `Registry::from_list(denkmeter_games::visit_rulesets)`.
    ///
    /// # Panics
    /// If two rulesets share a name (a programming error in the list).
    pub fn from_list(list: impl FnOnce(&mut Registry)) -> Registry {
        let mut registry = Registry::default();
        list(&mut registry);
        for (i, game) in registry.rulesets.iter().enumerate() {
            assert!(
                registry.rulesets[..i]
                    .iter()
                    .all(|g| g.name() != game.name()),
                "two rulesets are named {}",
                game.name()
            );
        }
        registry
    }

    /// Every ruleset, in the list's order.
    pub fn rulesets(&self) -> &[Arc<dyn AnyGame>] {
        &self.rulesets
    }

    /// The ruleset with this name.
    pub fn find(&self, name: &str) -> Option<Arc<dyn AnyGame>> {
        self.rulesets.iter().find(|g| g.name() == name).cloned()
    }

    /// The names of every ruleset, for error messages.
    pub fn names(&self) -> Vec<&'static str> {
        self.rulesets.iter().map(|g| g.name()).collect()
    }
}
