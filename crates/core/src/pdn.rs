//! PDN, the draughts world's game record format (Portable Draughts Notation, version 3.0 as
//! specified at pdn.fmjd.org): reading whole collections leniently, one error per game that
//! cannot be read, and writing a [`crate::Record`] as PDN.
//!
//! PDN looks like PGN: tag pairs, then numbered moves, then a result. What it adds or allows, and
//! how each is read here:
//! - `[GameType "20"]` names the rules (20 International draughts, 21 English checkers; see
//!   [`PdnType`]); `[FEN "W:W31-50:B1-20"]` gives the start position.
//! - Moves by square number (`32-28`, `28x19`, `26x17x10x1` with every landing square, `28:19`,
//!   `0`-padded `01-06`) or by square name (`c3-d4`, `c3d4`).
//! - Comments `{...}` are kept with the move they follow; `%` and `;` comment out the rest of a
//!   line; variations `(...)`, however nested, numeric annotation glyphs (`$1`) and move
//!   strengths (`32-28!?`, `19-23(?)`) are skipped.
//! - Results `2-0`, `1-1`, `0-2` (International's two points for a win), `1-0`, `1/2-1/2`,
//!   `0-1`, and `*`; a result or `*` ends a game, as does a new tag section.
//!
//! ```
//! use denkmeter_core::pdn::read_collection;
//! let text = "[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 19-23 {a classic} 2. 28x19 2-0\n\
//!             [GameType \"20\"]\n1. 33-28 17-22 *";
//! let games = read_collection(text);
//! assert_eq!(games.len(), 2);
//! let first = games[0].as_ref().unwrap();
//! assert_eq!(first.moves, ["32-28", "19-23", "28x19"]);
//! assert_eq!(first.result.as_deref(), Some("2-0"));
//! assert_eq!(first.comments, [(2, "a classic".to_string())]);
//! ```

use std::fmt;

/// How PDN names a ruleset (a ruleset's [`crate::Facts::pdn`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PdnType {
    /// Not a draughts ruleset: no PDN.
    #[default]
    None,
    /// A standard `GameType` number (20 International draughts, 21 English checkers).
    GameType(u16),
    /// Draughts without a standard `GameType` (the Scandinavian rulesets): named by
    /// Denkmeter's own tag, `[Ruleset "scandinavian-8x8"]`, which PDN readers skip as unknown.
    Ruleset,
}

impl PdnType {
    /// Whether the ruleset's games are written in PDN.
    pub fn is_draughts(self) -> bool {
        self != PdnType::None
    }

    /// Whether results are written with International's two points for a win (`2-0`, `1-1`,
    /// `0-2`), as the standard says for game type 20.
    pub fn two_points(self) -> bool {
        self == PdnType::GameType(20)
    }
}

/// The most games a collection may hold; the rest are refused.
pub const MAX_GAMES: usize = 100_000;
/// The most moves one game may hold.
pub const MAX_MOVES: usize = 10_000;
/// The longest comment kept, in bytes; longer ones are cut.
pub const MAX_COMMENT: usize = 4_096;

/// One game of a collection as written: its tags, its main line of moves, its comments and
/// its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Its number in the collection, from 1.
    pub number: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// The main line's moves as written, without numbers, strengths or annotations; captures
    /// written with `:` are given with `x`, and square numbers lose leading zeros.
    pub moves: Vec<String>,
    /// Comments on the main line: `(n, text)` follows the first `n` moves.
    pub comments: Vec<(usize, String)>,
    /// The result that ended the game's moves (`2-0`, `1-0`, `*`, ...), if any.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// How a person would name the game: `game 3 (Jansen,G. - Valneris,G., line 120)`.
    pub fn label(&self) -> String {
        let players = match (self.tag("White"), self.tag("Black")) {
            (Some(w), Some(b)) if !w.is_empty() || !b.is_empty() => format!("{w} - {b}, "),
            _ => String::new(),
        };
        format!("game {} ({players}line {})", self.number, self.line)
    }

    /// The result: the tag's if the moves ended without one (or with `*` where the tag says
    /// more).
    pub fn result(&self) -> &str {
        match (self.result.as_deref(), self.tag("Result")) {
            (Some("*") | None, Some(tag)) if !tag.trim().is_empty() => tag.trim(),
            (Some(result), _) => result,
            (None, _) => "*",
        }
    }
}

/// A game of a collection that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {number} (line {line}): {reason}")]
pub struct PdnError {
    pub number: usize,
    pub line: usize,
    pub reason: String,
}

