//! The draws by counting moves: International draughts' 25-, 16- and 5-move rules and English
//! checkers' 40-move rule (`docs/rules/international.md`, `docs/rules/english.md`).

use denkmeter_core::{Outcome, Playthrough, Reason, Record, Status};

use super::*;

type I = InternationalRules;
type E = EnglishRules;

/// Plays `texts` one after another with [`Game::play`] (checked) until the game is over,
/// returning every state, the given one first.
fn line<V: Variant>(start: &State, texts: &[&str]) -> Vec<State> {
    let game = Draughts::<V>::new();
    let mut states = vec![start.clone()];
    let mut s = start.clone();
    for text in texts {
        if game.status(&s).is_over() {
            break;
        }
        let mv = game
            .parse_move(&s, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(&mut s, mv).unwrap();
        states.push(s.clone());
    }
    states
}

/// `plies` moves that shuttle one king of each side between two squares: White's `w` first,
/// then Black's `b`, starting with the side to move `first`.
fn shuttle(w: [&str; 2], b: [&str; 2], first: Player, plies: usize) -> Vec<String> {
    let (mut w_at, mut b_at) = (0, 0);
    let mut side = first;
    let mut texts = Vec::new();
    for _ in 0..plies {
        let (squares, at) = match side {
            Player::White => (w, &mut w_at),
            Player::Black => (b, &mut b_at),
        };
        texts.push(format!("{}-{}", squares[*at], squares[1 - *at]));
        *at = 1 - *at;
        side = !side;
    }
    texts
}

fn strs(texts: &[String]) -> Vec<&str> {
    texts.iter().map(String::as_str).collect()
}

/// The ply (counted from 1) after which the game is first over, if it is.
fn first_over<V: Variant>(states: &[State]) -> Option<(usize, Status)> {
    let game = Draughts::<V>::new();
    for s in states {
        assert_eq!(game.status(s).is_over(), legal::<V>(s).is_empty());
    }
    states
        .iter()
        .enumerate()
        .map(|(i, s)| (i, game.status(s)))
        .find(|(_, status)| status.is_over())
}

fn drawn(reason: Reason) -> Status {
    Status::Over(Outcome::draw(reason))
}

#[test]
fn international_25_kings_only_moves_of_each_player_draw() {
    // Six pieces, so no endgame rule applies; the men on the edges cannot be captured.
    let s = state::<I>("D:c1 M:e1 M:g1 d:h10 m:b10 m:d10", 'w');
    let plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, 50);
    let states = line::<I>(&s, &strs(&plies));
    assert_eq!(
        first_over::<I>(&states),
        Some((50, drawn(Reason::TwentyFiveMoveRule))),
        "drawn after the 50th ply, not before"
    );
    // The count is not part of what repetition compares.
    let game = International::new();
    assert_eq!(game.repetition_hash(&states[4]), game.repetition_hash(&s));
    assert_ne!(game.hash(&states[4]), game.hash(&s));
    // A Scandinavian ruleset has none of these rules: a dame against a dame goes on.
    type S = ScandinavianRules<10, STRONG, true>;
    let s = state::<S>("D:b1 d:i10", 'w');
    let plies = shuttle(["b1", "a2"], ["i10", "j9"], Player::White, 120);
    let states = line::<S>(&s, &strs(&plies));
    assert_eq!(first_over::<S>(&states), None);
    assert!(states.iter().all(|s| s.quiet == 0 && s.endgame == 0));
}

#[test]
fn a_man_move_or_a_capture_starts_the_25_move_count_again() {
    let s = state::<I>("D:c1 M:e1 M:g1 d:h10 m:b10 m:d10", 'w');
    let mut plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, 48);
    // White's man moves instead of the king at ply 49; the kings shuttle on.
    plies.push("e1-f2".to_string());
    let after = shuttle(["c1", "d2"], ["h10", "g9"], Player::Black, 50);
    plies.extend(after);
    let states = line::<I>(&s, &strs(&plies));
    assert_eq!(
        first_over::<I>(&states),
        Some((49 + 50, drawn(Reason::TwentyFiveMoveRule)))
    );

    // 49 quiet plies, then a king's move draws and a capture does not.
    let game = International::new();
    let mut s = state::<I>("D:c1 M:e1 M:g1 d:h10 m:b10 m:d10", 'b');
    s.quiet = 49;
    let quiet = line::<I>(&s, &["h10-g9"]);
    assert_eq!(game.status(&quiet[1]), drawn(Reason::TwentyFiveMoveRule));
    let mut s = state::<I>("D:c1 M:e1 M:g1 M:f4 d:h6 m:b10 m:d10", 'b');
    s.quiet = 49;
    let capture = line::<I>(&s, &["h6xe3"]);
    assert_eq!(capture[1].quiet, 0);
    assert_eq!(game.status(&capture[1]), Status::Ongoing);
}

