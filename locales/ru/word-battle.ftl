### Word battle's texts in Russian, in Cyrillic (`P WB`): its options, the
### board's lines around the letters (which stay in code), and why a move is
### refused. Cyrillic is sent as UCS-2, 70 characters an SMS (67 a part of a
### longer one); a message takes one SMS unless its `.parts` says more. The
### board's letters are the game's own (Cyrillic in a Russian match); the
### lines sent with the board stay in Latin letters as in
### ru-Latn/word-battle.ftl. Cells are named (`e5`), directions by their
### letters (`r` вправо, `u` вверх, `l` влево, `d` вниз: Red writes r and
### u, Blue l and d), and words and letters quoted in capitals as they stand
### on the board.

## The game and its options

wb-name = Словесный бой
wb-options-help = P WB [5|6|7] [BOT [1-3]] [EN]: длина слова (6), робот (2), англ. слова
wb-move-help = Ход: a1r кот. Красные r вправо, u вверх; синие l влево, d вниз. - пас.

## The board's lines below the letters
## Kept in Latin letters: sent with the board (so that a board costs the
## same parts in every language).

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

## A move that cannot be read: the platform puts it after "Непонятный ход:"
## (`$quoted`: the player's text, quoted). A long text in Russian letters
## takes these to the parts they allow; the platform passes on a reason's
## first 100 characters.

wb-direction-no-word = { $quoted } - направление без слова: a1r слово
    .parts = 3
wb-word-is-direction = { $quoted } - направление, а не слово: a1r слово
    .parts = 3
wb-not-a-direction = { $quoted } - не направление (r, u, l или d)
    .parts = 2
wb-not-a-cell = { $quoted } - не клетка: нужна от a1 до j10
    .parts = 2
wb-not-a-word = { $quoted } - не слово: только буквы, все русские или все английские
    .parts = 3
wb-not-a-move = { $quoted } - не ход: a1r слово или - (пас)
    .parts = 2

## A move refused

wb-match-over = Игра окончена.
wb-not-your-turn = Сейчас ход противника.
# `$dir`: the direction asked for; `$side`: the mover's side (`red`, `blue`).
wb-wrong-direction = Направление { $dir } ({ $dir ->
        [r] вправо
        [u] вверх
        [l] влево
       *[d] вниз
    }) не ваше: { $side ->
        [red] у красных r (вправо) и u (вверх)
       *[blue] у синих l (влево) и d (вниз)
    }.
wb-russian-letters = Пишите слово русскими буквами.
wb-english-letters = Пишите слово латинскими буквами (английское).
# `$letters`: a number. After "из" the genitive: 1, 21 буквы; 2-4 and
# 5-20 alike букв.
wb-too-short = Слово из { $letters } { $letters ->
        [one] буквы
       *[other] букв
    }: нужно не менее 3.
wb-too-long = Слово из { $letters } { $letters ->
        [one] буквы
       *[other] букв
    }: в этой игре не более { $max }.
wb-start-empty = Клетка { $square } пуста: слово начинают с вашей буквы.
wb-start-enemy = В клетке { $square } буква противника: слово начинают с вашей буквы.
wb-not-in-dictionary = Слова { $capitals } нет в словаре (существительные в ед. ч., им. п.).
wb-already-played = Слово { $capitals } уже было в этой игре.
wb-off-board = Слово из { $letters } { $letters ->
        [one] буквы
       *[other] букв
    } от { $square } { $dir ->
        [r] вправо
        [u] вверх
        [l] влево
       *[d] вниз
    } выходит за край поля.
wb-clash = В клетке { $square } стоит { $on_board }, а в слове там { $in_word }.
# No direction given and the word fits both of the side's (`$first`, `$second`).
wb-both-fit = Слово встает от { $square } и { $first ->
        [r] вправо
        [u] вверх
        [l] влево
       *[d] вниз
    }, и { $second ->
        [r] вправо
        [u] вверх
        [l] влево
       *[d] вниз
    }: напишите { $square }{ $first } или { $square }{ $second }.
