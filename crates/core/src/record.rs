//! Game records in one PGN-style format for every game: tag pairs, then numbered moves in the
//! game's notation, then the result.
//!
//! ```
//! use denkmeter_core::Record;
//! let text = "[Game \"chad\"]\n[Ruleset \"chad\"]\n[Result \"*\"]\n\n1. D3-D7 I8-I5 *\n";
//! let record: Record = text.parse().unwrap();
//! assert_eq!(record.tag("Ruleset"), Some("chad"));
//! assert_eq!(record.moves, ["D3-D7", "I8-I5"]);
//! assert_eq!(record.to_string().parse::<Record>().unwrap(), record);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{Game, MoveError, Outcome, Player, Playthrough, PositionError, Status};

/// A record as text structure: tags in order, moves as written, and the result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Comments on the moves, `{...}` in the text: `(n, text)` follows the first `n` moves.
    pub comments: Vec<(usize, String)>,
}

/// Why a record was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: malformed tag {text:?} (expected [Name \"value\"])")]
    Tag { line: usize, text: String },
    #[error("line {line}: unterminated comment")]
    Comment { line: usize },
    #[error("the record has no [Ruleset] tag")]
    NoRuleset,
    #[error("[Ruleset \"{found}\"] does not match the game {expected}")]
    WrongRuleset { expected: String, found: String },
    #[error("[Board \"{wanted}\"]: the record was played on board {wanted:?}, which is not available here (this game is on {available}); load that board file")]
    Board { wanted: String, available: String },
    #[error("[Position]: {0}")]
    Position(#[from] PositionError),
    #[error("move {number} ({player}): {error}")]
    Move {
        number: String,
        player: Player,
        error: MoveError,
    },
    #[error("[Result \"{found}\"] contradicts the final position ({actual})")]
    Result { found: String, actual: String },
    #[error("unknown result {0:?} (expected 1-0, 0-1, 1/2-1/2 or *)")]
    UnknownResult(String),
    #[error("[Termination]: {0}")]
    Termination(String),
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Record {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the game started from a position with Black to move: its record starts with
    /// `1... move`.
    fn black_first(&self) -> bool {
        self.tag("Position")
            .is_some_and(|p| p.trim_end().ends_with(" b"))
    }

    /// The move at `index` (from 0) with its number as the record counts: `12. c3-d4` for
    /// White's, `12... f6-e5` for Black's.
    pub fn numbered(&self, index: usize) -> Option<String> {
        let mv = self.moves.get(index)?;
        Some(numbered_move(index, self.black_first(), mv))
    }

    /// Sets a tag, replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The record of a game: its moves, result, `[Position]` when it did not start from the
    /// ruleset's start, and the given extra tags (players, date).
    pub fn of<G: Game>(game: &Playthrough<G>, extra: &[(&str, &str)]) -> Record {
        let g = game.game();
        let mut record = Record::default();
        record.set_tag("Game", g.facts().family);
        record.set_tag("Ruleset", g.name());
        if let Some((board, text)) = g.board_file() {
            record.set_tag("Board", board);
            record.set_tag("BoardFingerprint", crate::board_fingerprint(text));
        }
        for (k, v) in extra {
            record.set_tag(k, *v);
        }
        let start = g.position_text(game.start());
        if start != g.position_text(&g.start()) {
            record.set_tag("Position", start);
        }
        let status = game.status();
        record.result = match &status {
            Status::Over(o) => o.result_token().to_string(),
            Status::Ongoing => "*".to_string(),
        };
        record.set_tag("Result", record.result.clone());
        if let Status::Over(o) = &status {
            record.set_tag("Termination", o.reason.key());
        }
        record.moves = game.move_texts().to_vec();
        record
    }

    /// Replays the record through the rules. The first move that cannot be read or is illegal
    /// is named by its number; a `[Result]` that the final position contradicts is refused.
    pub fn replay<G: Game>(&self, game: G) -> Result<Playthrough<G>, RecordError> {
        let ruleset = self.tag("Ruleset").ok_or(RecordError::NoRuleset)?;
        if ruleset != game.name() {
            return Err(RecordError::WrongRuleset {
                expected: game.name().to_string(),
                found: ruleset.to_string(),
            });
        }
        if let Some(wanted) = self.tag("Board") {
            let print = self.tag("BoardFingerprint");
            let available = match game.board_file() {
                Some((name, text))
                    if name == wanted
                        && print.map_or(true, |p| p == crate::board_fingerprint(text)) =>
                {
                    None
                }
                Some((name, text)) if name == wanted => Some(format!(
                    "another board of that name, fingerprint {}",
                    crate::board_fingerprint(text)
                )),
                Some((name, _)) => Some(format!("board {name:?}")),
                None => Some("its only board".to_string()),
            };
            if let Some(available) = available {
                return Err(RecordError::Board {
                    wanted: wanted.to_string(),
                    available,
                });
            }
        }
        let start = match self.tag("Position") {
            Some(text) => game.parse_position(text)?,
            None => game.start(),
        };
        let mut play = Playthrough::from_state(game, start);
        let first = play.to_move();
        for (ply, text) in self.moves.iter().enumerate() {
            let player = play.to_move();
            let offset = usize::from(first == Player::Black);
            let number = (ply + offset) / 2 + 1;
            let number = match player {
                Player::White => format!("{number}."),
                Player::Black => format!("{number}..."),
            };
            play.play_text(text).map_err(|error| RecordError::Move {
                number: format!("{number} {text}"),
                player,
                error,
            })?;
        }
        let result = self.tag("Result").unwrap_or(&self.result);
        if !RESULTS.contains(&result) {
            return Err(RecordError::UnknownResult(result.to_string()));
        }
        match play.status() {
            Status::Over(outcome) => {
                if result != "*" && result != outcome.result_token() {
                    return Err(RecordError::Result {
                        found: result.to_string(),
                        actual: outcome.to_string(),
                    });
                }
            }
            Status::Ongoing => {
                let ending = Outcome::from_result(result, self.tag("Termination"))
                    .map_err(|e| RecordError::Termination(e.to_string()))?;
                if let Some(outcome) = ending {
                    play.end(outcome);
                }
            }
        }
        Ok(play)
    }
}

/// The records of a file that holds several one after another (as `denkmeter match --pgn`
/// writes them): each as `(first line, text)`. A record starts at a tag line that follows
/// moves or a result.
pub fn split_records(text: &str) -> Vec<(usize, &str)> {
    let mut records = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut seen_moves = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if seen_moves {
                if let Some((first, from)) = start.take() {
                    records.push((first, &text[from..offset]));
                }
                seen_moves = false;
            }
            start.get_or_insert((i + 1, offset));
        } else if !trimmed.is_empty() {
            start.get_or_insert((i + 1, offset));
            seen_moves = true;
        }
        offset += line.len();
    }
    if let Some((first, from)) = start {
        records.push((first, &text[from..]));
    }
    records
}

