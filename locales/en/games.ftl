### Texts every game shares (its options after P), and the test game's.

option-given-twice = { $word } is given twice.
option-unknown = Unknown option: { $word }.

## The platform's test game, count to 21 (`P TR`): built for tests only,
## never offered to players

trial-name = Count to 21
trial-levels = Levels are 1-3.
trial-hot-or-bot = HOT or BOT, not both.
trial-over = The match is over.
trial-not-your-turn = It is not your turn.
# The count so far, then whose move or how it ended (`$status`).
trial-count = Count { $count }/{ $target }. { $status ->
        [won] You won.
        [lost] You lost.
        [turn] Your move.
       *[waiting] Their move.
    }
trial-move-help = Send 1, 2 or 3.
# A move that cannot be read (`$sent`: the player's text, quoted: a long one
# in Russian letters takes two parts; the platform passes on a reason's
# first 100 characters).
trial-not-a-move = not 1, 2 or 3: { $sent }
    .parts = 2
