//! Every legal code, and every combination a side can play from a position,
//! deduplicated: intermediate positions (holder and blocks) are expanded
//! once, and combinations that leave the same field are kept once.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::Side;
use crate::intelball::board::{Cell, Field, Spot, other};
use crate::intelball::code::Code;
use crate::intelball::rules::{self, Ending, Stepped};

/// Every code `side` may play on `field` now, `-` first.
pub fn legal_codes(field: &Field, side: Side) -> Vec<Code> {
    candidates(field, side)
        .into_iter()
        .filter(|code| rules::play(&mut field.clone(), side, code).is_ok())
        .collect()
}

/// The codes worth trying: legal by construction except for details the
/// rules check (a shot's leap, offside).
fn candidates(field: &Field, side: Side) -> Vec<Code> {
    let mut out = vec![Code::End];
    let ball = field.ball;
    for (a, piece) in field.team(side) {
        if piece.blocked {
            continue;
        }
        let from = a.spot();
        if ball == a {
            kicks(field, side, a, &mut out);
            for b in a.neighbours().filter(|b| field.piece(*b).is_none()) {
                out.push(Code::Dribble {
                    side,
                    from,
                    to: b.spot(),
                });
            }
            continue;
        }
        for b in a.neighbours() {
            let to = b.spot();
            match field.piece(b) {
                None if b == ball => {
                    out.push(Code::ToBall { side, from, to });
                    out.push(Code::Pull {
                        side,
                        ball: to,
                        to: from,
                    });
                }
                None => out.push(Code::Step { side, from, to }),
                Some(p) if p.side != side && b == ball => out.push(Code::Take {
                    side,
                    from: to,
                    to: from,
                }),
                Some(_) => {}
            }
        }
    }
    out
}

const DIRS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Shots and passes of the holder on `a`, walking the eight lines until a player.
fn kicks(field: &Field, side: Side, a: Cell, out: &mut Vec<Code>) {
    let from = a.spot();
    for (dr, dc) in DIRS {
        let (mut r, mut c) = (a.row() as i8, a.col() as i8);
        loop {
            r += dr;
            c += dc;
            if r < 0 || c < 0 {
                break;
            }
            let spot = Spot::new(r as u8, c as u8);
            match spot.cell() {
                Some(b) => match field.piece(b) {
                    None => out.push(Code::Shot {
                        side,
                        from,
                        to: spot,
                    }),
                    Some(p) => {
                        if p.side == side && !p.blocked {
                            out.push(Code::Pass {
                                side,
                                from,
                                to: spot,
                            });
                        }
                        break;
                    }
                },
                None => {
                    if spot.goal_of() == Some(other(side)) {
                        out.push(Code::Shot {
                            side,
                            from,
                            to: spot,
                        });
                    }
                    break;
                }
            }
        }
    }
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub struct Plain(u64);

impl Hasher for Plain {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub type KeySet = HashSet<u64, BuildHasherDefault<Plain>>;

/// A 64-bit key of the field; with `blocks` false, blocks do not count (they
/// no longer matter once the turn has passed).
pub fn key(field: &Field, blocks: bool) -> u64 {
    let mask = if blocks { 0xff } else { !4u8 };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ field.ball.index() as u64;
    for (i, &sq) in field.squares().iter().enumerate() {
        if sq != 0 {
            h = (h ^ ((i as u64) << 8 | u64::from(sq & mask))).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
    }
    h
}

/// A position within a combination: its field, and how it was reached.
struct Node {
    field: Field,
    parent: usize,
    code: Code,
}

/// The end of one combination: the field handed over to the other side.
#[derive(Clone, Copy, Debug)]
pub struct Final {
    pub field: Field,
    pub ending: Ending,
    node: usize,
    code: Code,
}

/// All combinations from one position.
pub struct Tree {
    nodes: Vec<Node>,
    pub finals: Vec<Final>,
}

impl Tree {
    /// The codes of a combination, in order.
    pub fn codes(&self, fin: &Final) -> Vec<Code> {
        let mut codes = vec![fin.code];
        let mut at = fin.node;
        while at != 0 {
            codes.push(self.nodes[at].code);
            at = self.nodes[at].parent;
        }
        codes.reverse();
        codes
    }
}

/// Every combination `side` can play from `field`, one per resulting field.
pub fn expand(field: &Field, side: Side) -> Tree {
    let mut tree = Tree {
        nodes: vec![Node {
            field: *field,
            parent: 0,
            code: Code::End,
        }],
        finals: Vec::new(),
    };
    let mut inner = KeySet::default();
    let mut outer = KeySet::default();
    inner.insert(key(field, true));
    let mut i = 0;
    while i < tree.nodes.len() {
        let here = tree.nodes[i].field;
        for code in candidates(&here, side) {
            let mut f = here;
            match rules::play(&mut f, side, &code) {
                Ok(Stepped::Continues) => {
                    if inner.insert(key(&f, true)) {
                        tree.nodes.push(Node {
                            field: f,
                            parent: i,
                            code,
                        });
                    }
                }
                Ok(Stepped::Ends(ending)) => {
                    if outer.insert(key(&f, false)) {
                        tree.finals.push(Final {
                            field: f,
                            ending,
                            node: i,
                            code,
                        });
                    }
                }
                Err(_) => {}
            }
        }
        i += 1;
    }
    tree
}
