//! `denkmeter rules NAME`.

use anyhow::{anyhow, Result};

pub fn run(name: &str) -> Result<()> {
    let game = crate::find_ruleset(name)?;
    let page = denkmeter_games::registry::rules_page(game.family())
        .ok_or_else(|| anyhow!("no rules page for {name}"))?;
    out!("{page}");
    Ok(())
}