/// A position equal to an earlier one stands within [`Game::reversible_plies`] of it, which the
/// search relies on to look no further back for a repetition; and the shuttling kings repeat
/// within it.
#[test]
fn a_repetition_lies_within_the_reversible_plies() {
    fn check<V: Variant>(states: &[State]) -> usize {
        let game = Draughts::<V>::new();
        let mut repeats = 0;
        for (i, s) in states.iter().enumerate() {
            let back = game.reversible_plies(s).expect("counted") as usize;
            assert!(back <= i, "ply {i}: {back} reversible plies");
            for (j, earlier) in states[..i].iter().enumerate() {
                if game.repetition_hash(earlier) == game.repetition_hash(s) {
                    assert!(i - j <= back, "ply {i} repeats ply {j} beyond {back}");
                    repeats += 1;
                }
            }
        }
        repeats
    }
    let s = state::<I>("D:c1 M:e1 M:g1 d:h10 m:b10 m:d10", 'w');
    let mut plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, 20);
    plies.push("e1-f2".to_string());
    plies.extend(shuttle(["c1", "d2"], ["h10", "g9"], Player::Black, 20));
    let states = line::<I>(&s, &strs(&plies));
    assert_eq!(states.len(), 42);
    // Every fourth position repeats, in each of the two stretches of 21 around the man's move.
    assert_eq!(check::<I>(&states), 2 * 45);
    // Scandinavian rulesets count nothing: any earlier position may come back.
    type S = ScandinavianRules<10, STRONG, true>;
    let game = Draughts::<S>::new();
    assert_eq!(game.reversible_plies(&state::<S>("D:b1 d:i10", 'w')), None);
}

#[test]
fn three_pieces_with_a_king_against_a_lone_king_draw_after_16_moves_each() {
    let s = state::<I>("D:c1 D:e1 D:g1 d:h10", 'w');
    let plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, 40);
    let states = line::<I>(&s, &strs(&plies));
    assert_eq!(
        first_over::<I>(&states),
        Some((32, drawn(Reason::SixteenMoveRule)))
    );
    // A king and two men too, and a crowning inside the count does not start it again.
    let s = state::<I>("D:c1 M:a9 M:e1 d:h10", 'w');
    let mut plies: Vec<String> = ["c1-d2", "h10-g9", "a9-b10", "g9-h10"]
        .map(String::from)
        .to_vec();
    plies.extend(shuttle(["d2", "c1"], ["h10", "g9"], Player::White, 36));
    let states = line::<I>(&s, &strs(&plies));
    assert_eq!(states[3].count(Player::White), (1, 2), "a9-b10 crowns");
    assert_eq!(
        first_over::<I>(&states),
        Some((32, drawn(Reason::SixteenMoveRule)))
    );
    // Not against a lone man, nor with more pieces.
    for pieces in ["D:c1 D:e1 D:g1 m:h8", "D:c1 D:e1 D:g1 d:h10 m:b10"] {
        let s = state::<I>(pieces, 'w');
        assert_eq!(draw::endgame(&s), None, "{pieces}");
    }
}

#[test]
fn a_capture_inside_the_16_moves_starts_the_5_move_count_within_the_16() {
    // 3 kings against 1; White offers the king on b4 and Black must take it, leaving two
    // kings against one: the 5-move rule, but the 16 moves remain a maximum.
    let s = state::<I>("D:c1 D:e1 D:g1 d:h10", 'w');
    let after_capture = |before: usize, after: usize| {
        let mut plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, before);
        plies.push("d2-b4".to_string());
        plies.push("g9xa3".to_string());
        plies.extend(shuttle(["e1", "d2"], ["a3", "b2"], Player::White, after));
        line::<I>(&s, &strs(&plies))
    };
    // Early: 4 plies into the 16 moves, so 10 more plies end it, 14 in all.
    let states = after_capture(2, 12);
    assert_eq!(states[4].count(Player::White), (0, 2));
    assert_eq!(
        first_over::<I>(&states),
        Some((14, drawn(Reason::FiveMoveRule)))
    );
    // Late: 28 plies into the 16 moves, so the 32nd ply ends it, 4 after the capture.
    let states = after_capture(26, 12);
    assert_eq!(
        first_over::<I>(&states),
        Some((32, drawn(Reason::FiveMoveRule)))
    );
}

