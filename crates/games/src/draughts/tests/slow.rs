//! The rules written the obvious way, on (file, rank) pairs and a map of pieces, straight from
//! the rules files: the reference the fast generator is checked against.

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
