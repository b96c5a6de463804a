### The platform's texts in Russian, in Cyrillic: registration, lobby,
### matches, messages, help and standings. Cyrillic is sent as UCS-2, 70
### characters an SMS (67 a part of a longer one), so these say less than
### the transliterated texts; a message takes one SMS unless its `.parts`
### says more. Command words stay in Latin letters, as players type them.

## Registration and the player's settings

welcome-stranger = SMS-игры. Регистрация: R ник на { $game_number }. HELP - помощь, STOP - отписка.
    .parts = 2
registered = Вы { $nick }. Играть: P на { $play_number }.
renamed = Ваш ник: { $old } -> { $nick }.
nick-unchanged = Вы уже { $nick }.
nick-taken = Ник { $nick } занят. Другой: R ник
nick-reserved = Ник { $nick } { $why ->
        [staff] для администрации
        [robots] для роботов
       *[commands] - команда
    }. Другой: R ник
need-registration = Сначала: R ник на { $game_number }. HELP - помощь.
opted-out = Вы отписались, сообщений больше не будет. Вернуться: START.
opted-in = Подписка возобновлена. Играть: P на { $play_number }.
already-opted-in = Вы и так получаете наши сообщения. HELP - помощь.
language-set = Язык: русский (кириллица). SMS вмещает 70 букв.

## A command word with bad arguments

nick-usage = Ник: 2-16 латинских букв, цифр или _. Пример: R ronaldo
message-usage = Формат: S ник текст
lang-usage = Формат: LANG RU, LANG EN или LANG CYR
bare-usage = Команда { $cmd } - без текста после нее.
step-usage = H - последние ходы, H 2 - страница раньше (IB: H P2; H 3 - позиция)
unknown-text = Неизвестная команда. HELP - список.

## Help

# Idle: each command's own line, joined; the code leaves out the least
# needed ones where all of them would not fit the budget.
help-idle = { $items }.
    .parts = 2
help-play = P - игра (на { $play_number })
help-games = P ? - игры
help-rematch = PA - реванш
help-pause = T - пауза
help-message = S ник текст - письмо
help-rename = R ник - ник
help-standings = TOP/STAT/LAST - рейтинг
help-lang = LANG RU/EN
help-stop = STOP - отписка
# In a match: the game's codes, then the match's commands; the code takes
# the first of these three that fits its budget.
help-in-match = { $codes } B - поле, Q - сдаться, T - тайм-аут, { $steps ->
        [yes] H - ходы, H n - позиция
       *[no] H - ходы
    }.
    .parts = 2
help-in-match-short = { $codes } B поле, Q сдаться, T пауза, { $steps ->
        [yes] H ходы, H n позиция
       *[no] H ходы
    }.
    .parts = 2

## The lobby

already-in-match = Вы в матче { $game_name }: Q - выйти (сдаться), B - поле.
    .parts = 2
timeout-taken = Вы в тайм-ауте: без приглашений и игр. Вернуться: P на { $play_number }.
    .parts = 2
timeout-for-missed-turns = Пропущено ходов подряд: { $missed }, вы в тайм-ауте. Вернуться: P на { $play_number }.
    .parts = 2
games-list-head = Игры:
unknown-game = Игры { $code } нет. Игры: { $known }. P ? - список.
bad-game-options = { $reason } Можно: { $options }
    .parts = 2
waiting-for-players = Пока мало игроков. Ждите.
already-waiting = Заявка уже принята. Ждите начала игры.
not-in-match = Вы не в игре. Играть: P на { $play_number }.

## A match

match-over = Матч окончен. Реванш: PA. Новая игра: P на { $play_number }.
move-accepted = Ход { $move } принят.
bad-move = Непонятный ход.
bad-move-why = Непонятный ход: { $reason }.
    .parts = 2
bad-move-help = HELP - коды.
resigned = Вы сдались.
match-voided = Матч прерван сбоем и не засчитан. Простите! Новая игра: P.
slow-down = Слишком много SMS подряд: часть не прочитана. Шлите медленнее.
turn-reminder = Ваш ход! Пропущено подряд: { $missed } из { $max }, после { $max } - поражение.
    .parts = 2

## Rematches

rematch-waiting = Заявка на реванш принята. Ждем других игроков.
rematch-asked = { $nick } предлагает реванш. Ответ: PA.
rematch-expired = Не все согласились на реванш. Ваша заявка теперь обычная.
rematch-closed = Время реванша вышло. Новая игра: P на { $play_number }.
no-rematch = Реванша нет: нет недавнего матча. Играть: P на { $play_number }.
    .parts = 2

## Messages between players

message-too-long = Слишком длинно: не более { $room } { $room ->
        [one] знака
       *[other] знаков
    }. Не отправлено.
message-sent = Письмо для { $nick } отправлено.
message-not-allowed = Письмо можно послать раз игроку последнего матча, 30 минут после него.
    .parts = 2
message-across-the-hall = Письма между тренировочным залом и телефонами не пересылаются.
message-undeliverable = { $nick } сейчас не получает писем. Ваше не отправлено.
unknown-nick = Игрок { $nick } не найден.

## A match's record (H)

history-footer = ({ $page }/{ $pages })
history-footer-older = ({ $page }/{ $pages }, раньше: { $steps ->
        [yes] H P{ $next }
       *[no] H { $next }
    })
no-such-page = Страницы { $page } нет, всего { $pages }. H - последняя.
no-history = У вас еще не было игр.
history-unavailable = Запись этого матча повреждена.
no-moves-yet = Ходов еще не было.
no-such-step = Хода { $step } еще не было.

## Standings: TOP, STAT, LAST

# TOP lists established ratings only: { $needed } rated games or more.
top-empty = TOP { $game_code }: ни у кого еще нет { $needed } рейтинговых игр. { $you }
    .parts = 2
top = TOP { $game_code }: { $lines }. { $you }
    .parts = 2
top-you = Вы: { $place } место, { $rating }.
top-you-provisional = Вы: { $rating }, в TOP после { $needed } рейтинговых игр (сыграно { $rated }).
    .parts = 2
top-you-unrated = У вас нет рейтинга.
stat-empty = У { $nick } нет законченных игр.
stat = { $nick } (победы-ничьи-поражения, рейтинг): { $games }.{ $legend }
    .parts = 2
stat-short = { $nick } (п-н-п): { $games }.
stat-legend = {" "}? - меньше 10 игр.
# Finishes by place in races of three or more: firsts, seconds, ...
stat-places = места 1-{ $last }: { $counts }
    .parts = 2
unrated = без рейтинга
last-empty = У вас нет законченных игр. Играть: P
last = Последние: { $lines }.
    .parts = 2
last-line = { $game_code } против { $against }: { $finish }, { $change }
last-opponents = { $count } соперн.
finish-won = победа
finish-drew = ничья
finish-lost = поражение
finish-placed = { $place } место из { $of }
top-usage = TOP - лучшие в вашей игре, TOP PS - в игре PS.
stat-usage = STAT - ваша статистика, STAT ник - игрока.
