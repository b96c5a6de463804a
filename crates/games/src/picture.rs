//! A board drawn as SVG: a grid of cells (or points), marks on them, lines between them, labels along the edges.
//!
//! Every game draws its board through this one model, so the pictures look
//! alike and stay small: no styles (colours are attributes, so the picture
//! needs no `style-src`), no scripts, every text escaped by maud. Cells are
//! addressed `(col, row)` from the top left, in the order the SMS board
//! prints them; the labels are the game's own notation.

use maud::html;

/// Side of a cell, in SVG units.
const CELL: u32 = 24;
/// Room for the row labels on the left and the column labels below.
const MARGIN: u32 = 20;

/// What a mark is, and so its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// The viewing seat's own piece.
    Own,
    /// The first side (Attack, Blue, Red letters...).
    First,
    /// The second side.
    Second,
    /// The ball.
    Ball,
    /// Neither side's: a hint, a base, a letter of nobody's.
    Neutral,
    /// A cell that is no part of the board (no road, off the field).
    Void,
}

impl Tone {
    /// Fill and text colour: light fills, dark letters, readable in both.
    fn colours(self) -> (&'static str, &'static str) {
        match self {
            Tone::Own => ("#ffd54f", "#3e2a00"),
            Tone::First => ("#bbdefb", "#0d3c78"),
            Tone::Second => ("#ffcdd2", "#7f1018"),
            Tone::Ball => ("#ffffff", "#111111"),
            Tone::Neutral => ("#eeeeee", "#333333"),
            Tone::Void => ("#9e9e9e", "#9e9e9e"),
        }
    }

    /// The name a test or a style reads on the mark (`data-tone`).
    fn name(self) -> &'static str {
        match self {
            Tone::Own => "own",
            Tone::First => "first",
            Tone::Second => "second",
            Tone::Ball => "ball",
            Tone::Neutral => "neutral",
            Tone::Void => "void",
        }
    }
}

/// A symbol on a cell, as the SMS board prints it there.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub col: u32,
    pub row: u32,
    pub text: String,
    pub tone: Tone,
}

/// A segment from one cell's centre to another's, `(col, row)` each.
pub type Segment = ((u32, u32), (u32, u32));

/// A board to draw.
#[derive(Clone, Debug, Default)]
pub struct Picture {
    pub cols: u32,
    pub rows: u32,
    /// Cells drawn as squares; `false`: as points of a lattice (paper soccer).
    pub squares: bool,
    /// One per column, below the board; empty for none.
    pub col_labels: Vec<String>,
    /// One per row, left of it; empty for none.
    pub row_labels: Vec<String>,
    pub marks: Vec<Mark>,
    /// Segments played, between cell centres, `(col, row)` to `(col, row)`.
    pub lines: Vec<Segment>,
    /// Segments that bound the board (paper soccer's side lines and goals).
    pub outline: Vec<Segment>,
    /// Cells (points) that are no part of the board, left undrawn.
    pub holes: Vec<(u32, u32)>,
    /// Columns after which a wider gap stands (Intelball's zones).
    pub gaps_after: Vec<u32>,
}

impl Picture {
    /// An empty grid of squares.
    pub fn squares(cols: u32, rows: u32) -> Picture {
        Picture {
            cols,
            rows,
            squares: true,
            ..Picture::default()
        }
    }

    /// An empty lattice of points.
    pub fn lattice(cols: u32, rows: u32) -> Picture {
        Picture {
            cols,
            rows,
            squares: false,
            ..Picture::default()
        }
    }

    pub fn mark(&mut self, col: u32, row: u32, text: impl ToString, tone: Tone) {
        self.marks.push(Mark {
            col,
            row,
            text: text.to_string(),
            tone,
        });
    }

    /// Marks every symbol of `rows` (one string a row, one char a cell, as
    /// the SMS board prints them) that `tone` names; `None` leaves the cell empty.
    pub fn mark_rows<S: AsRef<str>>(&mut self, rows: &[S], tone: impl Fn(char) -> Option<Tone>) {
        for (row, line) in rows.iter().enumerate() {
            for (col, symbol) in line.as_ref().chars().enumerate() {
                if let Some(tone) = tone(symbol) {
                    self.mark(col as u32, row as u32, symbol, tone);
                }
            }
        }
    }

