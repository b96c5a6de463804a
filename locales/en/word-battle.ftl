### Word battle's texts in English (`P WB`): its options, the board's lines
### around the letters (which stay in code), and why a move is refused.
### Cells are named (`e5`), directions by their letters (`r` right, `u` up,
### `l` left, `d` down: Red writes r and u, Blue l and d), and words and
### letters quoted in capitals as they stand on the board, so a Russian
### letter makes that one reply UCS-2.

## The game and its options

wb-name = Word battle
wb-options-help = P WB [5|6|7] [BOT [1-3]] [EN]: longest word (6), robot (2), English words.
wb-move-help = Move: cell, direction, word: a1r and the word. Red r right, u up; Blue l left, d down. - pass.

## The board's lines below the letters

# Before the first word: how a move is written from the reader's base (`a1r`, `j10l`).
wb-opening-hint = Move: { $opening } word. HELP.
# The letters each side holds; `$me`: the reader's side (`red`, `blue`), or `none`.
wb-counts = Red{ $me ->
        [red] (you)
       *[other] {""}
    } { $red_letters } : Blue{ $me ->
        [blue] (you)
       *[other] {""}
    } { $blue_letters }
# The last move, when it was a pass (`$who`: `me`, else the side).
wb-passed = { $who ->
        [me] You passed.
        [red] Red passed.
       *[blue] Blue passed.
    }
wb-your-move = Your move.
wb-their-move = Opponent's move.
# The end: why (`$end`), the result (`$result`: `won`, `lost`, `draw`, or
# for a reader who does not play, the side that won), and the rematch's
# command where it still fits three SMS parts.
wb-result = { $end ->
        [passes] Two passes.
        [base] A base was taken.
        [me-left] You left.
        [they-left] The opponent left.
       *[playing] {""}
    } { $result ->
        [won] You won.
        [lost] You lost.
        [red] Red won.
        [blue] Blue won.
       *[draw] Draw.
    }{ $rematch ->
        [yes] {" "}PA - rematch.
       *[no] {""}
    }

## A move that cannot be read: the platform puts it after "Cannot read that move:"
## (`$quoted`: the player's text, quoted). A long text in Russian letters
## takes these to the parts they allow; the platform passes on a reason's
## first 100 characters.

wb-direction-no-word = { $quoted } has a direction and no word: a1r slovo
    .parts = 3
wb-word-is-direction = { $quoted } is a direction and no word: a1r slovo
    .parts = 3
wb-not-a-direction = { $quoted } is no direction (r, u, l or d)
    .parts = 2
wb-not-a-cell = { $quoted } is no cell: a column a-j and a row 1-10, like a1 or j10
    .parts = 3
wb-not-a-word = { $quoted } is no word: letters only, all Russian or all English
    .parts = 3
wb-not-a-move = not a word battle move: { $quoted } (expected like a1r бамбук, or - to pass)
    .parts = 3

## A move refused

wb-match-over = The match is over.
wb-not-your-turn = It is not your turn.
# `$dir`: the direction asked for; `$side`: the mover's side (`red`, `blue`).
wb-wrong-direction = { $dir } ({ $dir ->
        [r] right
        [u] up
        [l] left
       *[d] down
    }) is not your direction: { $side ->
        [red] Red writes r (right) or u (up)
       *[blue] Blue writes l (left) or d (down)
    }.
wb-russian-letters = Write the word in Russian letters.
wb-english-letters = Write the word in English letters.
wb-too-short = The word has { $letters } { $letters ->
        [one] letter
       *[other] letters
    }: at least 3 are needed.
wb-too-long = The word has { $letters } { $letters ->
        [one] letter
       *[other] letters
    }: at most { $max } in this match.
wb-start-empty = { $square } is empty: a word starts on one of your letters.
wb-start-enemy = { $square } holds an enemy letter: a word starts on one of your letters.
wb-not-in-dictionary = { $capitals } is not in the dictionary (common nouns, singular).
wb-already-played = { $capitals } has already been played in this match.
wb-off-board = A word of { $letters } { $letters ->
        [one] letter
       *[other] letters
    } from { $square } { $dir ->
        [r] right
        [u] up
        [l] left
       *[d] down
    } runs off the board.
wb-clash = { $square } holds { $on_board }, but your word has { $in_word } there.
# No direction given and the word fits both of the side's (`$first`, `$second`).
wb-both-fit = The word fits from { $square } both { $first ->
        [r] right
        [u] up
        [l] left
       *[d] down
    } and { $second ->
        [r] right
        [u] up
        [l] left
       *[d] down
    }: send { $square }{ $first } or { $square }{ $second }.
