### Word battle's texts in Russian, in Latin letters (`P WB`): its options,
### the board's lines around the letters (which stay in code), and why a
### move is refused. Cells are named (`e5`), directions by their letters
### (`r` vpravo, `u` vverx, `l` vlevo, `d` vniz: Red writes r and u, Blue
### l and d), and words and letters quoted in capitals as they stand on the
### board, so a Russian letter makes that one reply UCS-2.

## The game and its options

wb-name = Slovesnyi boi
wb-options-help = P WB [5|6|7] [BOT [1-3]] [EN]: dlina slova (6), robot (2), angliiskie slova.
wb-move-help = Xod: kletka, napravlenie, slovo: a1r i slovo. Krasnye r vpravo, u vverx; sinie l vlevo, d vniz. - pas.

## The board's lines below the letters

# Before the first word: how a move is written from the reader's base (`a1r`, `j10l`).
wb-opening-hint = Xod: { $opening } slovo. HELP.
# The letters each side holds; `$me`: the reader's side (`red`, `blue`), or `none`.
wb-counts = Krasnye{ $me ->
        [red] (vy)
       *[other] {""}
    } { $red_letters } : Sinie{ $me ->
        [blue] (vy)
       *[other] {""}
    } { $blue_letters }
# The last move, when it was a pass (`$who`: `me`, else the side).
wb-passed = { $who ->
        [me] Vy spasovali.
        [red] Pas krasnyx.
       *[blue] Pas sinix.
    }
wb-your-move = Vash xod.
wb-their-move = Xod protivnika.
# The end: why (`$end`), the result (`$result`: `won`, `lost`, `draw`, or
# for a reader who does not play, the side that won), and the rematch's
# command where it still fits three SMS parts.
wb-result = { $end ->
        [passes] Dva pasa.
        [base] Baza vzyata.
        [me-left] Vy vyshli.
        [they-left] Sopernik vyshel.
       *[playing] {""}
    } { $result ->
        [won] Vi pobedili.
        [lost] Vi proigrali.
        [red] Pobedili krasnye.
        [blue] Pobedili sinie.
       *[draw] Nichya.
    }{ $rematch ->
        [yes] {" "}PA - revansh.
       *[no] {""}
    }

## A move that cannot be read: the platform puts it after "Neponyatnyi xod:"
## (`$quoted`: the player's text, quoted). A long text in Russian letters
## takes these to the parts they allow; the platform passes on a reason's
## first 100 characters.

wb-direction-no-word = v { $quoted } napravlenie bez slova: a1r slovo
    .parts = 3
wb-word-is-direction = v { $quoted } napravlenie bez slova: a1r slovo
    .parts = 3
wb-not-a-direction = { $quoted } - ne napravlenie (r, u, l ili d)
    .parts = 2
wb-not-a-cell = { $quoted } - ne kletka: stolbec a-j i ryad 1-10, kak a1 ili j10
    .parts = 3
wb-not-a-word = { $quoted } - ne slovo: tolko bukvy, vse russkie ili vse angliiskie
    .parts = 3
wb-not-a-move = { $quoted } - ne xod: nuzhno kak a1r slovo, ili - (pas)
    .parts = 3

## A move refused

wb-match-over = Igra okonchena.
wb-not-your-turn = Seichas xod protivnika.
# `$dir`: the direction asked for; `$side`: the mover's side (`red`, `blue`).
wb-wrong-direction = Napravlenie { $dir } ({ $dir ->
        [r] vpravo
        [u] vverx
        [l] vlevo
       *[d] vniz
    }) ne vashe: { $side ->
        [red] krasnye pishut r (vpravo) ili u (vverx)
       *[blue] sinie pishut l (vlevo) ili d (vniz)
    }.
wb-russian-letters = Slovo nuzhno pisat russkimi bukvami.
wb-english-letters = Slovo nuzhno pisat latinskimi bukvami (angliiskoe).
# `$letters`: a number. After "iz" the genitive: 1, 21 bukvy; 2-4 and
# 5-20 alike bukv.
wb-too-short = Slovo iz { $letters } { $letters ->
        [one] bukvy
       *[other] bukv
    }: nuzhno ne menee 3.
wb-too-long = Slovo iz { $letters } { $letters ->
        [one] bukvy
       *[other] bukv
    }: v etoi igre ne bolee { $max }.
wb-start-empty = Kletka { $square } pusta: slovo nachinayut s vashei bukvy.
wb-start-enemy = V kletke { $square } bukva protivnika: slovo nachinayut s vashei bukvy.
wb-not-in-dictionary = Slova { $capitals } net v slovare (sushchestvitelnye v ed. ch., im. p.).
wb-already-played = Slovo { $capitals } uzhe bylo v etoi igre.
wb-off-board = Slovo iz { $letters } { $letters ->
        [one] bukvy
       *[other] bukv
    } ot { $square } { $dir ->
        [r] vpravo
        [u] vverx
        [l] vlevo
       *[d] vniz
    } vyxodit za krai polya.
wb-clash = V kletke { $square } stoit { $on_board }, a v slove tam { $in_word }.
# No direction given and the word fits both of the side's (`$first`, `$second`).
wb-both-fit = Slovo vstaet ot { $square } i { $first ->
        [r] vpravo
        [u] vverx
        [l] vlevo
       *[d] vniz
    }, i { $second ->
        [r] vpravo
        [u] vverx
        [l] vlevo
       *[d] vniz
    }: napishite { $square }{ $first } ili { $square }{ $second }.
