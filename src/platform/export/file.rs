//! `smsarena replay FILE`: the file read up to a size cap, its export checked, and what is printed of the document made safe for a terminal.

use std::io::Read;
use std::path::Path;

use super::{Export, check};
use crate::platform::catalog::Catalog;

/// The most of a file `replay` reads. The largest export measured, an
/// eight-car nine-lap race, is 272 KiB (docs/DECISIONS.md); this is thirty
/// times that, and a file or stream beyond it is refused after reading no
/// more than it.
pub const EXPORT_MAX_BYTES: u64 = 8 << 20;

/// What `smsarena replay` says (one line, safe to print) and how it exits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It replays to what it says: exit 0.
    Replays(String),
    /// It does not, and why: exit 1.
    Refused(String),
    /// It cannot be read as an export: exit 2.
    Unreadable(String),
}

/// Reads the export at `path` and checks it.
pub fn replay_file(catalog: &Catalog, path: &Path) -> Verdict {
    let export = match read_export(path) {
        Ok(export) => export,
        Err(e) => return Verdict::Unreadable(printable(&format!("{}: {e}", path.display()))),
    };
    let head = format!("match {} ({})", export.id, export.game);
    match check(catalog, &export) {
        Ok(done) => Verdict::Replays(printable(&format!(
            "{head}: {} moves replay from seed {} to the final state given",
            done.moves, export.seed
        ))),
        Err(e) => Verdict::Refused(printable(&format!("{head}: {e}"))),
    }
}

fn read_export(path: &Path) -> Result<Export, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(EXPORT_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > EXPORT_MAX_BYTES {
        return Err(format!(
            "more than {} MiB, far more than any export; not read further",
            EXPORT_MAX_BYTES >> 20
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// `text` with every character a terminal could act on or hide (escape
/// sequences and other controls, bidirectional overrides, invisible
/// formatting) written as a visible `\u{..}` escape, as Rust's own debug
/// form writes them; quotes and backslashes stay as they are.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '\'' | '\\' => out.push(c),
            _ => out.extend(c.escape_debug()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::platform::export::FORMAT;

    #[test]
    fn what_a_terminal_would_act_on_is_printed_as_an_escape() {
        let shown = printable("PS\x1b[2J\u{9b}31m\x07\r\n\u{202e}evil\u{200b}");
        assert_eq!(
            shown,
            "PS\\u{1b}[2J\\u{9b}31m\\u{7}\\r\\n\\u{202e}evil\\u{200b}"
        );
        assert!(!shown.chars().any(char::is_control), "{shown}");
        let plain = "match 7 (PS): seat 1's nick \"ann\" \\ Privet, Привет";
        assert_eq!(printable(plain), plain);
    }

    fn catalog() -> Catalog {
        Catalog::new(&Config::default())
    }

    fn written(dir: &tempfile::TempDir, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.path().join("export.json");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_file_over_the_cap_is_refused_unparsed() {
        let dir = tempfile::tempdir().unwrap();
        let mut big = b"{\"format\": \"".to_vec();
        big.resize(EXPORT_MAX_BYTES as usize + 1, b'a');
        let verdict = replay_file(&catalog(), &written(&dir, &big));
        assert!(
            matches!(&verdict, Verdict::Unreadable(e) if e.contains("more than 8 MiB")),
            "{verdict:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_stream_is_refused_after_the_cap() {
        let verdict = replay_file(&catalog(), Path::new("/dev/zero"));
        assert!(
            matches!(&verdict, Verdict::Unreadable(e) if e.contains("more than 8 MiB")),
            "{verdict:?}"
        );
    }

    #[test]
    fn an_escape_in_the_game_is_not_printed_raw() {
        let dir = tempfile::tempdir().unwrap();
        let export = serde_json::json!({
            "format": FORMAT, "id": 7, "game": "\u{1b}]0;owned\u{7}PS", "options": "",
            "seed": "\u{1b}[2J1", "rematch_of_state": null, "initial_state": "",
            "final_state": "", "finished": true, "seats": [], "moves": [],
            "notation": "", "states": [],
        });
        let verdict = replay_file(&catalog(), &written(&dir, export.to_string().as_bytes()));
        let Verdict::Refused(line) = &verdict else {
            panic!("{verdict:?}");
        };
        assert!(
            line.starts_with("match 7 (\\u{1b}]0;owned\\u{7}PS): no game"),
            "{line}"
        );
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
}
