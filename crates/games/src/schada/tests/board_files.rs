//! Board files: the reconstruction loads, a transcribed board replaces it, and every kind of
//! broken file is refused with its line and reason.

use super::*;

fn refused(text: &str) -> String {
    match Schada::on_board("test", text) {
        Ok(_) => panic!("accepted a broken board file:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// The reconstruction with line `line` (counted from 1) replaced.
fn with_line(line: usize, new: &str) -> String {
    RECONSTRUCTION
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == line { new } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line of the reconstruction that describes `square`.
fn line_of(square: &str) -> usize {
    RECONSTRUCTION
        .lines()
        .position(|l| l.split_whitespace().next() == Some(square))
        .expect("the square is listed")
        + 1
}

#[test]
fn the_reconstruction_is_the_default_board_and_says_so() {
    let g = game();
    assert_eq!(g.board_name(), "reconstruction");
    assert_eq!(g.board_file(), Some(("reconstruction", RECONSTRUCTION)));
    assert!(RECONSTRUCTION.contains("reconstruction"));
    assert!(FACTS.description.contains("reconstructed"));
}

#[test]
fn a_transcribed_board_replaces_the_reconstruction() {
    // Give a2 only the path N N: the a2 pawn now goes to a4.
    let text = with_line(line_of("a2"), "a2 n n");
    let g = game().with_board_file("mine", &text).unwrap();
    assert_eq!(g.board_name(), "mine");
    let state = g.start();
    let mut moves = Vec::new();
    g.legal_moves(&state, &mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| g.move_text(&state, m)).collect();
    assert!(texts.contains(&"a2-a4".to_string()), "{texts:?}");
    assert!(!texts.contains(&"a2-a3".to_string()), "{texts:?}");
    // A full 64-square file is taken as it is, nothing rotated.
    let mut full = String::from(&text);
    for sq in 32..64u8 {
        full.push_str(&format!("\n{} S", square_name(sq)));
    }
    let g = Schada::on_board("full", &full).unwrap();
    let state = g.parse_position("o7/p7/8/8/8/8/8/O7 b").unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&state, &mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| g.move_text(&state, m)).collect();
    assert_eq!(texts, ["a7-a6"]);
}

#[test]
fn a_broken_board_file_is_refused_with_its_line_and_reason() {
    let d3 = line_of("d3");
    for (text, expected) in [
        (
            with_line(d3, "d3 S S ; W W W ; NE UP"),
            format!("board file, line {d3}: unknown step \"UP\""),
        ),
        (
            with_line(d3, "z9 N"),
            format!("board file, line {d3}: expected a square a1-h8"),
        ),
        (
            with_line(d3, "d3"),
            format!("board file, line {d3}: square d3 has no paths"),
        ),
        (
            with_line(d3, "d3 S S S S"),
            format!("board file, line {d3}: a path of d3 steps off the board"),
        ),
        (
            with_line(d3, "d3 N S ; W"),
            format!("board file, line {d3}: a path of d3 ends on its own square"),
        ),
        (
            with_line(d3, "d3 S S ; ; W"),
            format!("board file, line {d3}: d3 has an empty path"),
        ),
        (
            with_line(d3, "a1 N"),
            format!("board file, line {d3}: square a1 is listed twice"),
        ),
        (
            with_line(d3, "# d3 forgotten"),
            "board file: missing squares d3 e6".to_string(),
        ),
    ] {
        let message = refused(&text);
        assert!(
            message.starts_with(&expected),
            "{message:?} should start with {expected:?}"
        );
    }
    assert!(refused("").starts_with("board file: missing squares a1 b1"));
    let half_and_one = format!("{RECONSTRUCTION}\ne5 N");
    assert!(refused(&half_and_one).contains("all 64 squares"));
}

#[test]
fn hostile_board_files_are_bounded() {
    let long_path = format!("a1 {}", "N S ".repeat(20));
    let message = refused(&with_line(line_of("a1"), &long_path));
    assert!(message.contains("more than 16 steps"), "{message}");
    let many = format!("a1 {}", "N ; ".repeat(20) + "N");
    let message = refused(&with_line(line_of("a1"), &many));
    assert!(message.contains("more than 16 paths"), "{message}");
}

#[test]
fn the_reconstruction_s_name_is_its_own_and_a_byte_order_mark_is_no_square() {
    let changed = with_line(line_of("a2"), "a2 N N");
    let message = refused_named("reconstruction", &changed);
    assert!(message.contains("give the board another name"), "{message}");
    // The reconstruction itself under its name, with Windows line ends and a byte-order mark.
    let windows = format!("\u{feff}{}", RECONSTRUCTION.replace('\n', "\r\n"));
    let g = Schada::on_board("reconstruction", &windows).unwrap();
    assert_eq!(g.start(), game().start());
}

fn refused_named(name: &str, text: &str) -> String {
    match Schada::on_board(name, text) {
        Ok(_) => panic!("accepted {name}"),
        Err(e) => e.to_string(),
    }
}
