//! `denkmeter list`.

use anyhow::Result;

pub fn run() -> Result<()> {
    let rulesets = crate::registry().rulesets();
    let width = rulesets.iter().map(|g| g.name().len()).max().unwrap_or(0);
    for game in rulesets {
        outln!("{:width$}  {}", game.name(), game.facts().description);
    }
    Ok(())
}
