//! One test per rule of `shared/rules/scandinavian.md` and `shared/rules/draughts-reference.md`
//! and per fact they list, plus cross-checks: published perft counts, a slow obvious move
//! generator, hash recomputation, notation and position round trips over random games.

use std::collections::{BTreeSet, HashMap};

use denkmeter_core::{Game, MoveError, Player, PositionError, Reason, Status, Viewer};
use denkmeter_engine::perft::perft;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::geometry::{bit, Squares};
use super::*;

type Scandinavian8x8Rules = ScandinavianRules<8, STRONG, true>;

// ---------------------------------------------------------------- helpers

/// A position string of ruleset `V` from `"D:c4 m:b5 ..."` and the side to move.
fn setup<V: Variant>(pieces: &str, side: char) -> String {
    let size = V::SIZE;
    let mut cells = vec![None; size * size];
    for token in pieces.split_whitespace() {
        let (letter, name) = token.split_once(':').unwrap();
        let file = usize::from(name.as_bytes()[0] - b'a');
        let rank: usize = name[1..].parse().unwrap();
        cells[file + (rank - 1) * size] = Some(letter.chars().next().unwrap());
    }
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..size {
                match cells[file + rank * size] {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(c);
                    }
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            row
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

fn position<V: Variant>(text: &str) -> State {
    Draughts::<V>::new()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn state<V: Variant>(pieces: &str, side: char) -> State {
    position::<V>(&setup::<V>(pieces, side))
}

fn legal<V: Variant>(s: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    Draughts::<V>::new().legal_moves(s, &mut moves);
    moves
}

/// The legal moves' texts, sorted.
fn texts<V: Variant>(s: &State) -> Vec<String> {
    let game = Draughts::<V>::new();
    let mut v: Vec<String> = legal::<V>(s)
        .into_iter()
        .map(|m| game.move_text(s, m))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play<V: Variant>(s: &State, text: &str) -> State {
    let game = Draughts::<V>::new();
    let mv = game
        .parse_move(s, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = s.clone();
    game.play(&mut next, mv);
    next
}

fn perft_counts<V: Variant>(s: &State, depth: u32) -> Vec<u64> {
    let game = Draughts::<V>::new();
    (1..=depth).map(|d| perft(&game, s, d)).collect()
}

/// Runs `$check::<V>()` for the variant of every ruleset.
macro_rules! for_every_ruleset {
    ($check:ident) => {
        $check::<ScandinavianRules<10, STRONG, true>>();
        $check::<ScandinavianRules<10, STRONG, false>>();
        $check::<ScandinavianRules<10, MEDIUM, true>>();
        $check::<ScandinavianRules<10, MEDIUM, false>>();
        $check::<ScandinavianRules<10, WEAK, true>>();
        $check::<ScandinavianRules<10, WEAK, false>>();
        $check::<ScandinavianRules<8, STRONG, true>>();
        $check::<ScandinavianRules<8, STRONG, false>>();
        $check::<ScandinavianRules<8, MEDIUM, true>>();
        $check::<ScandinavianRules<8, MEDIUM, false>>();
        $check::<ScandinavianRules<8, WEAK, true>>();
        $check::<ScandinavianRules<8, WEAK, false>>();
        $check::<InternationalRules>();
        $check::<EnglishRules>();
    };
}

/// Plays `games` random games of at most `plies` plies of ruleset `V` and calls `check` before
/// every move.
fn random_games<V: Variant>(
    seed: u64,
    games: usize,
    plies: usize,
    mut check: impl FnMut(&State, &[Move]),
) {
    let game = Draughts::<V>::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = game.start();
        for _ in 0..plies {
            game.legal_moves(&s, &mut moves);
            check(&s, &moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(&mut s, mv);
        }
    }
}

/// A random position of ruleset `V`: a few men and dames of each side on random dark squares.
fn random_position<V: Variant>(rng: &mut impl Rng) -> State {
    let g = geometry::<V>();
    let squares: Vec<u8> = Squares(g.valid).collect();
    let mut pieces = ByPlayer::new(0, 0);
    let mut dames = 0;
    let count = rng.gen_range(2..squares.len() / 2);
    for _ in 0..count {
        let sq = squares[rng.gen_range(0..squares.len())];
        if (pieces.white | pieces.black) & bit(sq) != 0 {
            continue;
        }
        let owner = if rng.gen_bool(0.5) {
            Player::White
        } else {
            Player::Black
        };
        let dame = rng.gen_bool(0.2) || g.far_row[owner.index()] & bit(sq) != 0;
        pieces[owner] |= bit(sq);
        if dame {
            dames |= bit(sq);
        }
    }
    let side = if rng.gen_bool(0.5) {
        Player::White
    } else {
        Player::Black
    };
    State::new(pieces, dames, side)
}

// ---------------------------------------------------------------- rulesets, boards, start

#[test]
fn rulesets_in_order_with_families_and_descriptions() {
    let games = rulesets();
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    assert_eq!(
        names,
        [
            "scandinavian",
            "scandinavian-free",
            "scandinavian-medium",
            "scandinavian-medium-free",
            "scandinavian-weak",
            "scandinavian-weak-free",
            "scandinavian-8x8",
            "scandinavian-8x8-free",
            "scandinavian-8x8-medium",
            "scandinavian-8x8-medium-free",
            "scandinavian-8x8-weak",
            "scandinavian-8x8-weak-free",
            "international",
            "english",
        ]
    );
    for game in rulesets() {
        let family = match game.name() {
            "international" => "international",
            "english" => "english",
            _ => "scandinavian",
        };
        assert_eq!(game.family(), family, "{}", game.name());
        assert!(!game.description().is_empty() && !game.description().contains('\n'));
        assert!(!game.has_hidden_information());
    }
    let descriptions: BTreeSet<&str> = games.iter().map(|g| g.description()).collect();
    assert_eq!(descriptions.len(), 14, "every description is its own");
}

#[test]
fn start_positions_are_the_published_strings() {
    let ten = "m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/10/10/M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M w";
    let eight = "m1m1m1m1/1m1m1m1m/m1m1m1m1/8/8/1M1M1M1M/M1M1M1M1/1M1M1M1M w";
    let international = "1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/10/10/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1 w";
    let english = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w";
    for game in rulesets() {
        let expected = match (game.name(), game.board().len()) {
            ("international", _) => international,
            ("english", _) => english,
            (_, 100) => ten,
            _ => eight,
        };
        assert_eq!(game.start_position(), expected, "{}", game.name());
    }
    let s = Scandinavian::new().start();
    assert_eq!(s.count(Player::White), (20, 0));
    assert_eq!(s.count(Player::Black), (20, 0));
    assert_eq!(English::new().start().count(Player::Black), (12, 0));
}

#[test]
fn boards_mark_the_dark_squares() {
    let scandinavian = Scandinavian::new();
    let board = scandinavian.board();
    let class = |b: &denkmeter_core::Board, name: &str| {
        b.info(b.cell_by_name(name).unwrap()).classes.clone()
    };
    assert_eq!(class(board, "a1"), ["light"]);
    assert_eq!(class(board, "j1"), ["dark"]);
    assert_eq!(class(International::new().board(), "a1"), ["dark"]);
    assert_eq!(class(English::new().board(), "h8"), ["dark"]);
    assert_eq!(class(Scandinavian8x8::new().board(), "h1"), ["dark"]);
    // The geometry's dark squares are the board's.
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let g = geometry::<V>();
        let dark: Vec<u16> = Squares(g.valid)
            .map(|sq| u16::from(g.cell[usize::from(sq)]))
            .collect();
        let mut marked: Vec<u16> = game
            .board()
            .cell_ids()
            .filter(|&c| game.board().info(c).classes.contains(&"dark"))
            .map(|c| c.0)
            .collect();
        marked.sort_unstable();
        let mut dark = dark;
        dark.sort_unstable();
        assert_eq!(dark, marked, "{}", V::NAME);
        assert_eq!(dark.len(), V::SIZE * V::SIZE / 2);
    }
    for_every_ruleset!(check);
}

// ---------------------------------------------------------------- perft

#[test]
fn international_perft_matches_the_published_counts() {
    let game = International::new();
    // The published counts, duplicates removed; depth 9 takes about a second at opt-level 1.
    assert_eq!(
        perft_counts::<InternationalRules>(&game.start(), 9),
        [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423]
    );
}

#[test]
fn english_perft_matches_the_published_counts() {
    let game = English::new();
    assert_eq!(
        perft_counts::<EnglishRules>(&game.start(), 10),
        [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
    );
}

/// The counts from the start of every Scandinavian ruleset; the same as those of the independent
/// reference `tools/reference_draughts.py` at every depth.
#[test]
fn scandinavian_perft_from_each_start() {
    fn check<V: Variant>(expected: [u64; 7]) {
        let s = Draughts::<V>::new().start();
        assert_eq!(perft_counts::<V>(&s, 7), expected, "{}", V::NAME);
    }
    check::<ScandinavianRules<10, STRONG, true>>([9, 81, 658, 3874, 21265, 102431, 540126]);
    check::<ScandinavianRules<10, STRONG, false>>([9, 81, 658, 3874, 21317, 106493, 575043]);
    check::<ScandinavianRules<10, MEDIUM, true>>([9, 81, 658, 3850, 20624, 93850, 444742]);
    check::<ScandinavianRules<10, MEDIUM, false>>([9, 81, 658, 3850, 20670, 97478, 474184]);
    check::<ScandinavianRules<10, WEAK, true>>([9, 81, 658, 3816, 20199, 92643, 433986]);
    check::<ScandinavianRules<10, WEAK, false>>([9, 81, 658, 3816, 20211, 93396, 441543]);
    check::<ScandinavianRules<8, STRONG, true>>([7, 49, 302, 1318, 5682, 22534, 98664]);
    check::<ScandinavianRules<8, STRONG, false>>([7, 49, 302, 1318, 5714, 23625, 106178]);
    check::<ScandinavianRules<8, MEDIUM, true>>([7, 49, 302, 1310, 5594, 21405, 84325]);
    check::<ScandinavianRules<8, MEDIUM, false>>([7, 49, 302, 1310, 5620, 22448, 91242]);
    check::<ScandinavianRules<8, WEAK, true>>([7, 49, 302, 1288, 5407, 20827, 80547]);
    check::<ScandinavianRules<8, WEAK, false>>([7, 49, 302, 1288, 5415, 21112, 82627]);
}

/// Every line of `tests/perft/draughts.txt`, through the rulesets of this module.
#[test]
fn perft_file_vectors_hold() {
    let text = include_str!("../../tests/perft/draughts.txt");
    let games = rulesets();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "line {}", i + 1);
        let game = games
            .iter()
            .find(|g| g.name() == parts[0])
            .unwrap_or_else(|| panic!("line {}: unknown ruleset {}", i + 1, parts[0]));
        let counts: Vec<u64> = parts[2]
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let position = (parts[1] != "start").then_some(parts[1]);
        let found: Vec<u64> = game
            .perft(position, counts.len() as u32)
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(found, counts, "line {}: {line}", i + 1);
        checked += 1;
    }
    assert!(checked >= 30);
    for game in &games {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{}; start;", game.name()))),
            "{} has a vector from its start",
            game.name()
        );
    }
}

// ---------------------------------------------------------------- men

#[test]
fn men_step_diagonally_forward_only() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["d3-c4", "d3-e4"]));
    let s = state::<V>("M:d3 m:e6", 'b');
    assert_eq!(texts::<V>(&s), sorted(&["e6-d5", "e6-f5"]));
    // The same in International and English.
    let s = state::<InternationalRules>("M:c3 m:f8", 'w');
    assert_eq!(texts::<InternationalRules>(&s), sorted(&["c3-b4", "c3-d4"]));
    let s = state::<EnglishRules>("M:a1 m:h8", 'b');
    assert_eq!(texts::<EnglishRules>(&s), ["h8-g7"]);
}

