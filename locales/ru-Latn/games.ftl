### Texts every game shares (its options after P), and the test game's.

option-given-twice = Parametr { $word } ukazan dvazhdy.
option-unknown = Neponyatnyi parametr: { $word }.

## The platform's test game, count to 21 (`P TR`): built for tests only,
## never offered to players

trial-name = Schet do 21
trial-levels = Uroven 1-3.
trial-hot-or-bot = HOT ili BOT, ne vmeste.
trial-over = Igra okonchena.
trial-not-your-turn = Seichas ne vash xod.
# The count so far, then whose move or how it ended (`$status`).
trial-count = Schet { $count }/{ $target }. { $status ->
        [won] Vi pobedili.
        [lost] Vi proigrali.
        [turn] Vash xod.
       *[waiting] Xod protivnika.
    }
trial-move-help = Otpravte 1, 2 ili 3.
# A move that cannot be read (`$sent`: the player's text, quoted: a long one
# in Russian letters takes two parts; the platform passes on a reason's
# first 100 characters).
trial-not-a-move = nuzhno 1, 2 ili 3, a ne { $sent }
    .parts = 2
