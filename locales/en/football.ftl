### SMS football's texts in English: its name and options, the status line
### under the board, keypad help, and why a move or an option is refused.
### Each message is one SMS (160 GSM-7 characters); a seat's whole reply is
### the board (drawn in code) and these.

## The game in the lobby

fb-name = SMS football
fb-options-help = P FB - four players, P FB BOT - you and three robots.
fb-bot-level-one = SMS football robots come in level 1 only.

## Under the board

fb-your-move = Your move.
fb-opponents-move = Opponents' move.
fb-result = { $result ->
        [won] You won.
        [lost] You lost.
       *[draw] Draw.
    }
fb-after-match = PA - rematch. S nick text - message.
fb-move-help = Send a keypad digit (you are 5): 1-4,6-9 step or kick the ball, 5 stand, 02 04 06 08 push it.

## A move that cannot be read (after "Cannot read that move:")

fb-bad-push = a push is 0 and a direction 1-9
fb-bad-move = a move is a digit 1-9, or 0 and a digit 1-9

## A move refused

fb-cannot-move = You cannot move your player in that direction.
fb-cell-taken = The cell you wanted to move to is taken.
fb-cannot-move-ball = You cannot move the ball.
fb-not-your-turn = It is the opponents' move now.
fb-match-over = The match is already over.
fb-not-in-match = You are not playing in this match.