#[test]
fn orthogonal_man_capture_lands_four_squares_away() {
    type V = Scandinavian8x8Rules;
    // Over the man on the next dark square of the file (d5, two squares away) to d7.
    let s = state::<V>("M:d3 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7"]);
    let next = play::<V>(&s, "d3xd7");
    assert_eq!(next, state::<V>("M:d7", 'b'));
    // Along the rank: b3 over d3 to f3; the light square between is ignored.
    let s = state::<V>("M:b3 m:d3 m:h7", 'w');
    assert_eq!(texts::<V>(&s), ["b3xf3"]);
    // The landing square four away must be empty.
    let s = state::<V>("M:b3 m:d3 m:f3", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["b3-a4", "b3-c4"]));
    // International men never capture orthogonally.
    let s = state::<InternationalRules>("M:c3 m:c5 m:j10", 'w');
    assert_eq!(texts::<InternationalRules>(&s), sorted(&["c3-b4", "c3-d4"]));
}

/// A man of `player` on f5 (White) or e6 (Black) of the 10x10 board and one enemy man on the
/// next dark square in direction `dir` (with the square beyond it empty): whether it captures.
fn captures_towards<V: Variant>(player: Player, dir: usize) -> bool {
    // (file, rank) steps to the next dark square in the core's direction order.
    const STEPS: [(i32, i32); 8] = [
        (0, 2),
        (1, 1),
        (2, 0),
        (1, -1),
        (0, -2),
        (-1, -1),
        (-2, 0),
        (-1, 1),
    ];
    let (home, enemy) = match player {
        Player::White => ((5, 4), 'm'),
        Player::Black => ((4, 5), 'M'),
    };
    let (df, dr) = STEPS[dir];
    let name = |f: i32, r: i32| format!("{}{}", (b'a' + f as u8) as char, r + 1);
    let own = if player == Player::White { 'M' } else { 'm' };
    let pieces = format!(
        "{own}:{} {enemy}:{}",
        name(home.0, home.1),
        name(home.0 + df, home.1 + dr)
    );
    let s = state::<V>(&pieces, player.letter());
    legal::<V>(&s).iter().any(|m| m.is_capture())
}

