//! The drawn field: its points, the border and goals, every segment played and the ball, top goal up as the SMS board draws it.

use super::field::{DX, DY, Kind, SENTINEL};
use super::state::State;
use crate::Seat;
use crate::picture::{Picture, Segment, Tone};

/// The field as SVG; both seats see the same one, as in the SMS.
pub fn picture(state: &State, _seat: Seat) -> String {
    let f = state.field();
    let pos = &state.pos;
    // Points `(x, y)`, `y` from -1 (the top goal's row): the picture's
    // `(col, row)` is `(x, y + 1)`.
    let at = |p: u16| {
        let (x, y) = f.xy(p);
        (x as u32, (y + 1) as u32)
    };
    let mut picture = Picture::lattice(f.cols as u32, f.rows as u32);
    for p in 0..f.points() {
        if f.kind[p] == Kind::Off {
            picture
                .holes
                .push(((p % f.cols) as u32, (p / f.cols) as u32));
            continue;
        }
        let p = p as u16;
        // Right, down-right, down, down-left: each segment once.
        for d in 2..=5 {
            let e = f.edge[p as usize][d];
            if e == SENTINEL || !pos.drawn(e) {
                continue;
            }
            // By coordinates: a goal point's segments have no entry in `nbr`.
            let (x, y) = f.xy(p);
            let Some(q) = f.point(x + i32::from(DX[d]), y + i32::from(DY[d])) else {
                continue;
            };
            let segment: Segment = (at(p), at(q));
            if f.is_border(e) {
                picture.outline.push(segment);
            } else {
                picture.lines.push(segment);
            }
        }
    }
    let (col, row) = at(pos.ball);
    picture.mark(col, row, '@', Tone::Ball);
    picture.svg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::tests::marks;

    fn count(svg: &str, stroke: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
        doc.descendants()
            .filter(|n| n.has_tag_name("line") && n.attribute("stroke") == Some(stroke))
            .count()
    }

    #[test]
    fn the_ball_and_each_step_are_drawn_where_they_are() {
        let mut state = State::new(8, 10, 0);
        let opening = picture(&state, 0);
        // The centre point (4, 5) is the picture's (4, 6).
        assert_eq!(
            marks(&opening),
            [(4, 6, "@".to_string(), "ball".to_string())]
        );
        assert_eq!(count(&opening, "#1565c0"), 0, "nothing played yet");
        let border = count(&opening, "#424242");
        // Two side lines of 10, two end lines of 6, two goals of 4 segments.
        assert_eq!(border, 2 * 10 + 2 * 6 + 2 * 4, "the side lines and goals");
        let doc = roxmltree::Document::parse(&opening).expect("well-formed XML");
        for line in doc.descendants().filter(|n| n.has_tag_name("line")) {
            let at = |name: &str| line.attribute(name).unwrap().parse::<i32>().unwrap();
            let (dx, dy) = ((at("x2") - at("x1")).abs(), (at("y2") - at("y1")).abs());
            assert!(
                dx <= 24 && dy <= 24 && dx + dy > 0,
                "a segment joins neighbouring points: {dx}, {dy}"
            );
        }
        // `3` on the keypad: up and right (kurnik direction 1).
        state.step(1).expect("a free step");
        let after = picture(&state, 1);
        assert_eq!(marks(&after), [(5, 5, "@".to_string(), "ball".to_string())]);
        assert_eq!(count(&after, "#1565c0"), 1, "the one step played");
        assert_eq!(count(&after, "#424242"), border);
    }
}
