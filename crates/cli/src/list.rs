//! `denkmeter list`.

use anyhow::Result;

pub fn run() -> Result<()> {
    let rulesets = crate::registry().rulesets();
    let width = rulesets.iter().map(|g| g.name().len()).max().unwrap_or(0);
    let titles: Vec<String> = rulesets.iter().map(|g| g.facts().display_name()).collect();
    let title_width = titles.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    for (game, title) in rulesets.iter().zip(&titles) {
        outln!(
            "{:width$}  {title:title_width$}  {}",
            game.name(),
            game.facts().description
        );
    }
    Ok(())
}
