### Intelball (IB): the texts its players read. The board itself (the
### field, the codes, the cells written (row,column)) is drawn by the game;
### these are the words around it.

## The game's name, the options after P IB and the move codes.

ib-name = Intelball
ib-options-help = P IB - two players, P IB BOT [1-3] - against the robot, P IB HOT - one phone; a state string _S(..).. may follow
ib-move-help = L(4,7)>F(5,8) step, L>B to ball, B>L pull, B~R>L take, B&L>F dribble, B~L>L pass, B~L>F shot, - end, U undo.

## Refused options. $word: the robot's level as typed (digits).
## $reason: what is wrong with the state string, in English (the state
## reader's words, written for operators).

ib-robot-level = Robot level { $word }: it must be 1, 2 or 3.
ib-bad-state = Bad state string: { $reason }.

## The lines under the field. The legend comes on the first round's boards.

ib-legend = L R players, G H keepers, l r g h blocked, @ $ with ball
# $at: the free ball's cell, or the holder's letter and cell (L(6,5)).
ib-ball = Ball: { $at }
ib-ball-keeper = Ball: { $at }, keeper
# $codes: the codes of the combination, as written.
ib-so-far = So far: { $codes }
ib-last = Last: { $codes }
# $blue, $red: each side's goals; $time: the rounds played; $limit: the
# round the match ends after.
ib-score = Score { $blue }:{ $red } (L:R), time { $time }/{ $limit }.
ib-you-asked-takeback = You asked a takeback.
ib-takeback-asked = Takeback asked: U to agree.

## Whose move it is. $side: blue or red (on one phone the side on turn,
## else the reader's); $undo: yes while a combination is in progress, which
## U takes back code by code.

ib-hot-turn = { $side ->
        [blue] Blue (L)
       *[red] Red (R)
    } to move.{ $undo ->
        [yes] {" "}U to undo.
       *[no] {""}
    }
ib-your-move = Your move. You are { $side ->
        [blue] Blue (L)
       *[red] Red (R)
    }.{ $undo ->
        [yes] {" "}U to undo.
       *[no] {""}
    }
ib-their-move = Opponent's move. You are { $side ->
        [blue] Blue (L)
       *[red] Red (R)
    }.

## The end of a match; ib-rematch is the line under it. $side: the side
## that won on one phone; $left: how the opponent left (resigned,
## timed-out) or none.

ib-stopped = Match stopped.
ib-draw = Draw.
ib-side-won = { $side ->
        [blue] Blue (L)
       *[red] Red (R)
    } won.
ib-you-won = You won.{ $left ->
        [resigned] {" "}The opponent resigned.
        [timed-out] {" "}The opponent ran out of time.
       *[none] {""}
    }
ib-you-lost = You lost.
ib-rematch = PA - rematch.

## Refused moves.

ib-not-your-turn = It is not your turn.
ib-match-over = The match is over.
ib-not-in-match = You are not playing in this match.
ib-nothing-to-undo = Nothing to undo.
ib-already-asked = You have already asked for a takeback; wait for the answer.
# A code that cannot be played: $index, its place in the text (from 1);
# $typed, the code as the player typed it; then why (ib-why).
ib-code-refused = Code { $index } { $typed }: { ib-why }.
# Why a code cannot be played. $why names the case; $cell and $other are
# cells, written (row,column); $ended: the number of the code that ended
# the turn.
ib-why = { $why ->
        [blue-to-move] it is Blue's turn
        [red-to-move] it is Red's turn
        [off-field] { $cell } is off the field (rows 1-7, columns 1-12)
        [no-blue-player] no Blue player on { $cell }
        [no-red-player] no Red player on { $cell }
        [blocked] the player on { $cell } has passed and is blocked
        [holds-ball] the player on { $cell } has the ball: use B&.. to step with it, B~.. to kick
        [no-ball-here] the player on { $cell } does not have the ball
        [not-near] { $other } is not next to { $cell }
        [taken] the cell { $cell } is taken
        [ball-there] the ball is on { $cell }: a step onto it is written ..>B{ $cell }
        [no-ball] the ball is not on { $cell }
        [ball-held] the ball on { $cell } is held: take it with B~..{ $cell }>..
        [not-in-line] { $cell } and { $other } are not on one straight line or diagonal
        [through] the ball cannot pass over the player on { $cell }
        [mate-blocked] the player on { $cell } is blocked and cannot receive a pass
        [own-goal] { $cell } is your own goal
       *[after-end] your turn already ended with code { $ended }
    }

## A move that does not read. $index: the place in the text (from 1) of
## the code that does not read.

ib-no-code = no move code
# $want: what the reader expected there: a case below, or the one
# character it wanted; $found: the character it found, quoted as the
# English text quotes it ('x', '\'' for a quote), or end at the text's end;
# $seen: that character as typed.
ib-code-expected = code { $index }: expected { $want ->
        [code] a code (L, R, B or -)
        [step-target] F (free cell) or B (ball)
        [after-ball] '(', '~' or '&' after B
        [side] L or R
        [kick-target] L, R or F
        [number] a number
       *[char] '{ $want }'
    }, found { $found ->
        [end] the end
       *[char] { $found }
    }
ib-code-digits = code { $index }: a row or column has at most two digits
ib-code-number = code { $index }: bad number
