//! `denkmeter rules NAME`.

use anyhow::Result;

pub fn run(name: &str) -> Result<()> {
    let game = crate::find_ruleset(name)?;
    out!("{}", game.facts().rules);
    Ok(())
}
