//! The facts the rules files state: the dame fork and the two-dames endings.

use std::collections::HashMap;

use super::*;

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
        game.play_unchecked(&mut next, mv);
        let replies = legal::<V>(&next);
        if replies.iter().any(|r| r.is_capture()) {
            for reply in replies {
                let mut after = next.clone();
                game.play_unchecked(&mut after, reply);
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
                    game.play_unchecked(&mut next, mv);
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
