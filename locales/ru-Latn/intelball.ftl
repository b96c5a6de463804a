### Intelball (IB): the texts its players read. The board itself (the
### field, the codes, the cells written (row,column)) is drawn by the game;
### these are the words around it.

## The game's name, the options after P IB and the move codes.

ib-name = Intelbol
ib-options-help = P IB - s sopernikom, P IB BOT [1-3] - s robotom, P IB HOT - na odnom telefone; posle mozhno stroku sostoyaniya _S(..)..
ib-move-help = L(4,7)>F(5,8) shag, L>B k myachu, B>L vzyat, B~R>L otobrat, B&L>F s myachom, B~L>L pas, B~L>F udar, - konec, U otmena.

## Refused options. $word: the robot's level as typed (digits).
## A state string's faults are found in English (the state reader's words,
## written for operators): the Russian text only says the string is wrong,
## rather than mix the languages (the English one gives them as $reason).

ib-robot-level = Uroven robota { $word }: nuzhno 1, 2 ili 3.
ib-bad-state = Oshibka v stroke sostoyaniya: proverte ee.

## The lines under the field. The legend comes on the first round's boards.

ib-legend = L R igroki, G H vratari, l r g h blok, @ $ s myachom
# $at: the free ball's cell, or the holder's letter and cell (L(6,5)).
ib-ball = Myach: { $at }
ib-ball-keeper = Myach: { $at }, vratar
# $codes: the codes of the combination, as written.
ib-so-far = Nachato: { $codes }
ib-last = Posl.: { $codes }
# $blue, $red: each side's goals; $time: the rounds played; $limit: the
# round the match ends after.
ib-score = Schet { $blue }:{ $red } (L:R), vremya { $time }/{ $limit }.
ib-you-asked-takeback = Vy prosili otmenu.
ib-takeback-asked = Sopernik prosit otmenu: U - da.

## Whose move it is. $side: blue or red (on one phone the side on turn,
## else the reader's); $undo: yes while a combination is in progress, which
## U takes back code by code.

ib-hot-turn = Xod { $side ->
        [blue] sinix (L)
       *[red] krasnyx (R)
    }.{ $undo ->
        [yes] {" "}U - otmena.
       *[no] {""}
    }
ib-your-move = Vash xod. Vy - { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.{ $undo ->
        [yes] {" "}U - otmena.
       *[no] {""}
    }
ib-their-move = Xod protivnika. Vy - { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.

## The end of a match; ib-rematch is the line under it. $side: the side
## that won on one phone; $left: how the opponent left (resigned,
## timed-out) or none.

ib-stopped = Match ostanovlen.
ib-draw = Nichya.
ib-side-won = Pobedili { $side ->
        [blue] sinie (L)
       *[red] krasnye (R)
    }.
ib-you-won = Vi pobedili.{ $left ->
        [resigned] {" "}Sopernik sdalsya.
        [timed-out] {" "}Sopernik ne xodil i vybyl po vremeni.
       *[none] {""}
    }
ib-you-lost = Vi proigrali.
ib-rematch = PA - revansh.

## Refused moves.

ib-not-your-turn = Seichas xod protivnika.
ib-match-over = Match uzhe zakonchen.
ib-not-in-match = Vy ne igraete v etom matche.
ib-nothing-to-undo = Nechego otmenyat.
ib-already-asked = Vy uzhe poprosili vernut xod. Zhdite otveta.
# A code that cannot be played: $index, its place in the text (from 1);
# $typed, the code as the player typed it; then why (ib-why).
ib-code-refused = Kod { $index } { $typed }: { ib-why }.
# Why a code cannot be played. $why names the case; $cell and $other are
# cells, written (row,column); $ended: the number of the code that ended
# the turn.
ib-why = { $why ->
        [blue-to-move] seichas xod sinix
        [red-to-move] seichas xod krasnyx
        [off-field] kletki { $cell } net na pole (ryady 1-7, stolbcy 1-12)
        [no-blue-player] na { $cell } net igroka sinix
        [no-red-player] na { $cell } net igroka krasnyx
        [blocked] igrok na { $cell } otdal pas i zablokirovan
        [holds-ball] igrok na { $cell } s myachom: B&..(shag s myachom), B~..(udar, pas)
        [no-ball-here] u igroka na { $cell } net myacha
        [not-near] { $other } ne ryadom s { $cell }
        [taken] Kletka na kotoruyu vy hoteli vstat zanyata: { $cell }
        [ball-there] na { $cell } myach: shag k myachu pishetsya ..>B{ $cell }
        [no-ball] na { $cell } net myacha
        [ball-held] myach na { $cell } u igroka: otbor pishetsya B~..{ $cell }>..
        [not-in-line] { $cell } i { $other } ne na odnoi pryamoi ili diagonali
        [through] Vy ne mozhete peredvinut myach: na puti igrok { $cell }
        [mate-blocked] igrok na { $cell } zablokirovan i ne mozhet prinyat pas
        [own-goal] { $cell } - vashi vorota
       *[after-end] xod uzhe pereshel k soperniku posle koda { $ended }
    }

## A move that does not read. $index: the place in the text (from 1) of
## the code that does not read.

ib-no-code = net koda xoda
# $want: what the reader expected there: a case below, or the one
# character it wanted; $found: end at the text's end (else the character
# it found, as the English text quotes it); $seen: that character as typed.
ib-code-expected = kod { $index }: nuzhno { $want ->
        [code] kod (L, R, B ili -)
        [step-target] F (svobodnaya kletka) ili B (myach)
        [after-ball] '(', '~' ili '&' posle B
        [side] L ili R
        [kick-target] L, R ili F
        [number] chislo
       *[char] '{ $want }'
    }, a stoit { $found ->
        [end] konec
       *[char] '{ $seen }'
    }
ib-code-digits = kod { $index }: v nomere ryada ili stolbca ne bolshe dvux cifr
ib-code-number = kod { $index }: plohoe chislo
