//! `denkmeter rules NAME`: the rules page, rendered for a terminal, raw Markdown when piped.

use std::io::IsTerminal;

use anyhow::Result;

pub fn run(name: &str) -> Result<()> {
    let game = crate::find_ruleset(name)?;
    let text = game.facts().rules;
    if std::io::stdout().is_terminal() {
        let width = console::Term::stdout()
            .size_checked()
            .map_or(80, |(_, columns)| usize::from(columns));
        out!("{}", for_terminal(text, width));
    } else {
        out!("{text}");
    }
    Ok(())
}

/// The widest a rendered page is drawn, however wide the terminal.
const MAX_WIDTH: usize = 100;

/// A Markdown page as a terminal shows it: headings, emphasis, lists and tables drawn with
/// the terminal's styles, lines wrapped to `width` columns (at most [`MAX_WIDTH`]).
fn for_terminal(markdown: &str, width: usize) -> String {
    let skin = termimad::MadSkin::default();
    skin.text(markdown, Some(width.clamp(20, MAX_WIDTH)))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_rendered_without_its_markdown_marks() {
        let page = "# Shakti\n\nA **king** and `two` warriors.\n\n## What is reconstructed\n\n- one\n- two\n";
        let shown = for_terminal(page, 60);
        assert!(!shown.contains("**"), "{shown}");
        assert!(!shown.contains("## "), "{shown}");
        assert!(shown.contains("What is reconstructed"), "{shown}");
        assert!(shown.contains("king"), "{shown}");
        // Styled with the terminal's escape sequences.
        assert!(shown.contains('\u{1b}'), "{shown:?}");
        // Wrapped to the width asked.
        let long = "word ".repeat(60);
        let shown = for_terminal(&long, 40);
        let strip = console::strip_ansi_codes(&shown).to_string();
        assert!(strip.lines().count() > 5, "{strip}");
        assert!(strip.lines().all(|l| l.chars().count() <= 40), "{strip}");
    }
}
