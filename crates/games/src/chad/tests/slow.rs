//! The rules written the obvious way, on (file, rank) pairs and squares named in the rules
//! file: the reference the fast generator is checked against.

use super::*;

const WHITE_CASTLE: &str = "C3 D3 E3 C4 D4 E4 C5 D5 E5";
const BLACK_CASTLE: &str = "H8 I8 J8 H9 I9 J9 H10 I10 J10";
const WHITE_WALL: &str = "C2 D2 E2 B3 B4 B5 F3 F4 F5 C6 D6 E6";
const BLACK_WALL: &str = "H7 I7 J7 G8 G9 G10 K8 K9 K10 H11 I11 J11";

fn member(list: &str, f: i32, r: i32) -> bool {
    list.split(' ').any(|n| square(n) as i32 == f + 12 * r)
}

fn castle(p: Player, f: i32, r: i32) -> bool {
    member(
        if p == Player::White {
            WHITE_CASTLE
        } else {
            BLACK_CASTLE
        },
        f,
        r,
    )
}

fn wall(p: Player, f: i32, r: i32) -> bool {
    member(
        if p == Player::White {
            WHITE_WALL
        } else {
            BLACK_WALL
        },
        f,
        r,
    )
}

type Grid = [[Option<Piece>; 12]; 12];

fn at(g: &Grid, f: i32, r: i32) -> Option<Option<Piece>> {
    ((0..12).contains(&f) && (0..12).contains(&r)).then(|| g[f as usize][r as usize])
}

fn checked(g: &Grid, p: Player) -> bool {
    let king = (0..144)
        .find(|&sq| g[sq % 12][sq / 12] == Some(Piece::new(p, Kind::King)))
        .unwrap();
    let (kf, kr) = ((king % 12) as i32, (king / 12) as i32);
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) == (0, 0) {
                continue;
            }
            let (mut f, mut r) = (kf + df, kr + dr);
            while let Some(c) = at(g, f, r) {
                if let Some(piece) = c {
                    let line = piece.kind() == Kind::Queen
                        || (piece.kind() == Kind::Rook && (df == 0 || dr == 0));
                    if piece.owner() != p && line {
                        return true;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
    }
    false
}

/// Whether the side to move is in check.
pub(super) fn in_check(s: &State) -> bool {
    checked(&grid(s), s.to_move())
}

fn grid(s: &State) -> Grid {
    let mut g: Grid = [[None; 12]; 12];
    for sq in 0..144 {
        g[sq % 12][sq / 12] = s.piece_at(Cell(sq as u16));
    }
    g
}

/// (from, to, capture, promotion) of every legal move.
pub(super) fn moves(s: &State) -> HashSet<(usize, usize, bool, bool)> {
    let us = s.to_move();
    let g = grid(s);
    let mut out = HashSet::new();
    for f in 0..12i32 {
        for r in 0..12i32 {
            let Some(piece) = g[f as usize][r as usize] else {
                continue;
            };
            if piece.owner() != us {
                continue;
            }
            let mut targets = Vec::new();
            if piece.kind() == Kind::King {
                for df in -2..=2i32 {
                    for dr in -2..=2i32 {
                        let king_step = df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0);
                        let knight = df.abs() * dr.abs() == 2;
                        let (tf, tr) = (f + df, r + dr);
                        if !(king_step || knight) || !castle(us, tf, tr) {
                            continue;
                        }
                        match at(&g, tf, tr).unwrap() {
                            None => targets.push((tf, tr, false)),
                            Some(t) if t.owner() != us && t.kind() != Kind::King => {
                                targets.push((tf, tr, true))
                            }
                            Some(_) => {}
                        }
                    }
                }
            } else {
                for df in -1..=1 {
                    for dr in -1..=1 {
                        if (df, dr) == (0, 0) || (piece.kind() == Kind::Rook && df != 0 && dr != 0)
                        {
                            continue;
                        }
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while let Some(c) = at(&g, tf, tr) {
                            match c {
                                None => targets.push((tf, tr, false)),
                                Some(t) => {
                                    let right = (wall(!us, f, r) && castle(!us, tf, tr))
                                        || (castle(us, f, r) && wall(us, tf, tr));
                                    if t.owner() != us && t.kind() != Kind::King && right {
                                        targets.push((tf, tr, true));
                                    }
                                    break;
                                }
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
            }
            for (tf, tr, capture) in targets {
                let promotion = piece.kind() == Kind::Rook && castle(!us, tf, tr);
                let mut after = g;
                after[f as usize][r as usize] = None;
                after[tf as usize][tr as usize] = Some(if promotion {
                    Piece::new(us, Kind::Queen)
                } else {
                    piece
                });
                if !checked(&after, us) {
                    out.insert((
                        (f + 12 * r) as usize,
                        (tf + 12 * tr) as usize,
                        capture,
                        promotion,
                    ));
                }
            }
        }
    }
    out
}
