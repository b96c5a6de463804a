### The platform's texts in English: registration, lobby, matches, messages,
### help and standings. Each message is one SMS (160 GSM-7 characters) unless
### its `.parts` says more; `$play_number` and `$game_number` are the service's
### two numbers.

## Registration and the player's settings

welcome-stranger = SMS games. To register, text R nick (2-16 Latin letters, digits or _) to { $game_number }. HELP for help, STOP to opt out.
registered = You are registered as { $nick }. To play, text P to { $play_number }.
renamed = Your nick is changed: { $old } -> { $nick }.
nick-unchanged = You are already registered as { $nick }.
nick-taken = The nick { $nick } is taken. Choose another: R nick
nick-reserved = The nick { $nick } is reserved { $why ->
        [staff] for staff
        [robots] for robots
       *[commands] as a command
    }. Choose another: R nick
need-registration = Register first: text R nick to { $game_number }. HELP for help.
opted-out = You have opted out and will receive no more messages. Text START to opt back in.
opted-in = You are opted back in. To play, text P to { $play_number }. HELP for help.
already-opted-in = You are already receiving our messages. HELP for help.
language-set = Language: English.

## A command word with bad arguments

nick-usage = A nick is 2-16 Latin letters, digits or _. Example: R ronaldo
message-usage = Format: S nick text
lang-usage = Format: LANG EN, LANG RU or LANG CYR (Russian in Cyrillic)
bare-usage = Send { $cmd } on its own, with nothing after it.
step-usage = Format: H - the last moves, H 2 - the page before (in IB: H P2; H 3 - the position after step 3)
unknown-text = Unknown command. Text HELP for the list.

## Help

# Idle: each command's own line, joined; the code leaves out the least
# needed ones where all of them would not fit one SMS.
help-idle = { $items }.
help-play = P - play (to { $play_number })
help-games = P ? - games
help-rematch = PA - rematch
help-pause = T - pause
help-message = S nick text - message (2 SMS max)
help-rename = R nick - rename
help-standings = TOP/STAT/LAST - ranks
help-lang = LANG RU/CYR
help-stop = STOP - opt out
# In a match: the game's codes, then the match's commands; the code takes
# the first of these three that fits one SMS.
help-in-match = { $codes } B - board, Q - resign, T - timeout, { $steps ->
        [yes] H - moves, H n - position
       *[no] H - moves
    }.
help-in-match-short = { $codes } B board, Q resign, T pause, { $steps ->
        [yes] H moves, H n position
       *[no] H moves
    }.

## The lobby

already-in-match = You are in { $vowel ->
        [yes] an
       *[no] a
    } { $game_name } match: Q to leave it (you resign), B for the board.
timeout-taken = You are on a timeout: no invitations and no game texts. To come back, text P to { $play_number }.
timeout-for-missed-turns = You missed { $missed } { $missed ->
        [one] turn
       *[other] turns
    } in a row and are now on a timeout. To come back, text P to { $play_number }.
games-list-head = Games:
unknown-game = No game { $code } here. Games: { $known }. P ? lists them.
# A game's reason and what it accepts: two parts where both are long;
# past that the code sends the reason alone.
bad-game-options = { $reason } Valid: { $options }
    .parts = 2
waiting-for-players = Not enough players to start yet. Please wait.
already-waiting = You are already in the queue. Please wait for the match to start.
not-in-match = You are not in a match. To play, text P to { $play_number }.

## A match

match-over = That match is over. For a rematch text PA; for a new one, P to { $play_number }.
move-accepted = Move { $move } accepted.
bad-move = Cannot read that move.
bad-move-why = Cannot read that move: { $reason }.
bad-move-help = HELP lists the codes.
resigned = You resigned.
match-voided = Your match was stopped by a fault and does not count. Sorry! Text P for a new one.
slow-down = Too many texts in a row: some were not read. Send them again more slowly (one a second is fine).
turn-reminder = Your move! Missed turns in a row: { $missed } of { $max }; after { $max } you lose. B - board.

## Rematches

rematch-waiting = Rematch request received. Waiting for the other players.
rematch-asked = { $nick } asks for a rematch. Text PA to accept.
rematch-expired = Not everyone accepted the rematch. Your request is now an ordinary play request.
rematch-closed = The time for a rematch is over. For a new match, text P to { $play_number }.
no-rematch = No rematch: you have no recent match. To play, text P to { $play_number }.

## Messages between players

message-too-long = Message too long: at most { $room } { $room ->
        [one] character
       *[other] characters
    }. Not sent.
message-sent = Message to { $nick } sent.
message-not-allowed = You may send one message to a player of your last match, within 30 minutes of its end.
message-across-the-hall = Messages between the training hall and real phones are not passed on. Not sent.
message-undeliverable = { $nick } is not receiving messages now. Yours was not sent; you may send it later.
unknown-nick = No player called { $nick }.

## A match's record (H)

history-footer = ({ $page }/{ $pages })
history-footer-older = ({ $page }/{ $pages }, older: { $steps ->
        [yes] H P{ $next }
       *[no] H { $next }
    })
no-such-page = There is no page { $page }: the record takes { $pages }. H - the newest.
no-history = You have played no match yet.
history-unavailable = This match's record is damaged and cannot be shown.
no-moves-yet = No moves yet.
no-such-step = There is no step { $step } yet.

## Standings: TOP, STAT, LAST

# TOP lists established ratings only: { $needed } rated games or more.
top-empty = TOP { $game_code }: no rating rests on { $needed } rated games yet. { $you }
top = TOP { $game_code }: { $lines }. { $you }
top-you = You: place { $place }, { $rating }.
top-you-provisional = You: { $rating }, listed after { $needed } rated games ({ $rated } so far).
top-you-unrated = You have no rating yet.
stat-empty = { $nick } has no finished games yet.
stat = { $nick } (won-drawn-lost, rating): { $games }.{ $legend }
stat-short = { $nick } (w-d-l): { $games }.
stat-legend = {" "}? = under 10 rated games.
# Finishes by place in races of three or more: firsts, seconds, ...
stat-places = places 1-{ $last }: { $counts }
unrated = unrated
last-empty = You have no finished games yet. Play: P
last = Last: { $lines }.
last-line = { $game_code } v { $against }: { $finish }, { $change }
last-opponents = { $count } opponents
finish-won = won
finish-drew = drew
finish-lost = lost
finish-placed = place { $place } of { $of }
top-usage = TOP - the best of your game, TOP PS - of the game PS.
stat-usage = STAT - your record, STAT nick - a player's.
