### Auto race's texts in English (`P AR`): its options, the texts a seat
### reads while the race runs and at its end, and why a move is refused.
### A board is built of several of these, a line each, around the track's
### window (which stays in code); the whole is held to 2 SMS parts by the
### game's tests. Cars are letters (`A`, `b`), lists of them notation.

## The game and its options

ar-name = Auto race
# `$tracks`: the tracks the game has, as options (` [RING|ZIGZAG]`), or nothing.
ar-options-help = P AR [2-8 players] [BOT [1-3]] [TEAM] [L1-9 laps]{ $tracks }
ar-move-help = Move: a path of F forward, I in, O out (O costs 3), e.g. FFIF; a number n: n forward; 0: stuck.
ar-no-track = No track { $track }. Tracks: { $track_list }.

# An option word that cannot be, as the player wrote it, and why.
ar-robot-level = { $word }: a robot's level is 1 to 3.
ar-players-given = { $word }: players already given.
ar-players-range = { $word }: a race takes 2 to 8 players.
ar-bot-twice = { $word }: BOT given twice.
ar-team-twice = { $word }: TEAM given twice.
ar-humans-range = { $word }: 2 to 8 people.
ar-laps-twice = { $word }: laps given twice.
ar-laps-range = { $word }: a race has 1 to 9 laps.
ar-track-twice = { $word }: a track is already given.
ar-humans-need-bot = H<n>: with BOT, and fewer people than players.
ar-team-needs-pairs = TEAM: teams of two need 4, 6 or 8 players.

## A move that cannot be read: the platform puts it after "Cannot read that move:"

ar-empty-move = empty move: send a path like FFIF, or a number
ar-number-too-big = { $digits } steps: a number move is 1 to 99
ar-path-too-long = a path has at most { $max } { $max ->
        [one] step
       *[other] steps
    }
# `$character`: the character as the player sent it; `$position`: where, from 1.
ar-not-a-step = '{ $character }' (character { $position }) is not a step: use F, I, O, or a number

## A move refused: which step (`$step`, its letter `$step_letter`), which cell, why

ar-over = The race is over.
ar-not-in-race = You are not in this race.
ar-not-your-turn = It is not your turn: car { $car } moves now.
ar-backwards = Step { $step }: cars may not drive backwards.
# `$way`: `in` for a step I, `out` for a step O.
ar-off-track = Step { $step } ({ $step_letter }): the car is on lane { $lane } already, no lane is further { $way ->
        [in] in
       *[out] out
    }.
ar-lane-ends = Step { $step } (F): lane { $lane } ends here, the track narrows. Change lanes first.
ar-too-long = Step { $step } ({ $step_letter }): the move would be { $move_length } long; allowed 1 to { $allow }, bonus { $bonus }.
ar-cell-twice = Step { $step } ({ $step_letter }): the path was on that cell already; no cell twice in a move.
# `$ahead`: sectors in front of where the car started.
ar-cell-taken = Step { $step } ({ $step_letter }): the cell on lane { $lane }, { $ahead } ahead, is taken by car { $car }.
ar-line-taken = Step { $step } ({ $step_letter }): the finish line on lane { $lane } is taken by car { $car }.
# `$example`: a move the car can make, in move notation.
ar-can-move = 0 is only for a car that cannot move. You can, e.g. { $example }.

## The seat whose car moves: a head line, the window, then the order

ar-your-move = Your move: { $car }. Lap { $lap }/{ $laps }, length 1-{ $allow }{ $bonus ->
        [0] {""}
       *[other] , bonus { $bonus }
    }.
# In a team race, after the first line: the seats of the player's team (`A+C`).
ar-team = Team: { $team }.
# The round's order, the car to move marked `*`.
ar-order = Order: { $cars }.
ar-last = Last: { $car } { $path }.

## The other seats: whose turn, the race so far

ar-waiting = Opponents' move: car { $car }. Yours: { $yours }.
ar-leader = Leader on lap { $lap }/{ $laps }, round { $round }.
ar-places = Places: { $cars }.
ar-finish = Finish: { $cars }.
# `$out`: the groups below, joined by "; ".
ar-out = Out: { $out }.
# Cars that left the race for one reason (the guide says what each means).
ar-out-group = { $cars } ({ $why ->
        [zero] zero move
        [braking] braking
        [lapped] lapped
        [back-marker] back-marker
       *[withdrew] withdrew
    })

## The end: result and place, places, points, the series, what next

# `$outcome`: `won` (first), `lost` (second of two), else `placed`; a race
# of more than two sides (`$sides`) is told as places.
ar-race-over = { $outcome ->
        [won] You won.{" "}
        [lost] You lost.{" "}
       *[placed] {""}
    }Race over: place { $place }{ $sides ->
        [1] {""}
        [2] {""}
       *[other] {" "}of { $sides }
    }, { $points } { $points ->
        [one] point
       *[other] points
    }.
ar-final-places = Places: { $cars }.
# `$table`, `$totals`: points per player or team (`A 12, B 10`, `A+C 9, B+D 6`).
ar-points = Points: { $table }.
ar-series-first = Series: race 1 of { $races }.
ar-series-race = Series, race { $race } of { $races }: { $totals }.
ar-series-over = Series over: { $totals }.
ar-what-next = PA - rematch. S nick text - message.