#[test]
fn strong_medium_and_weak_men_capture_directions() {
    // Directions of the core's order as seen by White: N, NE, E, SE, S, SW, W, NW.
    let strong = [true; 8];
    let medium = [true, true, true, false, false, false, true, true];
    let weak = [true, true, false, false, false, false, false, true];
    fn check<V: Variant>(expected: [bool; 8]) {
        for (dir, &allowed) in expected.iter().enumerate() {
            assert_eq!(
                captures_towards::<V>(Player::White, dir),
                allowed,
                "{} White direction {dir}",
                V::NAME
            );
            // Black's forward is south: its directions are White's turned by half a circle.
            assert_eq!(
                captures_towards::<V>(Player::Black, (dir + 4) % 8),
                allowed,
                "{} Black direction {}",
                V::NAME,
                (dir + 4) % 8
            );
        }
    }
    check::<ScandinavianRules<10, STRONG, true>>(strong);
    check::<ScandinavianRules<10, MEDIUM, true>>(medium);
    check::<ScandinavianRules<10, WEAK, true>>(weak);
    check::<ScandinavianRules<10, STRONG, false>>(strong);
    check::<ScandinavianRules<10, MEDIUM, false>>(medium);
    check::<ScandinavianRules<10, WEAK, false>>(weak);
}

#[test]
fn english_men_capture_forward_only() {
    type E = EnglishRules;
    let s = state::<E>("M:d4 m:c5", 'w');
    assert_eq!(texts::<E>(&s), ["d4xb6"]);
    // Never backwards: c3 is behind the white man and in front of the black one.
    let s = state::<E>("M:d4 m:c3", 'w');
    assert_eq!(texts::<E>(&s), sorted(&["d4-c5", "d4-e5"]));
    let s = state::<E>("M:d4 m:c3", 'b');
    assert_eq!(texts::<E>(&s), sorted(&["c3-b2", "c3-d2"]));
}

#[test]
fn capture_is_compulsory() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:b3 M:h1 m:c4", 'w');
    assert_eq!(texts::<V>(&s), ["b3xd5"]);
    let game = Scandinavian8x8::new();
    match game.parse_move(&s, "h1-g2") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(
                reason.contains("compulsory") && reason.contains("b3xd5"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_capture_continues_while_the_piece_can_capture() {
    type V = Scandinavian8x8Rules;
    // d1 over d3 to d5, then over e6 to f7: stopping at d5 is not a move, even without the
    // majority rule.
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd5xf7"]);
    let s = state::<ScandinavianRules<8, STRONG, false>>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(
        texts::<ScandinavianRules<8, STRONG, false>>(&s),
        ["d1xd5xf7"]
    );
}

// ---------------------------------------------------------------- dames

#[test]
fn dame_slides_orthogonally_over_dark_squares_only() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:d3 m:h7", 'w');
    let moves = texts::<V>(&s);
    for text in [
        // orthogonal: to the next dark squares along the file and the rank
        "d3-d5", "d3-d7", "d3-d1", "d3-b3", "d3-f3", "d3-h3", // diagonal
        "d3-c4", "d3-b5", "d3-a6", "d3-e4", "d3-f5", "d3-g6", "d3-c2", "d3-b1", "d3-e2", "d3-f1",
    ] {
        assert!(moves.contains(&text.to_string()), "{text} in {moves:?}");
    }
    assert_eq!(moves.len(), 16, "{moves:?}");
    // Light squares are never reached: d4 and e3 are light.
    let game = Scandinavian8x8::new();
    assert!(matches!(
        game.parse_move(&s, "d3-d4"),
        Err(MoveError::Illegal { .. })
    ));
    // A piece on d5 blocks the file beyond it.
    let s = state::<V>("D:d3 M:d5 m:h7", 'w');
    let moves = texts::<V>(&s);
    assert!(!moves.contains(&"d3-d7".to_string()) && !moves.contains(&"d3-d5".to_string()));
    // International and English kings move diagonally only.
    let s = state::<InternationalRules>("D:e5 m:a9", 'w');
    assert!(texts::<InternationalRules>(&s)
        .iter()
        .all(|t| t != "e5-e7" && t != "e5-g5"));
}

#[test]
fn dame_captures_at_a_distance_in_eight_directions() {
    type V = Scandinavian8x8Rules;
    // Along the file over the empty d3 to d5, landing on d7 (d9 is off the board); along the
    // rank over f1 to h1.
    let s = state::<V>("D:d1 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd7"]);
    let s = state::<V>("D:b1 d:f1", 'w');
    assert_eq!(texts::<V>(&s), ["b1xh1"]);
    // Diagonally at a distance, landing on any empty square beyond.
    let s = state::<V>("D:b1 m:e4", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["b1xf5", "b1xg6", "b1xh7"]));
    // A victim on the edge leaves no landing square.
    let s = state::<V>("D:b1 m:h7", 'w');
    assert!(legal::<V>(&s).iter().all(|m| !m.is_capture()));
    // Two pieces in a row cannot be jumped.
    let s = state::<V>("D:b1 m:e4 m:f5", 'w');
    assert!(legal::<V>(&s).iter().all(|m| !m.is_capture()));
    // International kings capture at a distance diagonally, never orthogonally.
    let s = state::<InternationalRules>("D:a1 m:d4 m:a5", 'w');
    assert_eq!(
        texts::<InternationalRules>(&s),
        sorted(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9", "a1xj10"])
    );
}

#[test]
fn dame_chooses_a_landing_square_that_lets_it_go_on_capturing() {
    type V = Scandinavian8x8Rules;
    // b1 over d3 lands on e4, f5, g6 or h7; from e4 (along the file), f5 (diagonally) and g6
    // (along the rank) the dame can take e6 too, landing on any square beyond it.
    let s = state::<V>("D:b1 m:d3 m:e6", 'w');
    let two = ["b1xe4xe8", "b1xf5xc8", "b1xf5xd7", "b1xg6xa6", "b1xg6xc6"];
    assert_eq!(texts::<V>(&s), sorted(&two));
    // Without the majority rule the dame may also stop on h7, where it cannot go on; landing on
    // e4, f5 or g6 it must go on.
    type F = ScandinavianRules<8, STRONG, false>;
    let s = state::<F>("D:b1 m:d3 m:e6", 'w');
    let mut free = two.to_vec();
    free.push("b1xh7");
    assert_eq!(texts::<F>(&s), sorted(&free));
}

