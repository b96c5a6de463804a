#!/usr/bin/env python3
"""Builds the word battle dictionaries `ru.txt` and `en.txt` from open
dictionaries that packages ship (see README.md beside this file).

Each output line is `word rank`: the word in lower case (Russian keeps its
`ё`), and `rank`, the word's wordfreq Zipf frequency times ten (0-80), or 0
when the word is not confirmed by the second source (hunspell-ru for Russian)
and so is never played by the robot. A Russian word's frequency counts only
the share of its spelling that reads as this noun (see `russian_rank`). Only words of 3-7 letters are kept: the
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
WORDNET_DATA = "/usr/share/wordnet/data.noun"
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

    return round(10 * wordfreq.zipf_frequency(word, lang))


def zipf10_of(frequency):
    """Zipf x10 (0-80) of a word frequency (a share of all words)."""
    import math

    if frequency <= 0:
        return 0
    return max(0, round(10 * (math.log10(frequency) + 9)))


# Readings running text seldom has: they must not outweigh a common noun
# (`кит` is also an abbreviation, `род` an abbreviated verb form, `суть` an
# archaic verb form).
RARE_READINGS = RU_DROP | {"Arch", "Subx"}


# Parts of speech a word the robot plays may not also be: a pronoun
# (`NPRO`, and the pronominal adjectives, `Apro`: `весь`, `той` of `тот`),
# a preposition, conjunction, particle or adverb. A player may still play
# such a noun (`весь`, a village; `той`, a feast); the robot, whose words
# teach what the game takes, does not. Predicatives and interjections stay:
# OpenCorpora tags many common nouns so when they stand alone (`беда`,
# `лень`, `марш`), and they read as the nouns they are.
FUNCTION_POS = {"NPRO", "PREP", "CONJ", "PRCL", "ADVB"}


def is_function_reading(tag):
    return tag.POS in FUNCTION_POS or "Apro" in tag.grammemes


def function_word(morph, spelling):
    """Whether any reading of `spelling`, however rare, is a function word."""
    return any(is_function_reading(p.tag) for p in morph.parse(spelling))


def function_words(morph):
    """Every spelling of 3-7 Cyrillic letters that OpenCorpora reads, in some
    form, as a function word (FUNCTION_POS, Apro), `ё` read as `е`: the list
    the game's test holds the robot's words against."""
    words = set()
    for word, tag, _normal, _para, _idx in morph.dictionary.iter_known_words():
        if is_function_reading(tag) and MIN_LEN <= len(word) <= MAX_LEN and RU_LETTERS.match(word):
            words.add(fold(word))
    return sorted(words)


def readings(morph, spelling, lemmas):
    """How the text spelled `spelling` divides between the noun whose
    nominative singular forms have the normal forms `lemmas`, other nouns,
    and other parts of speech, by pymorphy3's estimate of each reading's
    probability; rare readings are left out. Returns (this noun, other
    parts of speech), as shares of 1."""
    parses = [
        p
        for p in morph.parse(spelling)
        if not (p.tag.grammemes & RARE_READINGS)
        or (p.tag.POS == "NOUN" and p.normal_form in lemmas)
    ]
    total = sum(p.score for p in parses)
    if not total:
        return 0.0, 0.0
    mine = sum(p.score for p in parses if p.tag.POS == "NOUN" and p.normal_form in lemmas)
    other = sum(p.score for p in parses if p.tag.POS != "NOUN")
    return mine / total, other / total


def russian_rank(morph, word):
    """The robot's rank of the Russian noun `word`: the frequency of its
    spellings, counting of each only the share that reads as this noun.

    A spelling's frequency counts words, not nouns. When it is mostly
    another part of speech (`тут` the adverb, `обо` the preposition, `стать`
    the verb), the count says nothing of how common the noun is: pymorphy3
    gives such a noun reading a floor, not a measure, so the word gets rank
    0 (never the robot's). A spelling shared with another noun's form
    (`пар`, the genitive of `пара`) counts in proportion. A word with `ё` is
    often printed with `е`, so the `е` spelling counts too, unless it is a
    word of its own (`перед` for `перёд`, `лет` for `лёт`, `небо` for
    `нёбо`)."""
    import wordfreq

    lemmas = {
        p.normal_form
        for p in morph.parse(word)
        if p.word == word and p.tag.POS == "NOUN" and {"nomn", "sing"} <= p.tag.grammemes
    }
    spellings = [word]
    if "ё" in word and not morph.word_is_known(fold(word), strict=True):
        spellings.append(fold(word))
    frequency, noun, other = 0.0, 0.0, 0.0
    for spelling in spellings:
        f = wordfreq.word_frequency(spelling, "ru")
        mine, elsewhere = readings(morph, spelling, lemmas)
        frequency += f
        noun += f * mine
        other += f * elsewhere
    if frequency == 0 or other / frequency > 0.5:
        return 0
    if any(function_word(morph, spelling) for spelling in spellings):
        return 0
    return zipf10_of(noun)


def russian_nouns(morph):
    """Nominative singular forms of OpenCorpora's common nouns."""
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


def build_russian(morph):
    block = read_blocklist("ru")
    stems = hunspell_stems(HUNSPELL_RU)
    ranked = {}
    for word in russian_nouns(morph):
        if blocked(word, block):
            continue
        rank = russian_rank(morph, word) if fold(word) in stems else 0
        key = fold(word)
        # Two nouns spelled alike but for ё (`небо`, `нёбо`) are one word on
        # the board; it is shown as the more common of the two (the one with
        # ё on a tie) and keeps that one's rank.
        old = ranked.get(key)
        if old is None or (rank, "ё" in word) > (old[1], "ё" in old[0]):
            ranked[key] = (word, rank)
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


def wordnet_capitals_only(path):
    """Noun lemmas WordNet writes only in capitals: Roman numerals (`XXX`,
    `XIV`) and initialisms (`WHO`, `LED`, `ADD`), whose lower-case spelling is
    another word's."""
    spellings = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue  # the licence header
            fields = line.split(" ")
            for i in range(int(fields[3], 16)):
                member = fields[4 + 2 * i]
                spellings.setdefault(member.lower(), set()).add(member.isupper())
    return {word for word, upper in spellings.items() if upper == {True}}


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
    capitals = wordnet_capitals_only(WORDNET_DATA)
    words = []
    for word in sorted(lemmas):
        if not (MIN_LEN <= len(word) <= MAX_LEN and EN_LETTERS.match(word)):
            continue
        if word not in american or word in capitals:
            continue
        if english_plural(word, lemmas) or blocked(word, block):
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
    lines += [f"{w} {r}" if r is not None else w for w, r in words]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    v = versions()
    import pymorphy3

    morph = pymorphy3.MorphAnalyzer()
    outputs = {
        "ru.txt": render(
            build_russian(morph),
            [
                "Word battle, Russian: common nouns, nominative singular, 3-7 letters.",
                f"OpenCorpora via pymorphy3-dicts-ru {v['pymorphy3-dicts-ru']} (CC BY-SA 3.0);",
                "rank: wordfreq Zipf x10 of the noun's share of its spellings (pymorphy3),",
                "0 if mostly another part of speech, if any reading is a function word",
                "(pronoun, preposition, adverb, ...), or not a hunspell-ru stem.",
                f"wordfreq {v['wordfreq']} (data CC BY-SA 4.0). Rebuild: build.py.",
            ],
        ),
        "function-words-ru.txt": render(
            [(w, None) for w in function_words(morph)],
            [
                "Word battle, Russian: every spelling of 3-7 letters OpenCorpora reads, in some",
                "form, as a pronoun, preposition, conjunction, particle or adverb",
                f"(pymorphy3-dicts-ru {v['pymorphy3-dicts-ru']}, CC BY-SA 3.0); `ё` as `е`.",
                "Not compiled in: the game's tests hold the robot's words against it. Rebuild: build.py.",
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
