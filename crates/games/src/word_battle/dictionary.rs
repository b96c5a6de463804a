//! The dictionary: a trie of letter codes, one node per prefix, children found by bit mask.
//!
//! Built once per process from the word lists compiled in (`data/word_battle/`,
//! made by its `build.py`) and shared by every match; tests build small ones
//! with [`Dictionary::parse`]. Each node keeps the set of its children's codes
//! as a `u32` and the index of its first child (children are contiguous, in
//! code order), so a step is a mask test and a popcount. Each word carries a
//! rank (its frequency, Zipf x10; 0 for words the robot never plays) and each
//! node the best rank below it, so a search for common words skips whole
//! subtrees of rare ones.

use std::sync::OnceLock;

use super::alphabet::{Code, Letter, Variant};

/// A node of the trie; the root is [`ROOT`].
pub type NodeId = u32;

/// The empty prefix.
pub const ROOT: NodeId = 0;

/// The longest word a dictionary holds (the game's longest setting).
pub const MAX_WORD: usize = 7;

/// The shortest word a dictionary holds.
pub const MIN_WORD: usize = 3;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Bit `c` set: the prefix extended by code `c` is a node.
    mask: u32,
    /// The child with the lowest code; the others follow in code order.
    first: NodeId,
    /// 0: no word ends here; else the word's rank + 1.
    term: u8,
    /// The highest `term` in this node's subtree, itself included.
    best: u8,
    /// Bit `i`: letter `i` of the word ending here is written `ё`.
    yo: u8,
}

/// A word list as a trie; see the module doc.
#[derive(Debug)]
pub struct Dictionary {
    variant: Variant,
    nodes: Vec<Node>,
    words: usize,
}

/// A trie under construction: children as sorted lists.
#[derive(Default)]
struct Draft {
    children: Vec<(Code, usize)>,
    term: u8,
    yo: u8,
}

static RUSSIAN: OnceLock<Dictionary> = OnceLock::new();
static ENGLISH: OnceLock<Dictionary> = OnceLock::new();

const RU_DATA: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/word_battle/ru.txt"
));
const EN_DATA: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/word_battle/en.txt"
));

