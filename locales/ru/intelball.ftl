### Intelball (IB): the texts its players read, in Russian, in Cyrillic. The
### board itself (the field, the codes, the cells written (row,column)) is
### drawn by the game; these are the words around it. Cyrillic is sent as
### UCS-2, 70 characters an SMS (67 a part of a longer one); a message takes
### one SMS unless its `.parts` says more. A seat's whole reply is the board
### and the lines under it, which stay in Latin letters (GSM-7) as in
### ru-Latn/intelball.ftl; move codes stay in Latin letters everywhere.

## The game's name, the options after P IB and the move codes.

ib-name = Интелбол
ib-options-help = P IB - с соперником, P IB BOT [1-3] - с роботом, P IB HOT - на одном телефоне, + позиция _S(..)
    .parts = 2
# Held to two parts with the short match commands after it (help-in-match-short).
ib-move-help = L(4,7)>F(5,8) шаг L>B к мячу B>L взять B~R>L отбор B&L>F вести B~L>L/F пас/удар, - конец, U назад.
    .parts = 2

## Refused options. $word: the robot's level as typed (digits).
## A state string's faults are found in English (the state reader's words,
## written for operators): the Russian text only says the string is wrong,
## rather than mix the languages (the English one gives them as $reason).

ib-robot-level = Уровень робота { $word }: нужно 1, 2 или 3.
    .parts = 2
ib-bad-state = Ошибка в строке позиции: проверьте ее.

## The lines under the field. The legend comes on the first round's boards.
## Kept in Latin letters: sent with the board (GSM-7, so that a board costs
## the same parts in every language).

ib-legend = L R igroki, G H vratari, l r g h blok, @ $ s myachom
# $at: the free ball's cell, or the holder's letter and cell (L(6,5)).
ib-ball = Myach: { $at }
ib-ball-keeper = Myach: { $at }, vratar
# $codes: the codes of the combination, as written.
ib-so-far = Nachato: { $codes }
ib-last = Posl.: { $codes }
# $blue, $red: each side's goals; $time: the rounds played; $limit: the
# round the match ends after.
ib-score = Schet { $blue }:{ $red } (L:R), vremya { $time }/{ $limit }.
ib-you-asked-takeback = Vy prosili otmenu.
ib-takeback-asked = Sopernik prosit otmenu: U - da.

## Whose move it is. $side: blue or red (on one phone the side on turn,
## else the reader's); $undo: yes while a combination is in progress, which
## U takes back code by code.
## Kept in Latin letters: sent with the board.

ib-hot-turn = Xod { $side ->
        [blue] sinix (L)
       *[red] krasnyx (R)
    }.{ $undo ->
        [yes] {" "}U - otmena.
       *[no] {""}
    }
ib-your-move = Vash xod. Vy - { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.{ $undo ->
        [yes] {" "}U - otmena.
       *[no] {""}
    }
ib-their-move = Xod protivnika. Vy - { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.

## The end of a match; ib-rematch is the line under it. $side: the side
## that won on one phone; $left: how the opponent left (resigned,
## timed-out) or none.
## Kept in Latin letters: sent with the board (the verdict takes the place
## of the turn line under the last board).

ib-stopped = Match ostanovlen.
ib-draw = Nichya.
ib-side-won = Pobedili { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.
ib-you-won = Vi pobedili.{ $left ->
        [resigned] {" "}Sopernik sdalsya.
        [timed-out] {" "}Sopernik ne xodil i vybyl po vremeni.
       *[none] {""}
    }
ib-you-lost = Vi proigrali.
ib-rematch = PA - revansh.

## Refused moves.

ib-not-your-turn = Сейчас ход противника.
ib-match-over = Матч уже закончен.
ib-not-in-match = Вы не играете в этом матче.
ib-nothing-to-undo = Нечего отменять.
ib-already-asked = Вы уже попросили вернуть ход. Ждите ответа.
# A code that cannot be played: $index, its place in the text (from 1);
# $typed, the code as the player typed it; then why (ib-why).
ib-code-refused = Код { $index } { $typed }: { ib-why }.
    .parts = 2
# Why a code cannot be played. $why names the case; $cell and $other are
# cells, written (row,column); $ended: the number of the code that ended
# the turn.
ib-why = { $why ->
        [blue-to-move] сейчас ход синих
        [red-to-move] сейчас ход красных
        [off-field] клетки { $cell } нет на поле (ряды 1-7, столбцы 1-12)
        [no-blue-player] на { $cell } нет игрока синих
        [no-red-player] на { $cell } нет игрока красных
        [blocked] игрок на { $cell } отдал пас и заблокирован
        [holds-ball] игрок на { $cell } с мячом: B&..(шаг с мячом), B~..(удар, пас)
        [no-ball-here] у игрока на { $cell } нет мяча
        [not-near] { $other } не рядом с { $cell }
        [taken] клетка { $cell }, куда вы хотели встать, занята
        [ball-there] на { $cell } мяч: шаг к мячу пишется ..>B{ $cell }
        [no-ball] на { $cell } нет мяча
        [ball-held] мяч на { $cell } у игрока: отбор пишется B~..{ $cell }>..
        [not-in-line] { $cell } и { $other } не на одной прямой или диагонали
        [through] мяч не пройдет: на пути игрок { $cell }
        [mate-blocked] игрок на { $cell } заблокирован и не примет пас
        [own-goal] { $cell } - ваши ворота
       *[after-end] ход уже перешел к сопернику после кода { $ended }
    }

## A move that does not read. $index: the place in the text (from 1) of
## the code that does not read.

ib-no-code = нет кода хода
# $want: what the reader expected there: a case below, or the one
# character it wanted; $found: end at the text's end (else the character
# it found, as the English text quotes it); $seen: that character as typed.
ib-code-expected = код { $index }: нужно { $want ->
        [code] код (L, R, B или -)
        [step-target] F (свободная клетка) или B (мяч)
        [after-ball] '(', '~' или '&' после B
        [side] L или R
        [kick-target] L, R или F
        [number] число
       *[char] '{ $want }'
    }, а { $found ->
        [end] текст кончился
       *[char] стоит '{ $seen }'
    }
ib-code-digits = код { $index }: в номере ряда или столбца не больше двух цифр
ib-code-number = код { $index }: неверное число
