//! Schada board files: the paths printed on each square, as text (the format of
//! `boards/reconstruction.txt`). A line `SQUARE PATH ; PATH ...` gives a square's paths, each a
//! list of unit steps (`N NE E SE S SW W NW`); `#` starts a comment. A file lists the 32 squares
//! of ranks 1-4 (ranks 5-8 are their 180-degree rotation) or all 64 squares.

use denkmeter_core::BoardFileError;

/// A unit step as (files, ranks).
pub(crate) type Step = (i8, i8);

const STEPS: [(&str, Step); 8] = [
    ("N", (0, 1)),
    ("NE", (1, 1)),
    ("E", (1, 0)),
    ("SE", (1, -1)),
    ("S", (0, -1)),
    ("SW", (-1, -1)),
    ("W", (-1, 0)),
    ("NW", (-1, 1)),
];

/// The most paths a square may carry and the most steps a path may take: generous bounds that
/// keep a hostile file from building huge tables.
pub(crate) const MAX_PATHS: usize = 16;
pub(crate) const MAX_STEPS: usize = 16;

/// A whole board's paths: `paths[square]` for square `file + 8 * rank`, each a list of steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoardPaths {
    pub paths: Vec<Vec<Vec<Step>>>,
}

fn square_of(name: &str) -> Option<u8> {
    let mut chars = name.chars();
    let file = chars.next()?.to_ascii_lowercase();
    let rank = chars.next()?;
    if chars.next().is_some() || !('a'..='h').contains(&file) || !('1'..='8').contains(&rank) {
        return None;
    }
    Some((file as u8 - b'a') + 8 * (rank as u8 - b'1'))
}

fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

fn line_error(line: usize, reason: impl Into<String>) -> BoardFileError {
    BoardFileError::Line {
        line,
        reason: reason.into(),
    }
}

/// Reads a board file, checking every square's paths.
pub(crate) fn parse(text: &str) -> Result<BoardPaths, BoardFileError> {
    if text.len() > denkmeter_core::MAX_BOARD_FILE {
        return Err(BoardFileError::Whole(format!(
            "{} bytes; the limit is {}",
            text.len(),
            denkmeter_core::MAX_BOARD_FILE
        )));
    }
    // A byte-order mark (as some editors write) is no part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut paths: Vec<Option<Vec<Vec<Step>>>> = vec![None; 64];
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let (name, rest) = content
            .split_once(char::is_whitespace)
            .unwrap_or((content, ""));
        let sq = square_of(name).ok_or_else(|| {
            line_error(
                line,
                format!("expected a square a1-h8 and its paths, found {name:?}"),
            )
        })?;
        if paths[sq as usize].is_some() {
            return Err(line_error(line, format!("square {name} is listed twice")));
        }
        if rest.trim().is_empty() {
            return Err(line_error(line, format!("square {name} has no paths")));
        }
        let mut square_paths = Vec::new();
        for path_text in rest.split(';') {
            let mut path = Vec::new();
            let (mut file, mut rank) = (i32::from(sq % 8), i32::from(sq / 8));
            for word in path_text.split_whitespace() {
                let step = STEPS
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(word))
                    .map(|&(_, s)| s)
                    .ok_or_else(|| {
                        line_error(
                            line,
                            format!(
                                "unknown step {word:?} (steps are N NE E SE S SW W NW, paths are separated by `;`)"
                            ),
                        )
                    })?;
                file += i32::from(step.0);
                rank += i32::from(step.1);
                if !(0..8).contains(&file) || !(0..8).contains(&rank) {
                    return Err(line_error(
                        line,
                        format!("a path of {name} steps off the board"),
                    ));
                }
                path.push(step);
            }
            if path.is_empty() {
                return Err(line_error(line, format!("{name} has an empty path")));
            }
            if path.len() > MAX_STEPS {
                return Err(line_error(
                    line,
                    format!("a path of {name} has more than {MAX_STEPS} steps"),
                ));
            }
            if (file, rank) == (i32::from(sq % 8), i32::from(sq / 8)) {
                return Err(line_error(
                    line,
                    format!("a path of {name} ends on its own square"),
                ));
            }
            square_paths.push(path);
        }
        if square_paths.len() > MAX_PATHS {
            return Err(line_error(
                line,
                format!("{name} has more than {MAX_PATHS} paths"),
            ));
        }
        paths[sq as usize] = Some(square_paths);
    }
    let listed_top = (32..64).filter(|&sq| paths[sq].is_some()).count();
    if listed_top == 0 {
        // Ranks 5-8 are the rotation of ranks 1-4: (f, r) -> (7 - f, 7 - r), steps reversed.
        for sq in 0..32 {
            if let Some(own) = paths[sq].clone() {
                let rotated = own
                    .iter()
                    .map(|p| p.iter().map(|&(df, dr)| (-df, -dr)).collect())
                    .collect();
                paths[63 - sq] = Some(rotated);
            }
        }
    }
    let missing: Vec<String> = (0..64u8)
        .filter(|&sq| paths[sq as usize].is_none())
        .map(square_name)
        .collect();
    if !missing.is_empty() {
        let expected = if listed_top == 0 {
            "every square of ranks 1-4 (ranks 5-8 are their rotation)"
        } else {
            "all 64 squares, since it lists squares of ranks 5-8"
        };
        return Err(BoardFileError::Whole(format!(
            "missing square{} {}: a board file lists {expected}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(" ")
        )));
    }
    Ok(BoardPaths {
        paths: paths.into_iter().flatten().collect(),
    })
}