impl Dictionary {
    /// The compiled-in dictionary of `variant`, built on first use.
    ///
    /// # Panics
    ///
    /// If the compiled-in data does not parse (a build defect the tests catch).
    pub fn builtin(variant: Variant) -> &'static Dictionary {
        let (cell, data) = match variant {
            Variant::Ru => (&RUSSIAN, RU_DATA),
            Variant::En => (&ENGLISH, EN_DATA),
        };
        cell.get_or_init(|| {
            let text = std::str::from_utf8(data).expect("the word list is UTF-8");
            Dictionary::parse(variant, text).expect("the built-in word list parses")
        })
    }

    /// A dictionary from lines `word rank` (`#` lines are comments); words of
    /// 3-7 letters of the variant's alphabet, ranks 0-100. A word listed
    /// twice (`ё` read as `е`) keeps its first spelling and its best rank.
    pub fn parse(variant: Variant, text: &str) -> Result<Dictionary, String> {
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}: {line:?}", n + 1);
            let mut fields = line.split_whitespace();
            let word = fields.next().unwrap_or_default();
            let rank = match fields.next() {
                None => 0,
                Some(r) => r
                    .parse::<u8>()
                    .ok()
                    .filter(|&r| r <= 100)
                    .ok_or_else(|| bad("rank is not 0-100"))?,
            };
            if fields.next().is_some() {
                return Err(bad("more than a word and a rank"));
            }
            let letters = variant
                .spell(word)
                .ok_or_else(|| bad("not a word of the alphabet"))?;
            if !(MIN_WORD..=MAX_WORD).contains(&letters.len()) {
                return Err(bad("not 3-7 letters"));
            }
            entries.push((letters, rank));
        }
        Ok(Dictionary::build(variant, entries))
    }

    fn build(variant: Variant, entries: Vec<(Vec<Letter>, u8)>) -> Dictionary {
        let mut draft = vec![Draft::default()];
        let mut words = 0;
        for (letters, rank) in entries {
            let mut at = 0;
            for l in &letters {
                at = match draft[at].children.binary_search_by_key(&l.code, |c| c.0) {
                    Ok(i) => draft[at].children[i].1,
                    Err(i) => {
                        draft.push(Draft::default());
                        let id = draft.len() - 1;
                        draft[at].children.insert(i, (l.code, id));
                        id
                    }
                };
            }
            let node = &mut draft[at];
            if node.term == 0 {
                words += 1;
                node.yo = letters
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.yo)
                    .fold(0, |m, (i, _)| m | 1 << i);
            }
            node.term = node.term.max(rank + 1);
        }
        Dictionary {
            variant,
            nodes: flatten(&draft),
            words,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// How many words.
    pub fn len(&self) -> usize {
        self.words
    }

    pub fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// Bytes the trie takes.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
    }

    /// The prefix `node` extended by `code`.
    pub fn child(&self, node: NodeId, code: Code) -> Option<NodeId> {
        let n = &self.nodes[node as usize];
        let bit = 1u32.checked_shl(u32::from(code))?;
        (n.mask & bit != 0).then(|| n.first + (n.mask & (bit - 1)).count_ones())
    }

    /// Every child of `node` with its code, in code order.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = (Code, NodeId)> + '_ {
        let n = self.nodes[node as usize];
        let mut mask = n.mask;
        let mut next = n.first;
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let code = mask.trailing_zeros() as Code;
            mask &= mask - 1;
            next += 1;
            Some((code, next - 1))
        })
    }

    /// The rank of the word ending at `node`, if one does.
    pub fn rank(&self, node: NodeId) -> Option<u8> {
        self.nodes[node as usize].term.checked_sub(1)
    }

    /// Whether some word of rank `min_rank` or more lies at or below `node`.
    pub fn reaches(&self, node: NodeId, min_rank: u8) -> bool {
        self.nodes[node as usize].best > min_rank
    }

    /// The node of the word with these letter codes.
    pub fn find_codes(&self, codes: &[Code]) -> Option<NodeId> {
        let node = codes
            .iter()
            .try_fold(ROOT, |node, &c| self.child(node, c))?;
        self.rank(node).map(|_| node)
    }

    /// The node of `word` (either case, `ё` read as `е`), if it is a word here.
    pub fn find(&self, word: &str) -> Option<NodeId> {
        let letters = self.variant.spell(word)?;
        let codes: Vec<Code> = letters.iter().map(|l| l.code).collect();
        self.find_codes(&codes)
    }

    /// The dictionary's spelling of the word `codes` ending at `node`.
    pub fn spelling(&self, node: NodeId, codes: &[Code]) -> String {
        let yo = self.nodes[node as usize].yo;
        codes
            .iter()
            .enumerate()
            .map(|(i, &code)| {
                let letter = Letter {
                    code,
                    yo: yo >> i & 1 == 1,
                };
                self.variant.char(letter, false)
            })
            .collect()
    }

    /// Every word with its rank, in code order (for tests and tools).
    pub fn words(&self) -> Vec<(String, u8)> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.collect(ROOT, &mut path, &mut out);
        out
    }

    fn collect(&self, node: NodeId, path: &mut Vec<Code>, out: &mut Vec<(String, u8)>) {
        if let Some(rank) = self.rank(node) {
            out.push((self.spelling(node, path), rank));
        }
        for (code, child) in self.children(node) {
            path.push(code);
            self.collect(child, path, out);
            path.pop();
        }
    }
}

