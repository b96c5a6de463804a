### Paper soccer's texts in Russian (GSM-7 Latin transliteration): its name
### and options, the status lines above the board, move help, and why a move
### or an option is refused. Each message is one SMS (160 GSM-7 characters);
### the board itself is drawn in code.

## The game in the lobby

ps-name = Futbol na bumage
ps-options-help = P PS [BOT [1-3]] [ShxD]: BOT - igra s robotom (1 slabyi, 3 silnyi), ShxD - razmer polya (8x10; chetnye, 4-12 x 4-14).
ps-move-help = Xod: cifry 1-4,6-9 (2 verx, 8 niz, 4 vlevo, 6 vpravo, 1 3 7 9 diagonali), mozhno neskolko: 3214.
# A size outside the fields there are; the same limits whichever is wrong.
ps-bad-size = Nevernyi razmer polya { $width }x{ $length } (shirina 4-12, dlina 4-14, chetnye).

## Above the board: who is to move or how it ended, then the seat's goal
## and the last turn's keypad digits

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

## A move that cannot be read (after "Neponyatnyi xod:"); $typed is the
## character as Rust quotes it ('a')

ps-not-a-direction = ne cifra napravleniya (1-4, 6-9): { $typed }
ps-no-direction = net cifr napravleniya

## A move refused; $step counts the text's steps from 1, $key is its digit

ps-finished = Igra okonchena.
ps-not-your-turn = Xod protivnika.
ps-blocked = Xod { $step } ({ $key }) nevozmozhen: { $why ->
        [drawn] liniya uzhe narisovana
        [border] po granice polya xodit nelzya
       *[outside] shtanga ili za predely polya
    }. Nichego ne izmeneno.
ps-turn-ended = Vash xod zakonchilsya posle shaga { $after }: lishnie shagi. Nichego ne izmeneno.
