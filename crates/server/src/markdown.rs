//! The rules pages as HTML: Markdown rendered on the server with pulldown-cmark, so the browser
//! inserts a finished page and carries no Markdown renderer.
//!
//! The pages are ours, but the output is made safe anyway: raw HTML in the Markdown is shown as
//! text, and links lead only to `http(s)://` addresses or anchors on the page (any other link
//! keeps its words and loses its target). Headings carry ids made from their words (lower case,
//! every run of other characters a `-`), the anchors the browser's own renderer used to make.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// Renders a Markdown page as an HTML fragment (tables and strikethrough included).
pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events: Vec<Event> = Vec::new();
    // For every open link: whether it was dropped (its End must be dropped too).
    let mut links: Vec<bool> = Vec::new();
    for event in Parser::new_ext(markdown, options) {
        match event {
            // Raw HTML is shown, not obeyed.
            Event::Html(text) | Event::InlineHtml(text) => events.push(Event::Text(text)),
            Event::Start(Tag::HtmlBlock) => events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => events.push(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Link { ref dest_url, .. }) => {
                let allowed = ["http://", "https://", "#"]
                    .iter()
                    .any(|p| dest_url.starts_with(p));
                links.push(!allowed);
                if allowed {
                    events.push(event);
                }
            }
            // Images are shown as their words: a page loads nothing from elsewhere.
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            Event::End(TagEnd::Link) => {
                if !links.pop().unwrap_or(false) {
                    events.push(event);
                }
            }
            // Wide tables scroll inside the page rather than widening it.
            Event::Start(Tag::Table(_)) => {
                events.push(Event::Html(r#"<div class="table-wrap">"#.into()));
                events.push(event);
            }
            Event::End(TagEnd::Table) => {
                events.push(event);
                events.push(Event::Html("</div>".into()));
            }
            other => events.push(other),
        }
    }
    add_heading_ids(&mut events);
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// Gives every heading the id made from its words.
fn add_heading_ids(events: &mut [Event]) {
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { .. }) = events[i] {
            let mut words = String::new();
            let mut j = i + 1;
            while j < events.len() && !matches!(events[j], Event::End(TagEnd::Heading(_))) {
                if let Event::Text(text) | Event::Code(text) = &events[j] {
                    words.push_str(text);
                }
                j += 1;
            }
            if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
                *id = Some(slug(&words).into());
            }
            i = j;
        }
        i += 1;
    }
}

/// `What is reconstructed or ruled here` -> `what-is-reconstructed-or-ruled-here`.
fn slug(words: &str) -> String {
    let mut out = String::new();
    for c in words.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lists_code_and_tables_are_rendered() {
        let html = to_html(
            "# Chad\n\nSome **bold** and `code`.\n\n## The `sjekkers-checkers` rules\n\n\
             - one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n",
        );
        assert!(html.contains(r#"<h1 id="chad">Chad</h1>"#), "{html}");
        assert!(
            html.contains(r#"<h2 id="the-sjekkers-checkers-rules">"#),
            "{html}"
        );
        assert!(html.contains("<strong>bold</strong>") && html.contains("<code>code</code>"));
        assert!(html.contains("<li>one</li>"), "{html}");
        assert!(
            html.contains(r#"<div class="table-wrap"><table>"#)
                && html.contains("</table>\n</div>"),
            "{html}"
        );
        assert!(html.contains("<del>old</del>"), "{html}");
    }

    #[test]
    fn raw_html_is_escaped_and_only_safe_links_are_kept() {
        let html = to_html(
            "<script>alert(1)</script>\n\nText <b onclick=\"x()\">bold</b>.\n\n\
             [web](https://example.org) [here](#board) [bad](javascript:alert(1)) [file](x.md)\n",
        );
        assert!(!html.contains("<script") && !html.contains("<b "), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(
            html.contains(r#"<a href="https://example.org">web</a>"#),
            "{html}"
        );
        assert!(html.contains(r##"<a href="#board">here</a>"##), "{html}");
        assert!(
            !html.contains("javascript:") && !html.contains("x.md"),
            "{html}"
        );
        assert!(html.contains(" bad ") && html.contains(" file"), "{html}");
        let html = to_html("A ![tracker](https://example.org/t.png) and ![x](javascript:y).\n");
        assert!(
            !html.contains("<img") && !html.contains("javascript:"),
            "{html}"
        );
        assert!(html.contains("tracker"), "{html}");
    }

    #[test]
    fn slugs_match_the_old_anchors() {
        assert_eq!(
            slug("What is reconstructed or ruled here"),
            "what-is-reconstructed-or-ruled-here"
        );
        assert_eq!(
            slug("  Check, checkmate -- and draws! "),
            "check-checkmate-and-draws"
        );
        assert_eq!(slug("Sjekkers 2"), "sjekkers-2");
        assert_eq!(slug("Éé"), "");
    }
}