/// Lays the draft out breadth first, so that every node's children are
/// contiguous and come after it; then fills in the best rank bottom up.
fn flatten(draft: &[Draft]) -> Vec<Node> {
    let mut order = vec![0usize];
    let mut nodes = vec![Node::default()];
    let mut i = 0;
    while i < order.len() {
        let d = &draft[order[i]];
        nodes[i].first = nodes.len() as NodeId;
        nodes[i].term = d.term;
        nodes[i].yo = d.yo;
        for &(code, child) in &d.children {
            nodes[i].mask |= 1 << code;
            order.push(child);
            nodes.push(Node::default());
        }
        i += 1;
    }
    for i in (0..nodes.len()).rev() {
        let n = nodes[i];
        let below = (n.first..n.first + n.mask.count_ones())
            .map(|c| nodes[c as usize].best)
            .max()
            .unwrap_or(0);
        nodes[i].best = n.term.max(below);
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Dictionary {
        Dictionary::parse(
            Variant::Ru,
            "# test\nкот 40\nкоты 3\nкол 35\nёлка 30\nелка 1\nрок\n",
        )
        .unwrap()
    }

    #[test]
    fn small_dictionary_finds_its_words() {
        let d = small();
        assert_eq!(d.len(), 5);
        for w in ["кот", "КОТ", "коты", "кол", "елка", "ёлка", "рок"] {
            assert!(d.find(w).is_some(), "{w}");
        }
        for w in ["ко", "котик", "лок", "cat", ""] {
            assert!(d.find(w).is_none(), "{w}");
        }
        let elka = d.find("елка").unwrap();
        assert_eq!(d.rank(elka), Some(30), "the best rank of both spellings");
        assert_eq!(
            d.spelling(elka, &[5, 11, 10, 0]),
            "ёлка",
            "the first spelling"
        );
        assert_eq!(d.rank(d.find("рок").unwrap()), Some(0));
    }

    #[test]
    fn words_come_back_in_code_order() {
        let words: Vec<String> = small().words().into_iter().map(|w| w.0).collect();
        assert_eq!(words, ["ёлка", "кол", "кот", "коты", "рок"]);
    }

    #[test]
    fn best_rank_prunes_rare_subtrees() {
        let d = small();
        let k = d.child(ROOT, 10).unwrap();
        assert!(d.reaches(k, 40));
        assert!(!d.reaches(k, 41));
        let r = d.child(ROOT, 16).unwrap();
        assert!(d.reaches(r, 0) && !d.reaches(r, 1));
    }

    #[test]
    fn bad_lists_are_refused() {
        for text in [
            "ко 3",
            "котенька 3",
            "кот 101",
            "кот x",
            "кот 3 4",
            "cat 3",
            "к0т 1",
        ] {
            assert!(Dictionary::parse(Variant::Ru, text).is_err(), "{text}");
        }
        assert!(Dictionary::parse(Variant::En, "cat 3\ndog").is_ok());
    }

    #[test]
    fn builtin_dictionaries_load_with_spot_checks() {
        let ru = Dictionary::builtin(Variant::Ru);
        assert!(ru.len() > 15_000, "{} words", ru.len());
        for w in [
            "бамбук",
            "окурок",
            "рококо",
            "краска",
            "стол",
            "дом",
            "мама",
            "намек",
            "ёлка",
        ] {
            assert!(ru.find(w).is_some(), "{w} should be in");
        }
        // Plural-only, proper, obscene, too short, not nouns, not nominative.
        for w in [
            "ножницы",
            "сутки",
            "москва",
            "иван",
            "пизда",
            "жопа",
            "ёж",
            "очень",
            "бежать",
            "стола",
            "столы",
        ] {
            assert!(ru.find(w).is_none(), "{w} should be out");
        }
        assert_eq!(
            ru.spelling(ru.find("намек").unwrap(), &codes("намек")),
            "намёк"
        );
        let en = Dictionary::builtin(Variant::En);
        assert!(en.len() > 8_000, "{} words", en.len());
        for w in ["cat", "house", "bamboo", "table"] {
            assert!(en.find(w).is_some(), "{w} should be in");
        }
        for w in ["paris", "shit", "cats", "quickly", "the"] {
            assert!(en.find(w).is_none(), "{w} should be out");
        }
    }

    /// The robot plays words from its vocabulary's rank up; a word whose
    /// spelling is mostly another word (an adverb, a preposition, another
    /// noun's form, an `е` word for a `ё` one) must not rank as common.
    #[test]
    fn the_robots_common_words_are_common_nouns() {
        let ru = Dictionary::builtin(Variant::Ru);
        let common = crate::word_battle::robot::vocabulary(Variant::Ru).common;
        let rank = |d: &Dictionary, w: &str| d.rank(d.find(w).unwrap()).unwrap();
        // `тут` the adverb, `обо` the preposition, `перед`, `лет` (years).
        for w in ["тут", "обо", "перёд", "лёт", "стать", "правда"] {
            assert!(rank(ru, w) < common, "{w} ranks {}", rank(ru, w));
        }
        for w in ["стол", "дом", "мир", "кит", "пар", "ёлка", "объём"] {
            assert!(rank(ru, w) >= common, "{w} ranks {}", rank(ru, w));
        }
        // `небо` and `нёбо` are one word on the board, shown as the common one.
        assert_eq!(
            ru.spelling(ru.find("небо").unwrap(), &codes("небо")),
            "небо"
        );
        let en = Dictionary::builtin(Variant::En);
        // Roman numerals and initialisms WordNet writes only in capitals.
        for w in ["xxx", "xiv", "iii", "who", "led", "add"] {
            assert!(en.find(w).is_none(), "{w} should be out");
        }
        assert!(
            en.find("mix").is_some(),
            "a word that only looks like a numeral"
        );
    }

    fn codes(word: &str) -> Vec<Code> {
        Variant::Ru
            .spell(word)
            .unwrap()
            .iter()
            .map(|l| l.code)
            .collect()
    }
}
