### Paper soccer's texts in Russian, in Cyrillic: its name and options, the
### status lines above the board, move help, and why a move or an option is
### refused. Cyrillic is sent as UCS-2, 70 characters an SMS (67 a part of a
### longer one); a message takes one SMS unless its `.parts` says more. The
### board itself is drawn in code; the lines sent with it stay in Latin
### letters (GSM-7) as in ru-Latn/paper-soccer.ftl.

## The game in the lobby

ps-name = Футбол на бумаге
ps-options-help = P PS [BOT [1-3]] [ШxД]: BOT - робот (1 слабый, 3 сильный), ШxД - размер поля (8x10; четные 4-12 x 4-14).
    .parts = 2
ps-move-help = Ход: 2 вверх 8 вниз 4 влево 6 вправо, 1 3 7 9 наискось; подряд: 3214.
# A size outside the fields there are; the same limits whichever is wrong.
ps-bad-size = Неверный размер поля { $width }x{ $length } (ширина 4-12, длина 4-14, четные).

## Above the board: who is to move or how it ended, then the seat's goal
## and the last turn's keypad digits; under a finished match's board, the
## rematch hint.
## Kept in Latin letters: sent with the board (GSM-7, so that a board costs
## the same parts in every language).

ps-over = { $result ->
        [won] Vi pobedili.
       *[lost] Vi proigrali.
    } { $how ->
        [goal] Gol.
        [own-goal] Avtogol.
        [dead-end] Tupik.
        [resigned] Sdacha.
       *[absent] Neyavka.
    }
ps-your-move = { $bounce ->
        [yes] Vash xod. Otskok: xodite dalshe.
       *[no] Vash xod.
    }
ps-opponents-move = { $bounce ->
        [yes] Xod protivnika. (otskok)
       *[no] Xod protivnika.
    }
ps-attack = { $goal ->
        [top] Ataka: verx.
       *[bottom] Ataka: niz.
    }
ps-attack-last = { ps-attack } Posl: { $last }
# Under a finished match's board.
ps-rematch = PA - revansh.

## A move that cannot be read (after "Непонятный ход:"); $typed is the
## character as Rust quotes it ('a')

ps-not-a-direction = не цифра направления (1-4, 6-9): { $typed }
ps-no-direction = нет цифр направления

## A move refused; $step counts the text's steps from 1, $key is its digit

ps-finished = Игра окончена.
ps-not-your-turn = Ход противника.
ps-blocked = Шаг { $step } ({ $key }) невозможен: { $why ->
        [drawn] линия уже нарисована
        [border] по границе поля ходить нельзя
       *[outside] штанга или за пределами поля
    }. Ход не принят.
ps-turn-ended = После шага { $after } ход заканчивается: лишние шаги. Ход не принят.