/// Move `index` (from 0) of a game, `mv`, with its number as a record counts it: `12. c3-d4`
/// for White's, `12... f6-e5` for Black's (`black_first`: the game started with Black to move).
pub fn numbered_move(index: usize, black_first: bool, mv: &str) -> String {
    let ply = index + usize::from(black_first);
    let dots = if ply % 2 == 0 { "." } else { "..." };
    format!("{}{dots} {mv}", ply / 2 + 1)
}

/// A tag value with `\\` and `"` escaped.
pub(crate) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game's movetext, as records and PDN both write it: the moves, White's numbered
/// (`12. c3-d4`) and Black's unnumbered after them except the first and the first after a
/// comment (`12... f6-e5`; `black_first`: the game started with Black to move); comments in
/// braces after the moves they follow (`(n, text)` after the first `n`; a `}` in one is
/// written `)`); then the result; lines of at most 80 characters.
pub(crate) fn write_movetext(
    f: &mut fmt::Formatter<'_>,
    moves: &[String],
    comments: &[(usize, String)],
    black_first: bool,
    result: &str,
) -> fmt::Result {
    let comments_after = |n: usize| {
        comments
            .iter()
            .filter(move |(at, _)| *at == n)
            .map(|(_, text)| format!("{{{}}}", text.replace('}', ")")))
    };
    let mut tokens: Vec<String> = comments_after(0).collect();
    let mut after_comment = false;
    for (i, mv) in moves.iter().enumerate() {
        let token = if (i + usize::from(black_first)) % 2 == 0 || i == 0 || after_comment {
            numbered_move(i, black_first, mv)
        } else {
            mv.clone()
        };
        tokens.push(token);
        let before = tokens.len();
        tokens.extend(comments_after(i + 1));
        after_comment = tokens.len() > before;
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + token.len() + 1 > 80 {
            writeln!(f, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    writeln!(f, "{line}")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{k} \"{}\"]", escape(v))?;
        }
        writeln!(f)?;
        let result = if self.result.is_empty() {
            "*"
        } else {
            &self.result
        };
        write_movetext(f, &self.moves, &self.comments, self.black_first(), result)
    }
}

