### SMS football's texts in Russian (GSM-7 Latin transliteration): its name
### and options, the status line under the board, keypad help, and why a move
### or an option is refused. Each message is one SMS (160 GSM-7 characters);
### a seat's whole reply is the board (drawn in code) and these.

## The game in the lobby

fb-name = SMS-futbol
fb-options-help = P FB - igra vchetverom, P FB BOT - s robotami.
fb-bot-level-one = V SMS-futbole roboty tolko urovnya 1.

## Under the board

fb-your-move = Vash xod.
fb-opponents-move = Xod protivnika.
fb-result = { $result ->
        [won] Vi pobedili.
        [lost] Vi proigrali.
       *[draw] Nichya.
    }
fb-after-match = PA - revansh. S nick tekst - soobshchenie.
fb-move-help = Xod - cifra (vy na 5): 1-4,6-9 shag ili udar po myachu, 5 stoyat, 02 04 06 08 tolknut myach.

## A move that cannot be read (after "Neponyatnyi xod:")

fb-bad-push = posle 0 (tolchok) nuzhna tsifra napravleniya 1-9
fb-bad-move = xod - tsifra 1-9 ili 0 i tsifra 1-9

## A move refused (the original service's first three, without a full stop)

fb-cannot-move = Vy ne mozhete peremestit svoego Igroka v dannom napravlenii
fb-cell-taken = Kletka na kotoruyu vy hoteli vstat zanyata
fb-cannot-move-ball = Vy ne mozhete peredvinut myach
fb-not-your-turn = Seichas xod protivnika.
fb-match-over = Match uzhe zakonchen.
fb-not-in-match = Vy ne igraete v etom matche.
