#!/usr/bin/env python3
"""Builds the word battle dictionaries `ru.txt` and `en.txt` from open
dictionaries that packages ship (see README.md beside this file).

Each output line is `word rank`: the word in lower case (Russian keeps its
`ё`), and `rank`, the word's wordfreq Zipf frequency times ten (0-80), or 0
when the word is not confirmed by the second source (hunspell-ru for Russian)
and so is never played by the robot. Only words of 3-7 letters are kept: the
game plays no others. Lines are sorted by the word with `ё` read as `е`;
`#` lines are comments.

Usage: python3 build.py [--out DIR] [--check]
  --check  rebuild into memory and fail if the committed files differ.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_LEN, MAX_LEN = 3, 7

# OpenCorpora grammemes that make a noun unfit for the crossword rule:
# proper names, abbreviations and initials, plural-only nouns, typos and
# distorted spellings, slang, hypothetical forms.
RU_DROP = {
    "Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init",
    "Pltm", "Erro", "Dist", "Slng", "Hypo",
}
RU_LETTERS = re.compile("^[а-яё]+$")
EN_LETTERS = re.compile("^[a-z]+$")

HUNSPELL_RU = "/usr/share/hunspell/ru_RU.dic"
WORDNET_NOUNS = "/usr/share/wordnet/index.noun"
WAMERICAN = "/usr/share/dict/american-english"


def fold(word):
    return word.replace("ё", "е")


def read_blocklist(lang):
    """Exact words and `~root` substrings, from blocklist-<lang>.txt."""
    exact, roots = set(), []
    with open(os.path.join(HERE, f"blocklist-{lang}.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("~"):
                roots.append(fold(line[1:]))
            else:
                exact.add(fold(line))
    return exact, roots


def blocked(word, blocklist):
    exact, roots = blocklist
    w = fold(word)
    return w in exact or any(r in w for r in roots)


def zipf10(word, lang):
    import wordfreq

    forms = {word, fold(word)}
    return round(10 * max(wordfreq.zipf_frequency(f, lang) for f in forms))


def russian_nouns():
    """Nominative singular forms of OpenCorpora's common nouns."""
    import pymorphy3

    morph = pymorphy3.MorphAnalyzer()
    words = set()
    for word, tag, _normal, _para, _idx in morph.dictionary.iter_known_words():
        if tag.POS != "NOUN" or "nomn" not in tag or "sing" not in tag:
            continue
        if tag.grammemes & RU_DROP:
            continue
        if MIN_LEN <= len(word) <= MAX_LEN and RU_LETTERS.match(word):
            words.add(word)
    return words


def hunspell_stems(path):
    stems = set()
    with open(path, encoding="utf-8") as f:
        next(f)  # the entry count
        for line in f:
            stems.add(fold(line.strip().split("/", 1)[0].lower()))
    return stems


def build_russian():
    block = read_blocklist("ru")
    stems = hunspell_stems(HUNSPELL_RU)
    ranked = {}
    for word in russian_nouns():
        if blocked(word, block):
            continue
        rank = zipf10(word, "ru") if fold(word) in stems else 0
        key = fold(word)
        # Two spellings of one folded word: keep the one with ё (the correct
        # spelling), and the higher rank.
        old = ranked.get(key)
        if old is None or ("ё" in word and "ё" not in old[0]):
            ranked[key] = (word, max(rank, old[1] if old else 0))
        else:
            ranked[key] = (old[0], max(rank, old[1]))
    return [ranked[k] for k in sorted(ranked)]


def english_plural(word, lemmas):
    """A WordNet lemma that is only the plural of another (`acts`, `allies`)."""
    if not word.endswith("s"):
        return False
    return (
        word[:-1] in lemmas
        or (word.endswith("es") and word[:-2] in lemmas)
        or (word.endswith("ies") and word[:-3] + "y" in lemmas)
    )


def build_english():
    block = read_blocklist("en")
    with open(WAMERICAN, encoding="utf-8") as f:
        # Lower-case entries only: the list capitalises proper nouns.
        american = {line.strip() for line in f}
    lemmas = set()
    with open(WORDNET_NOUNS, encoding="utf-8") as f:
        for line in f:
            if not line.startswith(" "):
                lemmas.add(line.split(" ", 1)[0])
    words = []
    for word in sorted(lemmas):
        if not (MIN_LEN <= len(word) <= MAX_LEN and EN_LETTERS.match(word)):
            continue
        if word not in american or english_plural(word, lemmas) or blocked(word, block):
            continue
        words.append((word, zipf10(word, "en")))
    return words


def versions():
    from importlib.metadata import version

    out = {}
    for pkg in ("pymorphy3", "pymorphy3-dicts-ru", "wordfreq"):
        out[pkg] = version(pkg)
    return out


def render(words, header):
    lines = [f"# {h}" for h in header]
    lines += [f"{w} {r}" for w, r in words]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    v = versions()
    outputs = {
        "ru.txt": render(
            build_russian(),
            [
                "Word battle, Russian: common nouns, nominative singular, 3-7 letters.",
                f"OpenCorpora via pymorphy3-dicts-ru {v['pymorphy3-dicts-ru']} (CC BY-SA 3.0);",
                "rank: wordfreq Zipf x10 if also a hunspell-ru stem, else 0.",
                f"wordfreq {v['wordfreq']} (data CC BY-SA 4.0). Rebuild: build.py.",
            ],
        ),
        "en.txt": render(
            build_english(),
            [
                "Word battle, English: WordNet 3.0 nouns found in wamerican, 3-7 letters.",
                f"rank: wordfreq {v['wordfreq']} Zipf x10 (data CC BY-SA 4.0). Rebuild: build.py.",
            ],
        ),
    }
    failed = False
    for name, text in outputs.items():
        path = os.path.join(args.out, name)
        if args.check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{name} differs from a fresh build", file=sys.stderr)
                    failed = True
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        count = text.count("\n") - sum(1 for line in text.splitlines() if line.startswith("#"))
        print(f"{name}: {count} words")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