    /// Left edge of a column, gaps included.
    fn x(&self, col: u32) -> u32 {
        let gaps = self.gaps_after.iter().filter(|&&g| g < col).count() as u32;
        MARGIN + col * CELL + gaps * (CELL / 3)
    }

    fn y(&self, row: u32) -> u32 {
        row * CELL
    }

    /// The SVG text.
    pub fn svg(&self) -> String {
        let width = self.x(self.cols) + 4;
        let height = self.y(self.rows) + MARGIN;
        let half = CELL / 2;
        let view = format!("0 0 {width} {height}");
        html! {
            svg xmlns="http://www.w3.org/2000/svg" viewBox=(view) width=(width) height=(height)
                font-family="monospace" font-size="14" text-anchor="middle" {
                @for row in 0..self.rows {
                    @for col in (0..self.cols).filter(|&c| !self.holes.contains(&(c, row))) {
                        @if self.squares {
                            rect x=(self.x(col)) y=(self.y(row)) width=(CELL) height=(CELL)
                                fill="#fafafa" stroke="#bdbdbd" {}
                        } @else {
                            circle cx=(self.x(col) + half) cy=(self.y(row) + half) r="2" fill="#9e9e9e" {}
                        }
                    }
                }
                @for (segments, colour) in [(&self.outline, "#424242"), (&self.lines, "#1565c0")] {
                    @for ((c1, r1), (c2, r2)) in segments {
                        line x1=(self.x(*c1) + half) y1=(self.y(*r1) + half)
                            x2=(self.x(*c2) + half) y2=(self.y(*r2) + half)
                            stroke=(colour) stroke-width="2" stroke-linecap="round" {}
                    }
                }
                @for mark in &self.marks {
                    @let (fill, ink) = mark.tone.colours();
                    g data-col=(mark.col) data-row=(mark.row) data-tone=(mark.tone.name()) {
                        @if mark.tone == Tone::Void {
                            rect x=(self.x(mark.col) + 1) y=(self.y(mark.row) + 1)
                                width=(CELL - 2) height=(CELL - 2) fill=(fill) {}
                        } @else {
                            circle cx=(self.x(mark.col) + half) cy=(self.y(mark.row) + half)
                                r=(half - 2) fill=(fill) stroke=(ink) {}
                            text x=(self.x(mark.col) + half) y=(self.y(mark.row) + half + 5)
                                fill=(ink) { (mark.text) }
                        }
                    }
                }
                @for (col, label) in self.col_labels.iter().enumerate() {
                    text x=(self.x(col as u32) + half) y=(self.y(self.rows) + 15) fill="#616161"
                        font-size="11" { (label) }
                }
                @for (row, label) in self.row_labels.iter().enumerate() {
                    text x=(MARGIN / 2) y=(self.y(row as u32) + half + 4) fill="#616161"
                        font-size="11" { (label) }
                }
            }
        }
        .into_string()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Each mark of a drawn board: column, row, symbol, tone, in drawing order.
    pub(crate) fn marks(svg: &str) -> Vec<(u32, u32, String, String)> {
        let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
        doc.descendants()
            .filter(|n| n.has_tag_name("g"))
            .map(|g| {
                let number = |name: &str| g.attribute(name).and_then(|v| v.parse().ok());
                let text = g
                    .descendants()
                    .find(|n| n.has_tag_name("text"))
                    .and_then(|t| t.text())
                    .unwrap_or_default();
                (
                    number("data-col").expect("a column"),
                    number("data-row").expect("a row"),
                    text.to_string(),
                    g.attribute("data-tone").unwrap_or_default().to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn every_text_is_escaped() {
        let mut picture = Picture::squares(1, 1);
        picture.mark(0, 0, "<script>&\"'", Tone::Own);
        picture.col_labels = vec!["</svg>".into()];
        let svg = picture.svg();
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(!svg.contains("</svg><"), "{svg}");
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(texts, ["<script>&\"'", "</svg>"]);
    }

    #[test]
    fn lattice_draws_points_and_segments() {
        let mut picture = Picture::lattice(3, 2);
        picture.lines.push(((0, 0), (1, 1)));
        let svg = picture.svg();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let count = |tag: &str| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
        assert_eq!(count("circle"), 6);
        assert_eq!(count("line"), 1);
        assert_eq!(count("rect"), 0);
    }
}