#[test]
fn english_kings_step_and_capture_one_square() {
    type E = EnglishRules;
    let s = state::<E>("D:d4 m:h8", 'w');
    assert_eq!(
        texts::<E>(&s),
        sorted(&["d4-c3", "d4-c5", "d4-e3", "d4-e5"])
    );
    // Short captures in all four diagonal directions, not at a distance.
    let s = state::<E>("D:d4 m:c3 m:g7", 'w');
    assert_eq!(texts::<E>(&s), ["d4xb2"]);
    let s = state::<E>("D:d4 m:b2 m:g7", 'w');
    assert!(legal::<E>(&s).iter().all(|m| !m.is_capture()));
    // A king goes on capturing backwards.
    let s = state::<E>("D:a3 m:b4 m:d4", 'w');
    assert_eq!(texts::<E>(&s), ["a3xc5xe3"]);
}

// ---------------------------------------------------------------- captures

#[test]
fn majority_rule_against_free_line() {
    // b3 over b5 to b7 (one piece), or over c4 to d5 and over e6 to f7 (two pieces).
    type V = Scandinavian8x8Rules;
    type F = ScandinavianRules<8, STRONG, false>;
    let s8 = "M:b3 m:c4 m:e6 m:b5";
    let majority = texts::<V>(&state::<V>(s8, 'w'));
    let free = texts::<F>(&state::<F>(s8, 'w'));
    assert_eq!(majority, ["b3xd5xf7"]);
    assert_eq!(free, sorted(&["b3xb7", "b3xd5xf7"]));
    // International: the greatest number too.
    let s = state::<InternationalRules>("M:c3 m:d4 m:f6 m:b4", 'w');
    assert_eq!(texts::<InternationalRules>(&s), ["c3xe5xg7"]);
}

#[test]
fn majority_counts_men_and_dames_the_same() {
    type V = Scandinavian8x8Rules;
    type F = ScandinavianRules<8, STRONG, false>;
    // d3 over the dame c4 to b5 (one piece) or over e4 and g6 to h7 (two men): a dame counts
    // one, like a man.
    let pieces = "M:d3 d:c4 m:e4 m:g6";
    assert_eq!(texts::<V>(&state::<V>(pieces, 'w')), ["d3xf5xh7"]);
    assert_eq!(
        texts::<F>(&state::<F>(pieces, 'w')),
        sorted(&["d3xb5", "d3xf5xh7"])
    );
    // A dame and a man against two men: equal, both allowed.
    let pieces = "M:d3 d:c4 m:c6 m:e4 m:g6";
    assert_eq!(
        texts::<V>(&state::<V>(pieces, 'w')),
        sorted(&["d3xb5xd7", "d3xf5xh7"])
    );
}

#[test]
fn captured_pieces_cannot_be_jumped_twice() {
    type V = Scandinavian8x8Rules;
    // After d3xd7 the man would jump d5 again back to d3: not allowed.
    let s = state::<V>("M:d3 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7"]);
    // A dame does not capture the same piece back either.
    let s = state::<V>("D:c4 m:d5", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["c4xe6", "c4xf7", "c4xg8"]));
}

#[test]
fn captured_pieces_block_lines_until_the_move_ends() {
    type V = Scandinavian8x8Rules;
    // c4 over b5 to a6; from a6 the line back to e2 crosses b5, still on the board: the dame
    // cannot pass it. Were b5 removed at once, c4xa6xf1 would capture both.
    let s = position::<V>("8/8/8/1m6/2D5/8/4m3/8 w");
    assert_eq!(texts::<V>(&s), sorted(&["c4xa6", "c4xf1"]));
    // International: the same with a king (from the search for such positions).
    let s = position::<InternationalRules>("10/6m3/10/4D5/10/10/1m8/10/10/10 w");
    assert_eq!(
        texts::<InternationalRules>(&s),
        sorted(&["e7xa3", "e7xh10"])
    );
}

#[test]
fn capturing_piece_may_pass_over_and_end_on_its_start() {
    // International: a man takes four men around a square and ends where it started.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    assert_eq!(texts::<I>(&s), ["c3xe1xg3xe5xc3"]);
    let after = play::<I>(&s, "c3xe1xg3xe5xc3");
    assert_eq!(after, state::<I>("M:c3", 'b'));
    // Scandinavian: the dame leaves d3, takes d5 and f7, and comes back along the diagonal
    // through its empty start square to take c2.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:d3 m:d5 m:f7 m:c2", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7xh7xb1"]);
}

#[test]
fn duplicate_routes_are_one_move() {
    // Clockwise and anticlockwise round the square: same start, end and captured pieces.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    assert_eq!(legal::<I>(&s).len(), 1);
    assert_eq!(perft_counts::<I>(&s, 1), [1]);
    let routes = notation::routes::<I>(&s, legal::<I>(&s)[0]);
    assert_eq!(routes.len(), 2, "two routes, one move");
    // A dame reaching the same end over the same pieces by different landing squares.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:b1 m:d3 m:f3", 'w');
    let moves = legal::<V>(&s);
    let keys: BTreeSet<(u8, u8, u64)> = moves.iter().map(|m| (m.from, m.to, m.captured)).collect();
    assert_eq!(keys.len(), moves.len());
}

// ---------------------------------------------------------------- promotion

#[test]
fn a_man_ending_on_the_far_row_becomes_a_dame() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:b7 m:a2", 'w');
    let after = play::<V>(&s, "b7-c8");
    assert_eq!(after, state::<V>("D:c8 m:a2", 'b'));
    let game = Scandinavian8x8::new();
    let mv = game.parse_move(&s, "b7-c8").unwrap();
    assert!(game.move_view(&s, mv).promotes);
    // Black promotes on rank 1.
    let s = state::<V>("M:h7 m:c2", 'b');
    assert_eq!(play::<V>(&s, "c2-b1"), state::<V>("M:h7 d:b1", 'w'));
    // By a capture ending there.
    let s = state::<V>("M:c6 m:d7 m:a2", 'w');
    assert_eq!(texts::<V>(&s), ["c6xe8"]);
    assert_eq!(play::<V>(&s, "c6xe8"), state::<V>("D:e8 m:a2", 'b'));
}

#[test]
fn no_promotion_in_passing_during_a_capture() {
    // International: d8 over e9 to f10 (the far row), then over g9 to h8: still a man.
    type I = InternationalRules;
    let s = state::<I>("M:d8 m:e9 m:g9", 'w');
    assert_eq!(texts::<I>(&s), ["d8xf10xh8"]);
    let game = International::new();
    let mv = game.parse_move(&s, "d8xf10xh8").unwrap();
    assert!(!game.move_view(&s, mv).promotes);
    assert_eq!(play::<I>(&s, "d8xf10xh8"), state::<I>("M:h8", 'b'));
    // Scandinavian: the man reaches the far row on e8 over d7 and goes on backwards over f7
    // to g6, still a man.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:c6 m:d7 m:f7 m:a2", 'w');
    assert_eq!(texts::<V>(&s), ["c6xe8xg6"]);
    assert_eq!(play::<V>(&s, "c6xe8xg6"), state::<V>("M:g6 m:a2", 'b'));
}

