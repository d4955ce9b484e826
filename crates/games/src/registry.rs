//! Every ruleset by its stable name, with its rules page.

use std::sync::{Arc, LazyLock};

use denkmeter_engine::dynamic::{AnyGame, Ruleset};

use crate::chad::Chad;
use crate::shakti::Shakti;

static RULESETS: LazyLock<Vec<Arc<dyn AnyGame>>> = LazyLock::new(|| {
    let mut all = vec![Ruleset::shared(Chad::new()), Ruleset::shared(Shakti::new())];
    all.extend(crate::draughts::rulesets());
    all.extend(crate::sjekkers::rulesets());
    all
});

/// Every ruleset, in the order `denkmeter list` shows them.
pub fn rulesets() -> &'static [Arc<dyn AnyGame>] {
    &RULESETS
}

/// The ruleset with this name.
pub fn find(name: &str) -> Option<Arc<dyn AnyGame>> {
    RULESETS.iter().find(|g| g.name() == name).cloned()
}

/// The names of every ruleset, for error messages.
pub fn names() -> Vec<&'static str> {
    RULESETS.iter().map(|g| g.name()).collect()
}

/// The rules page of a game family (`docs/rules/FAMILY.md`), in Markdown.
pub fn rules_page(family: &str) -> Option<&'static str> {
    match family {
        "chad" => Some(include_str!("../../../docs/rules/chad.md")),
        "shakti" => Some(include_str!("../../../docs/rules/shakti.md")),
        "scandinavian" => Some(include_str!("../../../docs/rules/scandinavian.md")),
        "international" => Some(include_str!("../../../docs/rules/international.md")),
        "english" => Some(include_str!("../../../docs/rules/english.md")),
        "sjekkers" => Some(include_str!("../../../docs/rules/sjekkers.md")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_is_found_by_name_and_has_a_rules_page() {
        assert!(!rulesets().is_empty());
        for game in rulesets() {
            let found = find(game.name()).expect("listed rulesets are found");
            assert_eq!(found.name(), game.name());
            assert!(!game.description().is_empty());
            let page = rules_page(game.family()).expect("every game has a rules page");
            assert!(page.contains("reconstructed") || page.contains("Reconstructed"));
        }
        assert!(find("chess").is_none());
        let mut names = names();
        assert_eq!(names.len(), 19);
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 19, "ruleset names are unique");
    }
}