const RESULTS: [&str; 8] = ["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"];

/// Reads every game of a PDN collection. A game that cannot be read is an error naming it
/// and its line; the games after it are still read. At most [`MAX_GAMES`].
pub fn read_collection(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    let mut reader = Reader {
        text,
        at: 0,
        line: 1,
        blank_so_far: true,
        no_close_brace_from: usize::MAX,
        no_close_paren_from: usize::MAX,
        games: Vec::new(),
    };
    reader.run();
    reader.games
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    /// Whether only blank space (or a byte order mark) came before `at` on its line.
    blank_so_far: bool,
    /// Past this offset the text has no `}` (learnt from a comment never closed), so that
    /// every later unclosed comment fails at once instead of scanning to the end again.
    no_close_brace_from: usize,
    /// The same for `)` and variations.
    no_close_paren_from: usize,
    games: Vec<Result<PdnGame, PdnError>>,
}

/// A game being read, and the first reason it cannot be.
struct Current {
    game: PdnGame,
    error: Option<(usize, String)>,
    /// Whether anything of the game was seen (a tag, a move, a comment).
    started: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.blank_so_far = true;
        } else if !(c.is_whitespace() || c == '\u{feff}') {
            self.blank_so_far = false;
        }
        Some(c)
    }

    fn new_game(&self) -> Current {
        Current {
            game: PdnGame {
                number: self.games.len() + 1,
                line: self.line,
                ..PdnGame::default()
            },
            error: None,
            started: false,
        }
    }

    fn finish(&mut self, mut current: Current) {
        if !current.started {
            return;
        }
        current.game.number = self.games.len() + 1;
        let result = match current.error {
            Some((line, reason)) => Err(PdnError {
                number: current.game.number,
                line,
                reason,
            }),
            None if current.game.moves.is_empty()
                && current.game.tag("FEN").is_none()
                && current.game.tags.is_empty() =>
            {
                return;
            }
            None => Ok(current.game),
        };
        if self.games.len() < MAX_GAMES {
            self.games.push(result);
        } else if self.games.len() == MAX_GAMES {
            self.games.push(Err(PdnError {
                number: MAX_GAMES + 1,
                line: self.line,
                reason: format!(
                    "a collection holds at most {MAX_GAMES} games; the rest are not read"
                ),
            }));
        }
    }

    fn run(&mut self) {
        let mut current = self.new_game();
        let mut in_moves = false;
        loop {
            // Blank space, and `%` comments at the start of a line.
            while let Some(c) = self.peek() {
                if c.is_whitespace() || c == '\u{feff}' {
                    self.bump();
                } else if c == '%' && self.at_line_start() {
                    self.skip_line();
                } else {
                    break;
                }
            }
            let Some(c) = self.peek() else { break };
            let line = self.line;
            match c {
                '[' => {
                    if in_moves {
                        // A tag after moves starts the next game.
                        let done = std::mem::replace(&mut current, self.new_game());
                        self.finish(done);
                        in_moves = false;
                    }
                    current.start(line);
                    match self.tag() {
                        Ok(tag) => current.game.tags.push(tag),
                        Err(reason) => current.fail(line, reason),
                    }
                }
                '{' => {
                    current.start(line);
                    match self.comment() {
                        Ok(text) => {
                            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                            if !text.is_empty() {
                                let n = current.game.moves.len();
                                current.game.comments.push((n, cut(text, MAX_COMMENT)));
                            }
                        }
                        Err(reason) => {
                            current.fail(line, reason);
                        }
                    }
                }
                ';' => self.skip_line(),
                '(' => {
                    current.start(line);
                    if let Err(reason) = self.variation() {
                        current.fail(line, reason);
                    }
                }
                ')' => {
                    self.bump();
                    current.fail(line, "a ')' closes no variation".to_string());
                }
                '/' => {
                    // A setup command inside the moves (PDN 3.0's `/FEN "..."/`).
                    self.bump();
                    while let Some(c) = self.bump() {
                        if c == '/' {
                            break;
                        }
                    }
                    current.start(line);
                    current.fail(
                        line,
                        "a setup command (/.../) inside the moves is not supported: give the position in a [FEN] tag".to_string(),
                    );
                }
                _ => {
                    let token = self.token();
                    current.start(line);
                    in_moves = true;
                    if let Some(result) = RESULTS.iter().find(|&&r| r == token) {
                        current.game.result = Some(result.to_string());
                        let done = std::mem::replace(&mut current, self.new_game());
                        self.finish(done);
                        in_moves = false;
                        continue;
                    }
                    match read_move_token(token) {
                        Ok(Some(mv)) => {
                            if current.game.moves.len() >= MAX_MOVES {
                                current.fail(line, format!("more than {MAX_MOVES} moves"));
                            } else {
                                current.game.moves.push(mv);
                            }
                        }
                        Ok(None) => {}
                        Err(reason) => {
                            let number = current.game.moves.len() / 2 + 1;
                            current.fail(line, format!("move {number}: {reason}"));
                        }
                    }
                }
            }
        }
        self.finish(current);
    }

    fn at_line_start(&self) -> bool {
        self.blank_so_far
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// A run of characters up to blank space or a character that starts something else.
    fn token(&mut self) -> &str {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '[' | '{' | '(' | ')' | ';') {
                break;
            }
            // A move strength in brackets, `19-23(?)`, is part of its move.
            self.bump();
        }
        // `19-23(!?)`: take the bracketed strength too.
        if self.text[self.at..].starts_with('(') {
            let rest = &self.text[self.at + 1..];
            let strength = rest.chars().take_while(|c| matches!(c, '!' | '?')).count();
            if strength > 0 && rest[strength..].starts_with(')') && self.at > start {
                for _ in 0..strength + 2 {
                    self.bump();
                }
            }
        }
        if self.at == start {
            // Never stop on a character the loop does not consume.
            self.bump();
        }
        &self.text[start..self.at]
    }

    /// `[Name "value"]`, the value with `\"` and `\\` escapes.
    fn tag(&mut self) -> Result<(String, String), String> {
        self.bump(); // [
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text[start..self.at].to_string();
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some('"') {
            self.skip_past(']');
            return Err(format!(
                "a malformed tag (expected [Name \"value\"]) after {name:?}"
            ));
        }
        self.bump(); // "
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(format!("the tag {name} has no closing quote")),
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => return Err(format!("the tag {name} has no closing quote")),
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() == Some(']') {
            self.bump();
            Ok((name, value))
        } else {
            self.skip_past(']');
            Err(format!("the tag {name} is not closed by ]"))
        }
    }

    fn skip_past(&mut self, end: char) {
        while let Some(c) = self.bump() {
            if c == end || c == '\n' {
                break;
            }
        }
    }

    /// `{...}`, which may span lines. One never closed is an error, and reading goes on from
    /// the line after its opening, so that the games after it are not swallowed.
    fn comment(&mut self) -> Result<String, String> {
        let opened = self.line;
        let blank = self.blank_so_far;
        self.bump(); // {
        let start = self.at;
        if start < self.no_close_brace_from {
            while let Some(c) = self.bump() {
                if c == '}' {
                    return Ok(self.text[start..self.at - 1].to_string());
                }
            }
            self.no_close_brace_from = start;
        }
        (self.at, self.line, self.blank_so_far) = (start, opened, blank);
        self.skip_line();
        Err(format!(
            "the comment opened on line {opened} is never closed"
        ))
    }

    /// `(...)`, nested to any depth, with comments inside: skipped.
    fn variation(&mut self) -> Result<(), String> {
        let opened = self.line;
        if self.at >= self.no_close_paren_from {
            self.skip_line();
            return Err(format!(
                "the variation opened on line {opened} is never closed"
            ));
        }
        let from = self.at;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '(' => {
                    depth += 1;
                    self.bump();
                }
                ')' => {
                    self.bump();
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => {
                    self.comment()?;
                }
                '[' if self.at_line_start() => break,
                ';' => self.skip_line(),
                '%' if self.at_line_start() => self.skip_line(),
                _ => {
                    self.bump();
                }
            }
        }
        if self.peek().is_none() {
            self.no_close_paren_from = from;
        }
        Err(format!(
            "the variation opened on line {opened} is never closed"
        ))
    }
}

