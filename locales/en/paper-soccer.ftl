### Paper soccer's texts in English: its name and options, the status lines
### above the board, move help, and why a move or an option is refused.
### Each message is one SMS (160 GSM-7 characters); the board itself is drawn
### in code.

## The game in the lobby

ps-name = Paper soccer
ps-options-help = P PS [BOT [1-3]] [WxL]: BOT plays the robot (1 weak, 3 strong), WxL the field size (8x10; even, 4-12 x 4-14).
ps-move-help = Move: digits 1-4,6-9 (2 up, 8 down, 4 left, 6 right, 1 3 7 9 diagonals), several at once: 3214.
# A size outside the fields there are: the width is checked first.
ps-bad-size = Bad field size { $width }x{ $length } ({ $bad ->
        [width] width { $width }: even, 4-12
       *[length] length { $length }: even, 4-14
    }).

## Above the board: who is to move or how it ended, then the seat's goal
## and the last turn's keypad digits

ps-over = { $result ->
        [won] You won.
       *[lost] You lost.
    } { $how ->
        [goal] Goal.
        [own-goal] Own goal.
        [dead-end] Dead end.
        [resigned] Resigned.
       *[absent] Absent.
    }
ps-your-move = { $bounce ->
        [yes] Your move. Bounce: go on.
       *[no] Your move.
    }
ps-opponents-move = { $bounce ->
        [yes] Opponent's move. (bounce)
       *[no] Opponent's move.
    }
ps-attack = { $goal ->
        [top] Attack: top.
       *[bottom] Attack: bottom.
    }
ps-attack-last = { ps-attack } Last: { $last }
# Under a finished match's board.
ps-rematch = PA - rematch.

## A move that cannot be read (after "Cannot read that move:"); $typed is
## the character as Rust quotes it ('a')

ps-not-a-direction = not a keypad direction (1-4, 6-9): { $typed }
ps-no-direction = no direction digits

## A move refused; $step counts the text's steps from 1, $key is its digit

ps-finished = The game is over.
ps-not-your-turn = Not your move.
ps-blocked = Step { $step } ({ $key }) is not possible: { $why ->
        [drawn] that line is already drawn
        [border] you cannot move along the border
       *[outside] a goal post or out of the field
    }. Nothing changed.
ps-turn-ended = Your turn ended after step { $after }: too many steps. Nothing changed.
