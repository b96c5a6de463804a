### Auto race's texts in Russian, in Cyrillic (`P AR`): its options, the
### texts a seat reads while the race runs and at its end, and why a move is
### refused. Cyrillic is sent as UCS-2, 70 characters an SMS (67 a part of a
### longer one); a message takes one SMS unless its `.parts` says more. A
### board is built of several of these, a line each, around the track's
### window (which stays in code); the whole is held to 2 SMS parts by the
### game's tests, so its lines stay in Latin letters (GSM-7) as in
### ru-Latn/auto-race.ftl. Cars are letters (`A`, `b`), lists of them
### notation; move codes stay in Latin letters everywhere.

## The game and its options

ar-name = Автогонки
# `$tracks`: the tracks the game has, as options (` [RING|ZIGZAG]`), or nothing.
ar-options-help = P AR [2-8 игроков] [BOT [1-3]] [TEAM] [L1-9 кругов]{ $tracks }
    .parts = 2
ar-move-help = Ход: F вперед, I внутрь, O наружу (O стоит 3), напр. FFIF; n - n вперед; 0 - некуда.
    .parts = 2
ar-no-track = Нет трассы { $track }. Трассы: { $track_list }.
    .parts = 2

# An option word that cannot be, as the player wrote it, and why (a long
# word takes two parts).
ar-robot-level = { $word }: уровень робота 1-3.
    .parts = 2
ar-players-given = { $word }: число игроков уже задано.
    .parts = 2
ar-players-range = { $word }: игроков может быть 2-8.
    .parts = 2
ar-bot-twice = { $word }: BOT указан дважды.
    .parts = 2
ar-team-twice = { $word }: команды уже заданы.
    .parts = 2
ar-humans-range = { $word }: людей может быть 2-8.
    .parts = 2
ar-laps-twice = { $word }: круги уже заданы.
    .parts = 2
ar-laps-range = { $word }: кругов может быть 1-9.
    .parts = 2
ar-track-twice = { $word }: трасса уже задана.
    .parts = 2
ar-humans-need-bot = H<n>: только с BOT, и людей меньше, чем игроков.
ar-team-needs-pairs = TEAM: команды по двое, нужно 4, 6 или 8 игроков.

## A move that cannot be read: the platform puts it after "Непонятный ход:"

ar-empty-move = пустой ход: нужен путь вроде FFIF или число
# `$digits`: the number as sent (up to 100 characters).
ar-number-too-big = ход числом - от 1 до 99, а не { $digits }
    .parts = 2
# After "не более" the genitive: 1, 21 шага; 2-4 and 5-20 alike шагов.
ar-path-too-long = в пути не более { $max } { $max ->
        [one] шага
       *[other] шагов
    }
# `$character`: the character as the player sent it; `$position`: where, from 1.
ar-not-a-step = '{ $character }' (символ { $position }) - не шаг: нужны F, I, O или число

## A move refused: which step (`$step`, its letter `$step_letter`), which cell, why

ar-over = Гонка уже окончена.
ar-not-in-race = Вы не участвуете в этой гонке.
ar-not-your-turn = Сейчас не ваш ход: едет машина { $car }.
ar-backwards = Шаг { $step }: назад ездить нельзя.
# `$way`: `in` for a step I, `out` for a step O.
ar-off-track = Шаг { $step } ({ $step_letter }): машина уже на полосе { $lane }, дальше { $way ->
        [in] внутрь
       *[out] наружу
    } полос нет.
ar-lane-ends = Шаг { $step } (F): полоса { $lane } тут кончается. Сначала смените полосу.
ar-too-long = Шаг { $step } ({ $step_letter }): длина хода стала бы { $move_length }, а можно 1-{ $allow }, бонус { $bonus }.
ar-cell-twice = Шаг { $step } ({ $step_letter }): машина уже была в этой клетке в этом ходе.
# `$ahead`: sectors in front of where the car started.
ar-cell-taken = Шаг { $step } ({ $step_letter }): клетка на полосе { $lane }, { $ahead } впереди, занята машиной { $car }.
ar-line-taken = Шаг { $step } ({ $step_letter }): финиш на полосе { $lane } занят машиной { $car }.
# `$example`: a move the car can make, in move notation (up to 64 steps).
ar-can-move = Ход 0 - только если ехать некуда. Можно, например, { $example }.
    .parts = 2

## The seat whose car moves: a head line, the window, then the order
## Kept in Latin letters: sent with the board (GSM-7, so that a board costs
## the same parts in every language).

ar-your-move = Vash xod: { $car }. Krug { $lap }/{ $laps }, xod 1-{ $allow }{ $bonus ->
        [0] {""}
       *[other] , bonus { $bonus }
    }.
# In a team race, after the first line: the seats of the player's team (`A+C`).
ar-team = Komanda: { $team }.
# The round's order, the car to move marked `*`.
ar-order = Poryadok: { $cars }.
ar-last = Bil: { $car } { $path }.

## The other seats: whose turn, the race so far
## Kept in Latin letters: sent with the board.

ar-waiting = Xod protivnika: edet { $car }. Vashi: { $yours }.
ar-leader = Lider na kruge { $lap }/{ $laps }, raund { $round }.
ar-places = Mesta: { $cars }.
ar-finish = Finish: { $cars }.
# `$out`: the groups below, joined by "; ".
ar-out = Soshli: { $out }.
# Cars that left the race for one reason (the guide says what each means).
ar-out-group = { $cars } ({ $why ->
        [zero] nol
        [braking] tormozhenie
        [lapped] otstal na krug
        [back-marker] zamykayushchii
       *[withdrew] vyshel
    })

## The end: result and place, places, points, the series, what next
## Kept in Latin letters: sent as the race's last board (in the board's
## place, within its parts).

# `$outcome`: `won` (first), `lost` (second of two), else `placed`; a race
# of more than two sides (`$sides`) is told as places. "och." (ochkov,
# ochka) stands after any number.
ar-race-over = { $outcome ->
        [won] Vi pobedili.{" "}
        [lost] Vi proigrali.{" "}
       *[placed] {""}
    }Gonka okonchena: { $place } mesto{ $sides ->
        [1] {""}
        [2] {""}
       *[other] {" "}iz { $sides }
    }, { $points } och.
ar-final-places = Itog: { $cars }.
# `$table`, `$totals`: points per player or team (`A 12, B 10`, `A+C 9, B+D 6`).
ar-points = Ochki: { $table }.
ar-series-first = Seriya: gonka 1 iz { $races }.
ar-series-race = Seriya, gonka { $race } iz { $races }: { $totals }.
ar-series-over = Seriya okonchena: { $totals }.
ar-what-next = PA - revansh. S nick tekst - soobshchenie.