#[test]
fn english_crowning_ends_the_move() {
    // b6 over c7 reaches d8 and is crowned: the move ends although a king could go on over e7.
    type E = EnglishRules;
    let s = state::<E>("M:b6 m:c7 m:e7", 'w');
    assert_eq!(texts::<E>(&s), ["b6xd8"]);
    let after = play::<E>(&s, "b6xd8");
    assert_eq!(after, state::<E>("D:d8 m:e7", 'b'));
    let game = English::new();
    let mv = game.parse_move(&s, "b6xd8").unwrap();
    assert!(game.move_view(&s, mv).promotes);
    // A king already crowned goes on capturing through the far row.
    let s = state::<E>("D:b6 m:c7 m:e7", 'w');
    assert_eq!(texts::<E>(&s), ["b6xd8xf6"]);
}

// ---------------------------------------------------------------- end of the game

#[test]
fn a_player_who_cannot_move_loses() {
    type E = EnglishRules;
    let game = English::new();
    // White's man on a1 is blocked by b2, which it cannot jump (c3 is occupied).
    let s = state::<E>("M:a1 m:b2 m:c3", 'w');
    assert!(legal::<E>(&s).is_empty());
    assert_eq!(
        game.status(&s),
        Status::Over(Outcome::win(Player::Black, Reason::NoMoves))
    );
    assert_eq!(perft_counts::<E>(&s, 2), [0, 0]);
    // The same position with Black to move goes on.
    assert_eq!(
        game.status(&state::<E>("M:a1 m:b2 m:c3", 'b')),
        Status::Ongoing
    );
    // A side without pieces has lost.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:d3", 'b');
    assert_eq!(
        Scandinavian8x8::new().status(&s),
        Status::Over(Outcome::win(Player::White, Reason::NoMoves))
    );
    // After the last capture the game is over.
    let s = state::<V>("M:d3 m:d5", 'w');
    let after = play::<V>(&s, "d3xd7");
    assert!(Scandinavian8x8::new().status(&after).is_over());
    assert!(legal::<V>(&after).is_empty());
}

#[test]
fn status_agrees_with_the_legal_moves() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..300 {
            let s = random_position::<V>(&mut rng);
            assert_eq!(
                game.status(&s).is_over(),
                legal::<V>(&s).is_empty(),
                "{}",
                game.position_text(&s)
            );
        }
    }
    for_every_ruleset!(check);
}

// ---------------------------------------------------------------- facts

/// `8/8/8/8/8/8/2D5/1d1D4 w` (scandinavian-8x8): the lone dame on b1 forks both White dames.
/// Verified: White has 22 moves and no capture; after 21 of them Black can capture a dame at
/// once (and each such reply takes one or both dames). The exception is d1-d3, which covers c2
/// (the landing square d3 is taken); then b1-d1 attacks again: from d1 Black threatens to take
/// both dames in one move (d1xb3xf3 or d1xb3xh3), over c2 and then along the rank over d3. That the
/// position is nevertheless a draw, whatever White does, is checked by
/// [`two_dames_against_one_are_a_general_win`].
#[test]
fn lone_dame_forks_both_dames() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = position::<V>("8/8/8/8/8/8/2D5/1d1D4 w");
    let moves = legal::<V>(&s);
    assert_eq!(moves.len(), 22);
    assert!(
        moves.iter().all(|m| !m.is_capture()),
        "White cannot capture"
    );
    let mut safe = Vec::new();
    for mv in moves {
        let mut next = s.clone();
        game.play(&mut next, mv);
        let replies = legal::<V>(&next);
        if replies.iter().any(|r| r.is_capture()) {
            for reply in replies {
                let mut after = next.clone();
                game.play(&mut after, reply);
                assert!(after.count(Player::White).1 < 2, "a dame lost");
            }
        } else {
            safe.push(game.move_text(&s, mv));
        }
    }
    assert_eq!(safe, ["d1-d3"]);
    let again = play::<V>(&play::<V>(&s, "d1-d3"), "b1-d1");
    let mut threats = again.clone();
    threats.to_move = Player::Black;
    threats.hash = threats.fresh_hash();
    assert_eq!(texts::<V>(&threats), sorted(&["d1xb3xf3", "d1xb3xh3"]));
}

/// Win, loss or draw (unknown at the fixed point) for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Unknown,
    Win,
    Loss,
}

/// Solves every position of at most two White dames against at most one Black dame on the 8x8
/// Scandinavian board, either side to move, by iterating to a fixed point.
fn solve_dame_endings() -> (Vec<State>, Vec<Value>) {
    type V = Scandinavian8x8Rules;
    let g = geometry::<V>();
    let squares: Vec<u8> = Squares(g.valid).collect();
    let mut whites: Vec<u64> = vec![0];
    for (i, &a) in squares.iter().enumerate() {
        whites.push(bit(a));
        for &b in &squares[i + 1..] {
            whites.push(bit(a) | bit(b));
        }
    }
    let mut states = Vec::new();
    for &w in &whites {
        for black in std::iter::once(0).chain(squares.iter().map(|&sq| bit(sq))) {
            if w & black != 0 {
                continue;
            }
            for side in Player::BOTH {
                states.push(State::new(ByPlayer::new(w, black), w | black, side));
            }
        }
    }
    let index: HashMap<(u64, u64, Player), usize> = states
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.pieces.white, s.pieces.black, s.to_move), i))
        .collect();
    let game = Scandinavian8x8::new();
    let mut moves = Vec::new();
    let successors: Vec<Vec<usize>> = states
        .iter()
        .map(|s| {
            game.legal_moves(s, &mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut next = s.clone();
                    game.play(&mut next, mv);
                    index[&(next.pieces.white, next.pieces.black, next.to_move)]
                })
                .collect()
        })
        .collect();
    let mut values = vec![Value::Unknown; states.len()];
    loop {
        let mut changed = false;
        for i in 0..states.len() {
            if values[i] != Value::Unknown {
                continue;
            }
            let next = &successors[i];
            let value = if next.iter().any(|&j| values[j] == Value::Loss) {
                Value::Win
            } else if next.iter().all(|&j| values[j] == Value::Win) {
                Value::Loss
            } else {
                continue;
            };
            values[i] = value;
            changed = true;
        }
        if !changed {
            return (states, values);
        }
    }
}

/// The fact of `scandinavian.md`: with the two dames to move on 8x8, 14,792 of the 14,880
/// positions of two dames against one are won; `8/8/8/8/8/8/2D5/1d1D4 w` is one of the draws.
#[test]
fn two_dames_against_one_are_a_general_win() {
    let (states, values) = solve_dame_endings();
    let mut positions = 0;
    let mut won = 0;
    for (s, v) in states.iter().zip(&values) {
        if s.to_move == Player::White
            && s.pieces.white.count_ones() == 2
            && s.pieces.black.count_ones() == 1
        {
            positions += 1;
            if *v == Value::Win {
                won += 1;
            }
        }
    }
    assert_eq!(positions, 14_880);
    assert_eq!(won, 14_792);
    // The example draw: after any White move Black is not lost (d1-d3 is answered by b1-d1).
    let value = |text: &str| {
        let s = position::<Scandinavian8x8Rules>(text);
        values[states.iter().position(|t| *t == s).unwrap()]
    };
    assert_eq!(value("8/8/8/8/8/8/2D5/1d1D4 w"), Value::Unknown, "a draw");
    assert_eq!(value("8/8/8/8/8/3D4/2D5/1d6 b"), Value::Unknown, "a draw");
    assert_eq!(value("8/8/8/8/8/3D4/2D5/3d4 w"), Value::Unknown, "a draw");
}