impl Current {
    /// Marks the game begun on `line` by the first thing read of it.
    fn start(&mut self, line: usize) {
        if !self.started {
            self.started = true;
            self.game.line = line;
        }
    }

    fn fail(&mut self, line: usize, reason: String) {
        self.start(line);
        if self.error.is_none() {
            self.error = Some((line, reason));
        }
    }
}

fn cut(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// A movetext token as a move (`Some`), nothing to keep (`None`: a move number, `...`, a NAG),
/// or why it is not a move.
fn read_move_token(token: &str) -> Result<Option<String>, String> {
    // `12.`, `12...`, `12.32-28`, `...`, `$1`.
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = if token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else if token.starts_with("...") {
        token.trim_start_matches('.')
    } else {
        token
    };
    if rest.is_empty() || (rest.starts_with('$') && rest[1..].bytes().all(|b| b.is_ascii_digit())) {
        return Ok(None);
    }
    // A move strength: `32-28!?`, `19-23(?)`.
    let body = rest
        .trim_end_matches(['!', '?', ')'])
        .trim_end_matches('(')
        .trim_end_matches(['!', '?']);
    if body.is_empty() {
        return Ok(None);
    }
    if body == "-" || body == "--" {
        return Err("an unknown move (-) cannot be replayed".to_string());
    }
    let lower = body.to_ascii_lowercase();
    let capture = lower.contains(['x', ':']);
    let parts: Vec<&str> = lower.split(['-', 'x', ':']).collect();
    let square = |p: &str| -> Option<String> {
        if !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()) {
            let n: u32 = p.parse().ok()?;
            (n > 0).then(|| n.to_string())
        } else {
            let mut chars = p.chars();
            let file = chars.next().filter(|c| c.is_ascii_lowercase())?;
            let rank = chars.as_str();
            (!rank.is_empty() && rank.len() <= 2 && rank.bytes().all(|b| b.is_ascii_digit()))
                .then(|| format!("{file}{rank}"))
        }
    };
    let squares = if parts.len() == 1 {
        // `c3d4`: two square names run together.
        let split = lower
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i);
        match split {
            Some(i) => vec![square(&lower[..i]), square(&lower[i..])],
            None => vec![None],
        }
    } else {
        parts.iter().map(|p| square(p)).collect()
    };
    match squares.into_iter().collect::<Option<Vec<String>>>() {
        Some(squares) if squares.len() >= 2 => {
            Ok(Some(squares.join(if capture { "x" } else { "-" })))
        }
        _ => Err(format!("cannot read {token:?} as a move")),
    }
}

