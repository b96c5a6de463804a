### The platform's texts in Russian, transliterated to GSM-7 Latin letters
### as the original service wrote them: registration, lobby, matches,
### messages, help and standings. Each message is one SMS (160 characters)
### unless its `.parts` says more; `$play_number` and `$game_number` are the
### service's two numbers.

## Registration and the player's settings

welcome-stranger = SMS-igry. Dlya registracii otpravte R nik (2-16 latinskih bukv, cifr ili _) na { $game_number }. HELP - pomoshch, STOP - otpiska.
registered = Vy zaregistrirovany kak { $nick }. Dlya nachala igry otpravte P na { $play_number }.
renamed = Vash nik izmenen: { $old } -> { $nick }.
nick-unchanged = Vy uzhe zaregistrirovany kak { $nick }.
nick-taken = Nik { $nick } uzhe zanyat. Vyberite drugoi: R nik
nick-reserved = Nik { $nick } zarezervirovan { $why ->
        [staff] dlya administracii
        [robots] dlya robotov
       *[commands] kak komanda
    }. Vyberite drugoi: R nik
need-registration = Snachala zaregistriruites: otpravte R nik na { $game_number }. HELP - pomoshch.
opted-out = Vy otpisalis ot vseh soobshchenii. Bolshe my nichego ne prishlem. Dlya vozobnovleniya otpravte START.
opted-in = Podpiska vozobnovlena. Dlya igry otpravte P na { $play_number }. HELP - pomoshch.
already-opted-in = Vy i tak poluchaete nashi soobshcheniya. HELP - pomoshch.
language-set = Yazyk: russkii (latinicei).

## A command word with bad arguments

nick-usage = Nik: 2-16 latinskih bukv, cifr ili _. Primer: R ronaldo
message-usage = Format: S nik tekst
lang-usage = Format: LANG EN, LANG RU ili LANG CYR (kirillica)
bare-usage = Komanda { $cmd } otpravlyaetsya bez dopolnitelnogo teksta.
step-usage = Format: H - poslednie xody, H 2 - stranica ranshe (v IB: H P2; H 3 - poziciya posle xoda 3)
unknown-text = Neizvestnaya komanda. HELP - spisok komand.

## Help

# Idle: each command's own line, joined; the code leaves out the least
# needed ones where all of them would not fit one SMS.
help-idle = { $items }.
help-play = P - igra (na { $play_number })
help-games = P ? - igry
help-rematch = PA - revansh
help-pause = T - pauza
help-message = S nik tekst - pismo (do 2 SMS)
help-rename = R nik - nik
help-standings = TOP/STAT/LAST - reiting
help-lang = LANG EN/CYR
help-stop = STOP - otpiska
# In a match: the game's codes, then the match's commands; the code takes
# the first of these three that fits one SMS.
help-in-match = { $codes } B - pole, Q - sdatsya, T - taim-aut, { $steps ->
        [yes] H - xody, H n - poziciya
       *[no] H - xody
    }.
help-in-match-short = { $codes } B pole, Q sdacha, T pauza, { $steps ->
        [yes] H xody, H n poziciya
       *[no] H xody
    }.

## The lobby

already-in-match = Vy v matche { $game_name }: Q - vyiti iz nego (sdatsya), B - pole.
timeout-taken = Vy vzyali taim-aut i ne budete poluchat priglashenii i igrovyh soobshchenii. Dlya vozvrata otpravte P na { $play_number }.
timeout-for-missed-turns = Vy propustili { $missed } { $missed ->
        [one] xod
        [few] xoda
       *[other] xodov
    } podryad i perevedeny v taim-aut. Dlya vozvrata otpravte P na { $play_number }.
games-list-head = Igry:
unknown-game = Igry { $code } net. Igry: { $known }. P ? - spisok.
# A game's reason and what it accepts: two parts where both are long;
# past that the code sends the reason alone.
bad-game-options = { $reason } Tak mozhno: { $options }
    .parts = 2
waiting-for-players = Nedostatochno igrokov dlya nachala igry. Zhdite.
already-waiting = Vasha zayavka uzhe prinyata. Zhdite nachala igry.
not-in-match = Vy seichas ne v igre. Dlya igry otpravte P na { $play_number }.