// ---------------------------------------------------------------- notation

#[test]
fn move_text_format() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = game.start();
    assert_eq!(
        texts::<V>(&s),
        sorted(&["b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"])
    );
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd5xf7"]);
    // 10x10 names: j10.
    let s = state::<InternationalRules>("D:a1 m:i9 m:b10", 'w');
    assert!(texts::<InternationalRules>(&s).contains(&"a1xj10".to_string()));
}

#[test]
fn parse_accepts_the_full_and_the_unambiguous_short_form() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    let full = game.parse_move(&s, "d1xd5xf7").unwrap();
    assert_eq!(game.parse_move(&s, "d1xf7"), Ok(full));
    assert_eq!(game.parse_move(&s, " D1XD5XF7 "), Ok(full));
    assert_eq!(game.parse_move(&s, "d1-f7"), Ok(full));
    // A complete route must be written in full or not at all.
    assert!(matches!(
        game.parse_move(&s, "d1xd5"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        game.parse_move(&s, "d1xd5xf7xh5"),
        Err(MoveError::Illegal { .. })
    ));
    // The alphabetically first route is the text of a move with several.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    let international = International::new();
    let mv = international.parse_move(&s, "c3xe5xg3xe1xc3").unwrap();
    assert_eq!(international.parse_move(&s, "c3xe1xg3xe5xc3"), Ok(mv));
    assert_eq!(international.parse_move(&s, "c3xc3"), Ok(mv));
    assert_eq!(international.move_text(&s, mv), "c3xe1xg3xe5xc3");
}

#[test]
fn ambiguous_short_form_names_the_candidates() {
    // English: c3 to c7 over d4 and d6, or over b4 and b6.
    type E = EnglishRules;
    let game = English::new();
    let s = state::<E>("M:c3 m:d4 m:d6 m:b4 m:b6", 'w');
    assert_eq!(texts::<E>(&s), sorted(&["c3xa5xc7", "c3xe5xc7"]));
    match game.parse_move(&s, "c3xc7") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("ambiguous"), "{reason}");
            assert!(
                reason.contains("c3xa5xc7") && reason.contains("c3xe5xc7"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(game.parse_move(&s, "c3xe5xc7").is_ok());
    assert!(game.parse_move(&s, "c3xa5xc7").is_ok());
}

#[test]
fn syntax_errors_are_not_illegal_moves() {
    let game = Scandinavian8x8::new();
    let s = game.start();
    for text in [
        "", "   ", "b3", "b3-", "-c4", "b3c4", "b3--c4", "b3-c9", "b3-i4", "b0-c4", "b03-c4",
        "b3-c4!", "pass", "33-44", "b3-c4-", "é3-c4",
    ] {
        assert!(
            matches!(game.parse_move(&s, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            game.parse_move(&s, text)
        );
    }
    for (text, why) in [
        ("b3-b4", "light"),
        ("a4-b5", "no piece"),
        ("a6-b5", "not the mover"),
        ("b3-d5", "no legal move"),
        ("a2-b3", "no legal move"),
    ] {
        match game.parse_move(&s, text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains(why), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn every_legal_move_text_parses_back() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(4, 6, 150, |s, moves| {
            for &mv in moves {
                let text = game.move_text(s, mv);
                assert_eq!(game.parse_move(s, &text), Ok(mv), "{text}");
                // The short form names the move when no other shares its start and end.
                if mv.is_capture() {
                    let (from, to) = (
                        text.split('x').next().unwrap(),
                        text.rsplit('x').next().unwrap(),
                    );
                    let short = format!("{from}x{to}");
                    let same = moves
                        .iter()
                        .filter(|m| m.from == mv.from && m.to == mv.to)
                        .count();
                    // A one-capture move written in full takes precedence over a short form.
                    let full = moves.iter().find(|&&m| game.move_text(s, m) == short);
                    match (game.parse_move(s, &short), full) {
                        (Ok(found), Some(&m)) => assert_eq!(found, m, "{short}"),
                        (Ok(found), None) => assert!(same == 1 && found == mv, "{short}"),
                        (Err(MoveError::Illegal { reason, .. }), None) => {
                            assert!(
                                same > 1 && reason.contains("ambiguous"),
                                "{short}: {reason}"
                            )
                        }
                        (other, _) => panic!("{short}: {other:?}"),
                    }
                }
            }
        });
    }
    for_every_ruleset!(check);
}

// ---------------------------------------------------------------- position strings

#[test]
fn position_strings_round_trip() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(3, 6, 200, |s, _| {
            let text = game.position_text(s);
            assert_eq!(game.parse_position(&text).as_ref(), Ok(s), "{text}");
        });
    }
    for_every_ruleset!(check);
}

fn invalid<V: Variant>(text: &str) -> String {
    match Draughts::<V>::new().parse_position(text) {
        Err(PositionError::Invalid(reason)) => reason,
        other => panic!("{text}: expected an invalid position, got {other:?}"),
    }
}

#[test]
fn pieces_stand_on_dark_squares_only() {
    type V = Scandinavian8x8Rules;
    type E = EnglishRules;
    // a1 is light on the Scandinavian board, dark on the English one; h1 the other way round.
    assert!(invalid::<V>("8/8/8/8/8/8/8/M7 w").contains("a1"));
    assert!(invalid::<V>("8/8/8/8/8/8/8/D7 b").contains("dark squares"));
    assert!(Scandinavian8x8::new()
        .parse_position("8/8/8/8/8/8/8/7d b")
        .is_ok());
    assert!(English::new().parse_position("8/8/8/8/8/8/8/M7 w").is_ok());
    assert!(invalid::<E>("8/8/8/8/8/8/8/7D w").contains("h1"));
    assert!(invalid::<InternationalRules>("10/10/10/10/10/10/10/10/10/1M8 w").contains("b1"));
}

#[test]
fn a_man_on_its_promotion_row_is_invalid() {
    type V = Scandinavian8x8Rules;
    // a8 is dark on the Scandinavian board (0 + 7 odd).
    let reason = invalid::<V>("M7/8/8/8/8/8/8/8 w");
    assert!(
        reason.contains("a8") && reason.contains("promotion"),
        "{reason}"
    );
    assert!(invalid::<V>("8/8/8/8/8/8/8/1m6 w").contains("b1"));
    // Dames may stand there, and men on their own first row.
    assert!(Scandinavian8x8::new()
        .parse_position("D7/8/8/8/8/8/8/1d6 w")
        .is_ok());
    assert!(Scandinavian8x8::new()
        .parse_position("m7/8/8/8/8/8/8/1M6 w")
        .is_ok());
}

#[test]
fn malformed_positions_are_errors() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    assert_eq!(game.parse_position(""), Err(PositionError::Empty));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/8"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8 w"),
        Err(PositionError::RowCount { .. })
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/7 w"),
        Err(PositionError::RowLength { .. })
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/1K6 w"),
        Err(PositionError::BadCharacter { found: 'K', .. })
    ));
    assert!(matches!(
        game.parse_position("10/8/8/8/8/8/8/8 w"),
        Err(PositionError::BadNumber { .. })
    ));
    let _ = position::<V>("8/8/8/8/8/8/8/8 w");
}