fn parse_tag(line: &str, number: usize) -> Result<(String, String), RecordError> {
    let bad = || RecordError::Tag {
        line: number,
        text: line.to_string(),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, rest) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => return Err(bad()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Strips a leading move number (`12.` or `12...`) from a movetext token.
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut record = Record::default();
        let mut in_comment: Option<usize> = None;
        let mut comment = String::new();
        for (i, raw) in text.lines().enumerate() {
            let number = i + 1;
            let line = raw.trim();
            if in_comment.is_none() && line.starts_with('[') {
                let (k, v) = parse_tag(line, number)?;
                record.tags.push((k, v));
                continue;
            }
            let mut rest = line;
            while !rest.is_empty() {
                if in_comment.is_some() {
                    match rest.find('}') {
                        Some(end) => {
                            in_comment = None;
                            comment.push(' ');
                            comment.push_str(&rest[..end]);
                            let text = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                            if !text.is_empty() {
                                record.comments.push((record.moves.len(), text));
                            }
                            comment.clear();
                            rest = &rest[end + 1..];
                        }
                        None => {
                            comment.push(' ');
                            comment.push_str(rest);
                            rest = "";
                        }
                    }
                    continue;
                }
                if let Some(start) = rest.find(['{', ';']) {
                    let (before, after) = rest.split_at(start);
                    push_tokens(&mut record, before);
                    if after.starts_with(';') {
                        rest = "";
                    } else {
                        in_comment = Some(number);
                        rest = &after[1..];
                    }
                } else {
                    push_tokens(&mut record, rest);
                    rest = "";
                }
            }
        }
        if let Some(line) = in_comment {
            return Err(RecordError::Comment { line });
        }
        if record.result.is_empty() {
            record.result = record.tag("Result").unwrap_or("*").to_string();
        }
        Ok(record)
    }
}

fn push_tokens(record: &mut Record, text: &str) {
    for token in text.split_whitespace() {
        if RESULTS.contains(&token) {
            record.result = token.to_string();
            continue;
        }
        let mv = strip_move_number(token);
        if !mv.is_empty() {
            record.moves.push(mv.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tags_numbers_comments_and_result() {
        let text = "[Game \"chad\"]\n[White \"A \\\"quoted\\\" name\"]\n\n\
                    1. D3-D7 {a comment\nover lines} I8-I5 2.C3-C4 ; rest\n2... K9-K8 1/2-1/2\n";
        let r: Record = text.parse().unwrap();
        assert_eq!(r.tag("White"), Some("A \"quoted\" name"));
        assert_eq!(r.moves, ["D3-D7", "I8-I5", "C3-C4", "K9-K8"]);
        assert_eq!(r.comments, [(1, "a comment over lines".to_string())]);
        assert_eq!(r.result, "1/2-1/2");
        let again: Record = r.to_string().parse().unwrap();
        assert_eq!(again, r);
    }

    #[test]
    fn moves_are_numbered_as_the_record_counts_them() {
        let mut r: Record = "[Game \"chad\"]\n\n1. D3-D7 I8-I5 2. C3-C4 *\n"
            .parse()
            .unwrap();
        let numbered: Vec<_> = (0..4).map(|i| r.numbered(i)).collect();
        assert_eq!(
            numbered,
            [
                Some("1. D3-D7".to_string()),
                Some("1... I8-I5".to_string()),
                Some("2. C3-C4".to_string()),
                None
            ]
        );
        r.set_tag("Position", "12/12/12/12/12/12/12/12/12/12/12/12 b");
        assert_eq!(r.numbered(0).as_deref(), Some("1... D3-D7"));
        assert_eq!(r.numbered(1).as_deref(), Some("2. I8-I5"));
        assert!(r.to_string().contains("1... D3-D7 2. I8-I5 C3-C4 *"), "{r}");
    }

    #[test]
    fn a_file_of_several_records_splits_at_each_tag_section() {
        let text =
            "[Game \"a\"]\n[Result \"*\"]\n\n1. x y *\n\n[Game \"b\"]\n\n1. z *\n[Game \"c\"]\n";
        let records = split_records(text);
        let firsts: Vec<usize> = records.iter().map(|r| r.0).collect();
        assert_eq!(firsts, [1, 6, 9]);
        assert!(records[0].1.ends_with("1. x y *\n\n"));
        assert_eq!(records[2].1, "[Game \"c\"]\n");
        assert!(split_records("\n\n").is_empty());
    }

    #[test]
    fn malformed_tags_name_their_line() {
        let err = "[Game \"chad\"]\n[White unquoted]\n"
            .parse::<Record>()
            .unwrap_err();
        assert!(matches!(err, RecordError::Tag { line: 2, .. }), "{err}");
        let err = "[Game \"chad\"]\n1. a {open".parse::<Record>().unwrap_err();
        assert_eq!(err, RecordError::Comment { line: 2 });
        assert!("[]".parse::<Record>().is_err());
        assert!("[A \"x\"y\"]".parse::<Record>().is_err());
    }
}