/// A result as PDN writes it for a ruleset: `2-0`, `1-1`, `0-2` with two points for a win,
/// else `1-0`, `1/2-1/2`, `0-1`; `*` unchanged.
pub fn result_to_pdn(token: &str, kind: PdnType) -> &'static str {
    match (token, kind.two_points()) {
        ("1-0", true) => "2-0",
        ("0-1", true) => "0-2",
        ("1/2-1/2", true) => "1-1",
        ("1-0", false) => "1-0",
        ("0-1", false) => "0-1",
        ("1/2-1/2", false) => "1/2-1/2",
        _ => "*",
    }
}

/// A PDN result as a record's (`1-0`, `0-1`, `1/2-1/2`, `*`), or why it cannot be one.
pub fn result_from_pdn(token: &str) -> Result<&'static str, String> {
    match token.trim() {
        "2-0" | "1-0" => Ok("1-0"),
        "0-2" | "0-1" => Ok("0-1"),
        "1-1" | "1/2-1/2" => Ok("1/2-1/2"),
        "*" | "" | "?" => Ok("*"),
        "0-0" => {
            Err("a double forfeit (0-0) is not a result a game can be replayed to".to_string())
        }
        other => Err(format!("unknown result {other:?}")),
    }
}

/// A PDN game as text: tags, then the numbered moves (`black_first`: the
/// first move is the second player's, `1...`), comments, the result; lines of at most 80.
#[derive(Debug)]
pub struct PdnText<'a> {
    pub tags: &'a [(String, String)],
    pub moves: &'a [String],
    pub comments: &'a [(usize, String)],
    pub black_first: bool,
    pub result: &'a str,
}

