//! Reading a state string's `_NAME(...)` fields in order, with nested
//! parentheses (a combination's cells, a saved position) kept whole.

use crate::NotationError;

/// A cursor over a state string with its spaces removed.
pub struct Reader {
    text: String,
    at: usize,
}

impl Reader {
    /// Upper-cases and drops every space: state strings have neither lower
    /// case nor spaces of their own, and players may add both.
    pub fn new(text: &str) -> Reader {
        Reader {
            text: text
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c.to_ascii_uppercase())
                .collect(),
            at: 0,
        }
    }

    pub fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    /// The content of the field `_NAME(...)`, which must come next.
    pub fn field(&mut self, name: &str) -> Result<String, NotationError> {
        let open = format!("_{name}(");
        if !self.text[self.at..].starts_with(&open) {
            let found: String = self.text[self.at..].chars().take(12).collect();
            let found = if found.is_empty() {
                "the end".to_string()
            } else {
                format!("{found:?}")
            };
            return Err(NotationError::new(format!(
                "expected _{name}(...), found {found}"
            )));
        }
        let start = self.at + open.len();
        let mut depth = 1usize;
        for (i, c) in self.text[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        let content = self.text[start..start + i].to_string();
                        self.at = start + i + 1;
                        return Ok(content);
                    }
                }
                _ => {}
            }
        }
        Err(NotationError::new(format!("_{name}( is never closed")))
    }

    /// Refuses anything left over.
    pub fn end(&self) -> Result<(), NotationError> {
        if self.done() {
            Ok(())
        } else {
            let rest: String = self.text[self.at..].chars().take(12).collect();
            Err(NotationError::new(format!(
                "unexpected text at the end: {rest:?}"
            )))
        }
    }
}

/// A decimal number of at most nine digits.
pub fn number(text: &str, what: &str) -> Result<u32, NotationError> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::new(format!(
            "{what} must be a number, not {text:?}"
        )));
    }
    text.parse()
        .map_err(|_| NotationError::new(format!("{what}: bad number {text:?}")))
}