#[test]
fn two_kings_or_one_against_a_lone_king_draw_after_5_moves_each() {
    for pieces in ["D:c1 D:e1 d:h10", "D:c1 d:h10", "D:c1 M:e1 d:h10"] {
        let s = state::<I>(pieces, 'w');
        let plies = shuttle(["c1", "d2"], ["h10", "g9"], Player::White, 14);
        let states = line::<I>(&s, &strs(&plies));
        assert_eq!(
            first_over::<I>(&states),
            Some((10, drawn(Reason::FiveMoveRule))),
            "{pieces}"
        );
    }
    // A player who cannot move loses even on the ply that completes the count.
    let game = International::new();
    let mut s = state::<I>("D:c1 D:c3 d:a1", 'w');
    s.endgame = 9;
    let blocked = line::<I>(&s, &["c1-b2"]);
    assert_eq!(blocked[1].endgame, 10);
    assert_eq!(
        game.status(&blocked[1]),
        Status::Over(Outcome::win(Player::White, Reason::NoMoves))
    );
}

#[test]
fn english_40_moves_each_without_a_man_moving_or_a_capture_draw() {
    let s = state::<E>("D:c1 M:a3 d:h8", 'w');
    let plies = shuttle(["c1", "d2"], ["h8", "g7"], Player::White, 90);
    let states = line::<E>(&s, &strs(&plies));
    assert_eq!(
        first_over::<E>(&states),
        Some((80, drawn(Reason::FortyMoveRule)))
    );
    // A man's move starts the count again.
    let mut plies = shuttle(["c1", "d2"], ["h8", "g7"], Player::White, 60);
    plies.push("a3-b4".to_string());
    plies.extend(shuttle(["c1", "d2"], ["h8", "g7"], Player::Black, 90));
    let states = line::<E>(&s, &strs(&plies));
    assert_eq!(
        first_over::<E>(&states),
        Some((61 + 80, drawn(Reason::FortyMoveRule)))
    );
    // English has no 5-move rule: a king against a king goes on.
    let s = state::<E>("D:c1 d:h8", 'w');
    let states = line::<E>(
        &s,
        &strs(&shuttle(["c1", "d2"], ["h8", "g7"], Player::White, 40)),
    );
    assert_eq!(first_over::<E>(&states), None);
}

#[test]
fn a_record_of_a_game_drawn_by_a_count_says_so_and_reads_back() {
    let game = International::new();
    let start = state::<I>("D:c1 D:e1 D:g1 d:h10", 'w');
    let mut play = Playthrough::from_state(game.clone(), start);
    // Repetition would end the shuttle first; walk the black king round instead.
    let black = [
        "h10-g9", "g9-f10", "f10-e9", "e9-d10", "d10-c9", "c9-b10", "b10-a9", "a9-b8",
    ];
    let white = ["c1-d2", "d2-c1"];
    let mut ply = 0;
    while !play.status().is_over() {
        let text = match play.to_move() {
            Player::White => white[(ply / 2) % 2].to_string(),
            Player::Black => {
                // Back and forth along the route, never the same position a third time.
                let i = (ply / 2) % 16;
                let i = if i < 8 { i } else { 15 - i };
                let mv = black[i];
                if (ply / 2) % 16 < 8 {
                    mv.to_string()
                } else {
                    let (a, b) = mv.split_once('-').unwrap();
                    format!("{b}-{a}")
                }
            }
        };
        play.play_text(&text)
            .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
        ply += 1;
    }
    assert_eq!(ply, 32);
    assert_eq!(play.status(), drawn(Reason::SixteenMoveRule));
    let record = Record::of(&play, &[]);
    assert_eq!(record.tag("Termination"), Some("16-move rule"));
    assert_eq!(record.tag("Result"), Some("1/2-1/2"));
    let text = record.to_string();
    let read: Record = text.parse().unwrap();
    let replayed = read.replay(International::new()).unwrap();
    assert_eq!(replayed.status(), drawn(Reason::SixteenMoveRule));
    assert_eq!(replayed.moves().len(), 32);
}
