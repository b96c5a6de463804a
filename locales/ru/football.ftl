### SMS football's texts in Russian, in Cyrillic: its name and options, the
### status line under the board, keypad help, and why a move or an option is
### refused. Cyrillic is sent as UCS-2, 70 characters an SMS (67 a part of a
### longer one); a message takes one SMS unless its `.parts` says more. A
### seat's whole reply is the board (drawn in code) and the lines under it,
### which stay in Latin letters (GSM-7) as in ru-Latn/football.ftl.

## The game in the lobby

fb-name = SMS-футбол
fb-options-help = P FB - игра вчетвером, P FB BOT - с роботами.
fb-bot-level-one = В SMS-футболе роботы только уровня 1.

## Under the board
## Kept in Latin letters: sent with the board (GSM-7, so that a board costs
## the same parts in every language).

fb-your-move = Vash xod.
fb-opponents-move = Xod protivnika.
fb-result = { $result ->
        [won] Vi pobedili.
        [lost] Vi proigrali.
       *[draw] Nichya.
    }
fb-after-match = PA - revansh. S nick tekst - soobshchenie.

## Keypad help (HELP, and after a move that cannot be read)

fb-move-help = Цифра (вы - 5): 1-4,6-9 шаг/удар, 5 стоять, 02 04 06 08 толкнуть мяч.

## A move that cannot be read (after "Непонятный ход:")

fb-bad-push = после 0 (толчок) нужна цифра направления 1-9
fb-bad-move = ход - цифра 1-9 или 0 и цифра 1-9

## A move refused (the original service's first three, without a full stop)

fb-cannot-move = Вы не можете переместить своего игрока в данном направлении
fb-cell-taken = Клетка, на которую вы хотели встать, занята
fb-cannot-move-ball = Вы не можете передвинуть мяч
fb-not-your-turn = Сейчас ход противника.
fb-match-over = Матч уже закончен.
fb-not-in-match = Вы не играете в этом матче.