impl fmt::Display for PdnText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in self.tags {
            writeln!(f, "[{k} \"{}\"]", crate::record::escape(v))?;
        }
        writeln!(f)?;
        crate::record::write_movetext(f, self.moves, self.comments, self.black_first, self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> PdnGame {
        let games = read_collection(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.into_iter().next().unwrap().unwrap()
    }

    #[test]
    fn reads_moves_in_every_written_form() {
        let game = one("1.32-28!? 19-23(!?!!!) 2.28x19 $1 01-06 c3d4 3... 28:19 26x17x10x1 *");
        assert_eq!(
            game.moves,
            [
                "32-28",
                "19-23",
                "28x19",
                "1-6",
                "c3-d4",
                "28x19",
                "26x17x10x1"
            ]
        );
        assert_eq!(game.result.as_deref(), Some("*"));
    }

    #[test]
    fn skips_variations_and_keeps_comments_with_their_move() {
        let game = one(
            "[Event \"x\"]\n% a line comment\n32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) \
             28x19 {take back\n  with the man} 14x23 ; the rest of the line\n2-0",
        );
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(game.comments, [(3, "take back with the man".to_string())]);
        assert_eq!(game.result(), "2-0");
    }

    #[test]
    fn games_are_separated_by_results_and_by_tags() {
        let games = read_collection(
            "[Event \"a\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-28\n[Event \"c\"]\n1. 31-27 1-1\n",
        );
        let events: Vec<_> = games
            .iter()
            .map(|g| g.as_ref().unwrap().tag("Event").unwrap().to_string())
            .collect();
        assert_eq!(events, ["a", "b", "c"]);
        let lines: Vec<_> = games.iter().map(|g| g.as_ref().unwrap().line).collect();
        assert_eq!(lines, [1, 4, 6]);
    }

    #[test]
    fn a_bad_game_is_named_and_the_rest_still_read() {
        let games = read_collection(
            "[Event \"a\"]\n1. 32-28 zz-9 *\n[Event \"b\"\n1. 32-28 *\n\
             [Event \"c\"]\n1. 32-28 {open\n\n[Event \"d\"]\n1. 33-28 19-23 2-0\n",
        );
        let errors: Vec<String> = games
            .iter()
            .filter_map(|g| g.as_ref().err().map(|e| e.to_string()))
            .collect();
        assert_eq!(errors.len(), 3, "{games:?}");
        assert!(
            errors[0].starts_with("game 1 (line 2): move 1: cannot read \"zz-9\""),
            "{errors:?}"
        );
        assert!(errors[1].starts_with("game 2 (line 3): "), "{errors:?}");
        assert!(errors[2].contains("never closed"), "{errors:?}");
    }

    #[test]
    fn results_convert_both_ways() {
        for (pdn, record) in [
            ("2-0", "1-0"),
            ("1-1", "1/2-1/2"),
            ("0-2", "0-1"),
            ("*", "*"),
        ] {
            assert_eq!(result_from_pdn(pdn), Ok(record));
            assert_eq!(result_to_pdn(record, PdnType::GameType(20)), pdn);
        }
        assert_eq!(result_to_pdn("1-0", PdnType::GameType(21)), "1-0");
        assert!(result_from_pdn("0-0").is_err());
        assert!(result_from_pdn("3-0").is_err());
    }

    #[test]
    fn writes_numbered_moves_comments_and_result() {
        let tags = vec![("GameType".to_string(), "20".to_string())];
        let moves: Vec<String> = ["32-28", "19-23", "28x19"].map(String::from).to_vec();
        let comments = vec![(1, "the usual".to_string())];
        let text = PdnText {
            tags: &tags,
            moves: &moves,
            comments: &comments,
            black_first: false,
            result: "2-0",
        }
        .to_string();
        assert_eq!(
            text,
            "[GameType \"20\"]\n\n1. 32-28 {the usual} 1... 19-23 2. 28x19 2-0\n"
        );
        let again = one(&text);
        assert_eq!((again.moves, again.comments), (moves, comments));
    }

    #[test]
    fn arbitrary_text_never_panics() {
        for text in [
            "[",
            "{",
            "(",
            ")",
            "/",
            "1.",
            "...",
            "[A \"\\",
            "\u{feff}x",
            "é-ü x:",
            "1. é *",
            "1. 32-28 Ü4 *",
            "éa",
            "aé",
        ] {
            let _ = read_collection(text);
        }
        // A bad token is one game's error, not the end of the reading.
        let games = read_collection("1. é *\n[Event \"b\"]\n1. 32-28 *");
        assert!(games[0].is_err() && games[1].is_ok(), "{games:?}");
    }

    #[test]
    fn line_comments_and_byte_order_marks_are_skipped_everywhere() {
        let game = one(
            "\u{feff}% header\n[GameType \"20\"]\n1. 32-28 (1. 33-28 ; a ) comment\n 17-22) 19-23 *",
        );
        assert_eq!(game.moves, ["32-28", "19-23"]);
    }

    #[test]
    fn many_unclosed_comments_are_read_without_rescanning() {
        // Each would scan to the end of the text; only the first does. (Quadratic reading took
        // seconds on 80 KB; this is 200 KB.)
        let text = format!("1. 32-28 *\n{}", "{\n(\n".repeat(50_000));
        let started = std::time::Instant::now();
        let games = read_collection(&text);
        assert!(games.len() >= 2);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