proptest! {
    #[test]
    fn arbitrary_position_strings_never_panic(text in "\\PC{0,80}") {
        let _ = Scandinavian::new().parse_position(&text);
        let _ = English::new().parse_position(&text);
    }

    #[test]
    fn position_like_strings_never_panic(text in "([0-9]{1,2}|[MDmdx]){0,10}(/([0-9]{1,2}|[MDmd]){0,10}){0,10} [wbx]?") {
        let _ = Scandinavian::new().parse_position(&text);
        let _ = Scandinavian8x8::new().parse_position(&text);
        let _ = International::new().parse_position(&text);
    }

    #[test]
    fn arbitrary_move_texts_never_panic(text in "\\PC{0,16}") {
        let game = Scandinavian::new();
        let _ = game.parse_move(&game.start(), &text);
    }

    #[test]
    fn move_like_texts_never_panic(text in "[a-lA-L][0-9]{1,3}([-xX][a-lA-L][0-9]{1,3}){0,4}") {
        let game = International::new();
        let s = game.start();
        let _ = game.parse_move(&s, &text);
        let english = English::new();
        let _ = english.parse_move(&english.start(), &text);
    }
}

// ---------------------------------------------------------------- state bookkeeping

#[test]
fn hash_equals_a_fresh_recomputation() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut seen = std::collections::HashSet::new();
        random_games::<V>(2, 10, 300, |s, _| {
            assert_eq!(game.hash(s), s.fresh_hash());
            seen.insert(game.hash(s));
        });
        assert!(seen.len() > 300, "{}", V::NAME);
    }
    for_every_ruleset!(check);
    let game = English::new();
    let s = game.start();
    let mut black = s.clone();
    black.to_move = Player::Black;
    black.hash = black.fresh_hash();
    assert_ne!(
        game.hash(&s),
        game.hash(&black),
        "the side to move is hashed"
    );
}

#[test]
fn move_is_small() {
    assert!(std::mem::size_of::<Move>() <= 16);
    assert!(std::mem::size_of::<State>() <= 40);
}

#[test]
fn views_show_pieces_and_capture_routes() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = state::<V>("M:d1 m:d3 d:e6 D:a8", 'w');
    let view = game.position_view(&s, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 4);
    let cell = |name: &str| game.board().cell_by_name(name).unwrap();
    let dame = view.pieces.iter().find(|p| p.cell == cell("e6")).unwrap();
    assert_eq!(
        (dame.kind, dame.letter, dame.owner),
        ("dame", 'd', Player::Black)
    );
    let man = view.pieces.iter().find(|p| p.cell == cell("d1")).unwrap();
    assert_eq!((man.kind, man.letter), ("man", 'M'));
    let mv = game.parse_move(&s, "d1xd5xf7").unwrap();
    let mv_view = game.move_view(&s, mv);
    assert_eq!(mv_view.from, Some(cell("d1")));
    assert_eq!(mv_view.via, [cell("d5")]);
    assert_eq!(mv_view.to, Some(cell("f7")));
    assert_eq!(mv_view.captured, [cell("d3"), cell("e6")]);
    assert!(!mv_view.promotes);
    let quiet = state::<V>("M:d1 m:h7", 'w');
    let view = game.move_view(&quiet, game.parse_move(&quiet, "d1-e2").unwrap());
    assert!(view.via.is_empty() && view.captured.is_empty());
    assert_eq!(view.to, Some(cell("e2")));
    // International and English call a dame a king.
    let s = state::<EnglishRules>("D:d4 m:h8", 'w');
    let view = English::new().position_view(&s, Viewer::Everyone);
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "king" && p.letter == 'D'));
}

#[test]
fn observation_is_the_state() {
    let game = Scandinavian::new();
    let s = game.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    assert_eq!(game.observe(&s, Player::Black), s);
    assert_eq!(game.sample(&s, &mut rng), s);
}

#[test]
fn playout_value_follows_material() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    assert!((game.playout_value(&game.start()) - 0.5).abs() < 1e-12);
    let dame_up = game.playout_value(&state::<V>("D:d1 M:f1 m:e8", 'w'));
    let man_up = game.playout_value(&state::<V>("M:d1 M:f1 m:e8", 'w'));
    let black_up = game.playout_value(&state::<V>("M:d1 d:e8 m:g8", 'w'));
    assert!(dame_up > man_up && man_up > 0.5 && black_up < 0.5);
    assert!((0.0..=1.0).contains(&black_up));
    assert_eq!(game.playout_limit(), 300);
}

// ---------------------------------------------------------------- slow reference generator

/// The rules written the obvious way, on (file, rank) pairs and a map of pieces, straight from
/// the rules files: the reference the fast generator is checked against.
mod slow {
    use std::collections::{BTreeSet, HashMap};

    use denkmeter_core::Player;

    /// A square: file and rank from 0.
    type Square = (i32, i32);
    /// A piece: its owner and whether it is a dame.
    pub type Piece = (Player, bool);
    /// A move: start, end and the captured squares, by name, sorted.
    pub type Key = (String, String, Vec<String>);

    pub struct Rules {
        size: i32,
        /// (file + rank) % 2 of the dark squares.
        dark: i32,
        /// White's man capture vectors (Black's are the negatives).
        man_captures: Vec<(i32, i32)>,
        dame_vectors: Vec<(i32, i32)>,
        flying: bool,
        majority: bool,
        crowning_ends: bool,
    }

    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    const ORTHOGONAL: [(i32, i32); 4] = [(0, 2), (0, -2), (2, 0), (-2, 0)];

    /// The rules of a ruleset by its name.
    pub fn rules(name: &str) -> Rules {
        let all: Vec<(i32, i32)> = DIAGONAL.iter().chain(&ORTHOGONAL).copied().collect();
        match name {
            "international" => Rules {
                size: 10,
                dark: 0,
                man_captures: DIAGONAL.to_vec(),
                dame_vectors: DIAGONAL.to_vec(),
                flying: true,
                majority: true,
                crowning_ends: false,
            },
            "english" => Rules {
                size: 8,
                dark: 0,
                man_captures: vec![(1, 1), (-1, 1)],
                dame_vectors: DIAGONAL.to_vec(),
                flying: false,
                majority: false,
                crowning_ends: true,
            },
            _ => {
                let man_captures = if name.contains("weak") {
                    vec![(0, 2), (1, 1), (-1, 1)]
                } else if name.contains("medium") {
                    vec![(0, 2), (1, 1), (-1, 1), (2, 0), (-2, 0)]
                } else {
                    all.clone()
                };
                Rules {
                    size: if name.contains("8x8") { 8 } else { 10 },
                    dark: 1,
                    man_captures,
                    dame_vectors: all,
                    flying: true,
                    majority: !name.ends_with("-free"),
                    crowning_ends: false,
                }
            }
        }
    }