## A match

match-over = Match uzhe okonchen. Revansh: PA. Novaya igra: P na { $play_number }.
move-accepted = Xod { $move } prinyat.
bad-move = Neponyatnyi xod.
bad-move-why = Neponyatnyi xod: { $reason }.
bad-move-help = HELP - kody.
resigned = Vy sdalis.
match-voided = Vash match prervan iz-za sboya i ne zaschitan. Prostite! Dlya novoi igry otpravte P.
slow-down = Slishkom mnogo soobshchenii podryad: chast ne prochitana. Otpravte ix snova medlennee (odno v sekundu - mozhno).
turn-reminder = Vash xod! Propushcheno xodov podryad: { $missed } iz { $max }, posle { $max } - porazhenie. B - pole.

## Rematches

rematch-waiting = Zayavka na revansh prinyata. Zhdem ostalnyh igrokov.
rematch-asked = { $nick } predlagaet revansh. Otpravte PA.
rematch-expired = Ne vse igroki soglasilis na revansh. Vasha zayavka perevedena v obychnuyu.
rematch-closed = Vremya dlya revansha isteklo. Dlya novoi igry otpravte P na { $play_number }.
no-rematch = Revansh nevozmozhen: net nedavnego matcha. Dlya igry otpravte P na { $play_number }.

## Messages between players

message-too-long = Soobshchenie slishkom dlinnoe: ne bolee { $room } { $room ->
        [one] simvola
       *[other] simvolov
    }. Ne otpravleno.
message-sent = Soobshchenie dlya { $nick } otpravleno.
message-not-allowed = Soobshchenie mozhno otpravit odin raz igroku poslednego matcha v techenie 30 minut posle nego.
message-across-the-hall = Soobshcheniya mezhdu trenirovochnym zalom i nastoyashchimi telefonami ne peresylayutsya. Ne otpravleno.
message-undeliverable = { $nick } seichas ne poluchaet soobshchenii. Vashe soobshchenie ne otpravleno, ego mozhno otpravit pozzhe.
unknown-nick = Igrok { $nick } ne naiden.

## A match's record (H)

history-footer = ({ $page }/{ $pages })
history-footer-older = ({ $page }/{ $pages }, ranshe: { $steps ->
        [yes] H P{ $next }
       *[no] H { $next }
    })
no-such-page = Stranicy { $page } net: zapis zanimaet { $pages }. H - poslednyaya.
no-history = U vas eshche ne bylo igr.
history-unavailable = Zapis etogo matcha povrezhdena i ne mozhet byt pokazana.
no-moves-yet = Xodov eshche ne bylo.
no-such-step = Xoda { $step } eshche ne bylo.

## Standings: TOP, STAT, LAST

# TOP lists established ratings only: { $needed } rated games or more.
top-empty = TOP { $game_code }: ni u kogo eshche net { $needed } reitingovyh igr. { $you }
top = TOP { $game_code }: { $lines }. { $you }
top-you = Vy: { $place } mesto, { $rating }.
top-you-provisional = Vy: { $rating }, v TOP posle { $needed } reitingovyh igr (sygrano { $rated }).
top-you-unrated = U vas eshche net reitinga.
stat-empty = U { $nick } eshche net zavershennyh igr.
stat = { $nick } (pobedy-nichi-porazheniya, reiting): { $games }.{ $legend }
stat-short = { $nick } (p-n-p): { $games }.
stat-legend = {" "}?-menshe 10 igr v reitinge.
# Finishes by place in races of three or more: firsts, seconds, ...
stat-places = mesta 1-{ $last }: { $counts }
unrated = bez reitinga
last-empty = U vas eshche net zavershennyh igr. Igrat: P
last = Poslednie: { $lines }.
last-line = { $game_code } protiv { $against }: { $finish }, { $change }
last-opponents = { $count } sopern.
finish-won = pobeda
finish-drew = nichya
finish-lost = porazhenie
finish-placed = { $place } mesto iz { $of }
top-usage = TOP - luchshie v vashei igre, TOP PS - v igre PS.
stat-usage = STAT - vasha statistika, STAT nik - igroka.
