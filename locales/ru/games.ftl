### Texts every game shares (its options after P), and the test game's.

option-given-twice = Параметр { $word } указан дважды.
    .parts = 2
option-unknown = Непонятный параметр: { $word }.
    .parts = 2

## The platform's test game, count to 21 (`P TR`): built for tests only,
## never offered to players

trial-name = Счет до 21
trial-levels = Уровень 1-3.
trial-hot-or-bot = HOT или BOT, не вместе.
trial-over = Игра окончена.
trial-not-your-turn = Сейчас не ваш ход.
trial-move-help = Отправьте 1, 2 или 3.
# A move that cannot be read (`$sent`: the player's text, quoted: a long one
# in Russian letters takes two parts; the platform passes on a reason's
# first 100 characters).
trial-not-a-move = нужно 1, 2 или 3, а не { $sent }
    .parts = 2

## The test game's board: the count so far, then whose move or how it
## ended (`$status`).
## Kept in Latin letters: sent as the board (GSM-7, so that it costs the
## same parts in every language).

trial-count = Schet { $count }/{ $target }. { $status ->
        [won] Vi pobedili.
        [lost] Vi proigrali.
        [turn] Vash xod.
       *[waiting] Xod protivnika.
    }