    fn name((f, r): (i32, i32)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// Reads a position string by hand.
    pub fn parse(rules: &Rules, text: &str) -> (HashMap<(i32, i32), Piece>, Player) {
        let (board, side) = text.split_once(' ').unwrap();
        let mut pieces = HashMap::new();
        for (i, row) in board.split('/').enumerate() {
            let rank = rules.size - 1 - i as i32;
            let mut file = 0;
            let mut number = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    number.push(c);
                    continue;
                }
                if !number.is_empty() {
                    file += number.parse::<i32>().unwrap();
                    number.clear();
                }
                let owner = if c.is_ascii_uppercase() {
                    Player::White
                } else {
                    Player::Black
                };
                pieces.insert((file, rank), (owner, c.eq_ignore_ascii_case(&'d')));
                file += 1;
            }
        }
        let side = if side == "w" {
            Player::White
        } else {
            Player::Black
        };
        (pieces, side)
    }

    struct Search<'a> {
        rules: &'a Rules,
        board: HashMap<(i32, i32), Piece>,
        side: Player,
        start: (i32, i32),
        /// Complete sequences: where each ends and what it captures.
        found: Vec<(Square, Vec<Square>)>,
    }

    impl Search<'_> {
        fn on_board(&self, (f, r): (i32, i32)) -> bool {
            f >= 0 && r >= 0 && f < self.rules.size && r < self.rules.size
        }

        fn empty(&self, sq: (i32, i32)) -> bool {
            self.on_board(sq) && !self.board.contains_key(&sq)
        }

        fn enemy(&self, sq: (i32, i32), captured: &[(i32, i32)]) -> bool {
            matches!(self.board.get(&sq), Some(&(owner, _)) if owner != self.side)
                && !captured.contains(&sq)
        }

        fn far_row(&self, (_, r): (i32, i32)) -> bool {
            r == if self.side == Player::White {
                self.rules.size - 1
            } else {
                0
            }
        }

        fn extend(&mut self, at: (i32, i32), dame: bool, captured: Vec<(i32, i32)>) {
            let mut jumps = Vec::new();
            let vectors: Vec<(i32, i32)> = if dame {
                self.rules.dame_vectors.clone()
            } else if self.side == Player::White {
                self.rules.man_captures.clone()
            } else {
                self.rules
                    .man_captures
                    .iter()
                    .map(|&(f, r)| (-f, -r))
                    .collect()
            };
            for (df, dr) in vectors {
                let mut over = (at.0 + df, at.1 + dr);
                if dame && self.rules.flying {
                    while self.empty(over) {
                        over = (over.0 + df, over.1 + dr);
                    }
                }
                if !self.enemy(over, &captured) {
                    continue;
                }
                let mut land = (over.0 + df, over.1 + dr);
                while self.empty(land) {
                    jumps.push((over, land));
                    if !(dame && self.rules.flying) {
                        break;
                    }
                    land = (land.0 + df, land.1 + dr);
                }
            }
            if jumps.is_empty() {
                if !captured.is_empty() {
                    self.found.push((at, captured));
                }
                return;
            }
            for (over, land) in jumps {
                let mut now = captured.clone();
                now.push(over);
                if !dame && self.rules.crowning_ends && self.far_row(land) {
                    self.found.push((land, now));
                } else {
                    self.extend(land, dame, now);
                }
            }
        }
    }

    /// Every legal move.
    pub fn moves(rules: &Rules, text: &str) -> BTreeSet<Key> {
        let (board, side) = parse(rules, text);
        for &(f, r) in board.keys() {
            assert_eq!((f + r).rem_euclid(2), rules.dark);
        }
        let own: Vec<((i32, i32), bool)> = board
            .iter()
            .filter(|(_, &(owner, _))| owner == side)
            .map(|(&sq, &(_, dame))| (sq, dame))
            .collect();
        let mut captures: Vec<Key> = Vec::new();
        for &(start, dame) in &own {
            let mut lifted = board.clone();
            lifted.remove(&start);
            let mut search = Search {
                rules,
                board: lifted,
                side,
                start,
                found: Vec::new(),
            };
            search.extend(start, dame, Vec::new());
            for (end, captured) in search.found {
                let mut names: Vec<String> = captured.into_iter().map(name).collect();
                names.sort();
                captures.push((name(search.start), name(end), names));
            }
        }
        if !captures.is_empty() {
            let most = captures.iter().map(|c| c.2.len()).max().unwrap_or(0);
            return captures
                .into_iter()
                .filter(|c| !rules.majority || c.2.len() == most)
                .collect();
        }
        let mut quiet = BTreeSet::new();
        let forward = if side == Player::White { 1 } else { -1 };
        let search = Search {
            rules,
            board: board.clone(),
            side,
            start: (0, 0),
            found: Vec::new(),
        };
        for &(start, dame) in &own {
            let vectors = if dame {
                rules.dame_vectors.clone()
            } else {
                vec![(1, forward), (-1, forward)]
            };
            for (df, dr) in vectors {
                let mut to = (start.0 + df, start.1 + dr);
                while search.empty(to) {
                    quiet.insert((name(start), name(to), Vec::new()));
                    if !(dame && rules.flying) {
                        break;
                    }
                    to = (to.0 + df, to.1 + dr);
                }
            }
        }
        quiet
    }
}

/// The fast moves in the slow generator's terms.
fn keys<V: Variant>(moves: &[Move]) -> BTreeSet<slow::Key> {
    let g = geometry::<V>();
    let name = |sq: u8| notation::square_name(g, sq);
    moves
        .iter()
        .map(|m| {
            let mut captured: Vec<String> = Squares(m.captured).map(name).collect();
            captured.sort();
            (name(m.from), name(m.to), captured)
        })
        .collect()
}

#[test]
fn fast_generator_agrees_with_the_slow_one() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let rules = slow::rules(V::NAME);
        let mut compare = |s: &State, moves: &[Move]| {
            let fast = keys::<V>(moves);
            assert_eq!(fast.len(), moves.len(), "no duplicates");
            let text = game.position_text(s);
            assert_eq!(fast, slow::moves(&rules, &text), "{} {text}", V::NAME);
        };
        random_games::<V>(5, 4, 300, &mut compare);
        // Random positions with many dames exercise long captures.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut moves = Vec::new();
        for _ in 0..400 {
            let s = random_position::<V>(&mut rng);
            game.legal_moves(&s, &mut moves);
            compare(&s, &moves);
        }
    }
    for_every_ruleset!(check);
}
