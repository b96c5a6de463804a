### Auto race's texts in Russian, in Latin letters (`P AR`): its options,
### the texts a seat reads while the race runs and at its end, and why a
### move is refused. A board is built of several of these, a line each,
### around the track's window (which stays in code); the whole is held to
### 2 SMS parts by the game's tests. Cars are letters (`A`, `b`), lists of
### them notation.

## The game and its options

ar-name = Avtogonki
# `$tracks`: the tracks the game has, as options (` [RING|ZIGZAG]`), or nothing.
ar-options-help = P AR [2-8 igrokov] [BOT [1-3]] [TEAM] [L1-9 krugov]{ $tracks }
ar-move-help = Xod: put iz F vpered, I vnutr, O naruzhu (O stoit 3), napr. FFIF; chislo n - n vpered; 0 - nekuda.
ar-no-track = Net trassy { $track }. Trassy: { $track_list }.

# An option word that cannot be, as the player wrote it, and why.
ar-robot-level = { $word }: uroven robota 1-3.
ar-players-given = { $word }: chislo igrokov uzhe zadano.
ar-players-range = { $word }: igrokov mozhet byt 2-8.
ar-bot-twice = { $word }: BOT uzhe bylo.
ar-team-twice = { $word }: komandy uzhe zadany.
ar-humans-range = { $word }: igrokov-lyudei 2-8.
ar-laps-twice = { $word }: krugi uzhe zadany.
ar-laps-range = { $word }: krugov mozhet byt 1-9.
ar-track-twice = { $word }: trassa uzhe zadana.
ar-humans-need-bot = H<n>: s BOT, i lyudei menshe, chem igrokov.
ar-team-needs-pairs = TEAM: komandy po dva igroka, nuzhno 4, 6 ili 8 igrokov.

## A move that cannot be read: the platform puts it after "Neponyatnyi xod:"

ar-empty-move = pustoi xod: nuzhen put vrode FFIF ili chislo
ar-number-too-big = xod chislom - ot 1 do 99, a ne { $digits }
ar-path-too-long = v puti ne bolee { $max } { $max ->
        [one] shaga
       *[other] shagov
    }
# `$character`: the character as the player sent it; `$position`: where, from 1.
ar-not-a-step = '{ $character }' (simvol { $position }) - ne shag: nuzhny F, I, O ili chislo

## A move refused: which step (`$step`, its letter `$step_letter`), which cell, why

ar-over = Gonka uzhe okonchena.
ar-not-in-race = Vy ne uchastvuete v etoi gonke.
ar-not-your-turn = Seichas ne vash xod: edet mashina { $car }.
ar-backwards = Shag { $step }: nazad ezdit nelzya.
# `$way`: `in` for a step I, `out` for a step O.
ar-off-track = Shag { $step } ({ $step_letter }): mashina uzhe na polose { $lane }, dalshe { $way ->
        [in] vnutr
       *[out] naruzhu
    } polos net.
ar-lane-ends = Shag { $step } (F): polosa { $lane } tut konchaetsya, trassa uzhe. Snachala smenite polosu.
ar-too-long = Shag { $step } ({ $step_letter }): dlina xoda stala by { $move_length }, a mozhno ot 1 do { $allow }, bonus { $bonus }.
ar-cell-twice = Shag { $step } ({ $step_letter }): v etoi kletke mashina v etom xode uzhe byla.
# `$ahead`: sectors in front of where the car started.
ar-cell-taken = Shag { $step } ({ $step_letter }): Kletka na kotoruyu vy hoteli vstat zanyata: polosa { $lane }, { $ahead } vperedi, mashina { $car }.
ar-line-taken = Shag { $step } ({ $step_letter }): finishnaya liniya na polose { $lane } zanyata mashinoi { $car }.
# `$example`: a move the car can make, in move notation.
ar-can-move = Xod 0 - tolko esli ekhat nekuda. Mozhno, naprimer, { $example }.

## The seat whose car moves: a head line, the window, then the order

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

# `$outcome`: `won` (first), `lost` (second of two), else `placed`; a race
# of more than two sides (`$sides`) is told as places.
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
