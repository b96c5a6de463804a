//! Every platform text a player can receive, in both languages, in one place.
//!
//! Russian is Latin transliteration using only GSM 03.38 characters, like the
//! original service ("Vash xod."), so that a text stays one 160-character SMS.
//! Game-specific wording (boards, move errors) lives with each game.

use crate::lang::Lang;

mod standings;
pub use standings::*;

/// The service numbers, which several texts name.
#[derive(Clone, Copy, Debug)]
pub struct Numbers<'a> {
    pub play: &'a str,
    pub game: &'a str,
}

pub fn welcome_stranger(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "SMS-igry. Dlya registracii otpravte R nik (2-16 latinskih bukv, cifr ili _) na {}. HELP - pomoshch, STOP - otpiska.",
            n.game
        ),
        Lang::En => format!(
            "SMS games. To register, text R nick (2-16 Latin letters, digits or _) to {}. HELP for help, STOP to opt out.",
            n.game
        ),
    }
}

pub fn registered(lang: Lang, nick: &str, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Vy zaregistrirovany kak {nick}. Dlya nachala igry otpravte P na {}.",
            n.play
        ),
        Lang::En => format!(
            "You are registered as {nick}. To play, text P to {}.",
            n.play
        ),
    }
}

pub fn renamed(lang: Lang, old: &str, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("Vash nik izmenen: {old} -> {nick}."),
        Lang::En => format!("Your nick is changed: {old} -> {nick}."),
    }
}

pub fn nick_unchanged(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("Vy uzhe zaregistrirovany kak {nick}."),
        Lang::En => format!("You are already registered as {nick}."),
    }
}

pub fn nick_taken(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("Nik {nick} uzhe zanyat. Vyberite drugoi: R nik"),
        Lang::En => format!("The nick {nick} is taken. Choose another: R nick"),
    }
}

/// Whom a nick no player may take is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReservedFor {
    Staff,
    Robots,
    Commands,
}

pub fn nick_reserved(lang: Lang, nick: &str, why: ReservedFor) -> String {
    let why = match why {
        ReservedFor::Staff => lang.pick("dlya administracii", "for staff"),
        ReservedFor::Robots => lang.pick("dlya robotov", "for robots"),
        ReservedFor::Commands => lang.pick("kak komanda", "as a command"),
    };
    match lang {
        Lang::Ru => format!("Nik {nick} zarezervirovan {why}. Vyberite drugoi: R nik"),
        Lang::En => format!("The nick {nick} is reserved {why}. Choose another: R nick"),
    }
}

/// The replies to a command word with bad arguments (`ParseError::usage`).
pub fn nick_usage(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Nik: 2-16 latinskih bukv, cifr ili _. Primer: R ronaldo".into(),
        Lang::En => "A nick is 2-16 Latin letters, digits or _. Example: R ronaldo".into(),
    }
}

pub fn message_usage(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Format: S nik tekst".into(),
        Lang::En => "Format: S nick text".into(),
    }
}

pub fn lang_usage(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Format: LANG EN ili LANG RU".into(),
        Lang::En => "Format: LANG EN or LANG RU".into(),
    }
}

/// `cmd` takes nothing after it.
pub fn bare_usage(lang: Lang, cmd: &str) -> String {
    match lang {
        Lang::Ru => format!("Komanda {cmd} otpravlyaetsya bez dopolnitelnogo teksta."),
        Lang::En => format!("Send {cmd} on its own, with nothing after it."),
    }
}

pub fn step_usage(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Format: H - poslednie xody, H 2 - stranica ranshe (v IB: H P2; H 3 - poziciya posle xoda 3)".into(),
        Lang::En => "Format: H - the last moves, H 2 - the page before (in IB: H P2; H 3 - the position after step 3)".into(),
    }
}

/// The end of one page of `H`: which of how many, and how to ask for the one before.
pub fn history_footer(lang: Lang, page: usize, pages: usize, state_steps: bool) -> String {
    let older = if state_steps { "H P" } else { "H " };
    match (lang, page < pages) {
        (Lang::Ru, true) => format!("({page}/{pages}, ranshe: {older}{})", page + 1),
        (Lang::En, true) => format!("({page}/{pages}, older: {older}{})", page + 1),
        (_, false) => format!("({page}/{pages})"),
    }
}

pub fn no_such_page(lang: Lang, page: usize, pages: usize) -> String {
    match lang {
        Lang::Ru => format!("Stranicy {page} net: zapis zanimaet {pages}. H - poslednyaya."),
        Lang::En => format!("There is no page {page}: the record takes {pages}. H - the newest."),
    }
}

pub fn need_registration(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Snachala zaregistriruites: otpravte R nik na {}. HELP - pomoshch.",
            n.game
        ),
        Lang::En => format!("Register first: text R nick to {}. HELP for help.", n.game),
    }
}

pub fn opted_out(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Vy otpisalis ot vseh soobshchenii. Bolshe my nichego ne prishlem. Dlya vozobnovleniya otpravte START.".into(),
        Lang::En => "You have opted out and will receive no more messages. Text START to opt back in.".into(),
    }
}

pub fn opted_in(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Podpiska vozobnovlena. Dlya igry otpravte P na {}. HELP - pomoshch.",
            n.play
        ),
        Lang::En => format!(
            "You are opted back in. To play, text P to {}. HELP for help.",
            n.play
        ),
    }
}

pub fn already_opted_in(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Vy i tak poluchaete nashi soobshcheniya. HELP - pomoshch.".into(),
        Lang::En => "You are already receiving our messages. HELP for help.".into(),
    }
}

pub fn language_set(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Yazyk: russkii (latinicei).".into(),
        Lang::En => "Language: English.".into(),
    }
}

pub fn unknown_text(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Neizvestnaya komanda. HELP - spisok komand.".into(),
        Lang::En => "Unknown command. Text HELP for the list.".into(),
    }
}

/// Help for a registered player who is not in a match.
pub fn help_idle(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "P - igra (na {}), P ? - igry, PA - revansh, T - pauza, S nik tekst - pismo (do 2 SMS), R nik - nik, TOP/STAT/LAST - reiting, LANG EN, STOP - otpiska.",
            n.play
        ),
        Lang::En => format!(
            "P - play (to {}), P ? - games, PA - rematch, T - pause, S nick text - message (2 SMS max), R nick - rename, TOP/STAT/LAST - ranks, LANG RU, STOP - opt out.",
            n.play
        ),
    }
}

/// Help inside a match: the game's move syntax and the match commands, in one SMS.
/// Where the whole line would take two, the commands are named shorter,
/// then without `H n`: the game's own codes are never cut.
pub fn help_in_match(lang: Lang, move_help: &str, state_steps: bool) -> String {
    let history = match (lang, state_steps) {
        (Lang::Ru, false) => "H - xody",
        (Lang::Ru, true) => "H - xody, H n - poziciya",
        (Lang::En, false) => "H - moves",
        (Lang::En, true) => "H - moves, H n - position",
    };
    let long = match lang {
        Lang::Ru => format!("{move_help} B - pole, Q - sdatsya, T - taim-aut, {history}."),
        Lang::En => format!("{move_help} B - board, Q - resign, T - timeout, {history}."),
    };
    let short = |steps: bool| {
        let history = match (lang, steps) {
            (Lang::Ru, true) => "H xody, H n poziciya",
            (Lang::Ru, false) => "H xody",
            (Lang::En, true) => "H moves, H n position",
            (Lang::En, false) => "H moves",
        };
        match lang {
            Lang::Ru => format!("{move_help} B pole, Q sdacha, T pauza, {history}."),
            Lang::En => format!("{move_help} B board, Q resign, T pause, {history}."),
        }
    };
    [long, short(state_steps), short(false)]
        .into_iter()
        .find(|t| crate::encoding::analyse(t).parts <= 1)
        .unwrap_or_else(|| short(false))
}

/// `P` with a game while in a match: no second match starts, and the
/// player learns how to leave this one (`Q` resigns it) or see it (`B`).
/// One SMS in either language, whatever the game's name.
pub fn already_in_match(lang: Lang, game: &str) -> String {
    match lang {
        Lang::Ru => format!("Vy v matche {game}: Q - vyiti iz nego (sdatsya), B - pole."),
        Lang::En => {
            let article = if game.starts_with(['A', 'E', 'I', 'O', 'U']) {
                "an"
            } else {
                "a"
            };
            format!(
                "You are in {article} {game} match: Q to leave it (you resign), B for the board."
            )
        }
    }
}

pub fn timeout_taken(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Vy vzyali taim-aut i ne budete poluchat priglashenii i igrovyh soobshchenii. Dlya vozvrata otpravte P na {}.",
            n.play
        ),
        Lang::En => format!(
            "You are on a timeout: no invitations and no game texts. To come back, text P to {}.",
            n.play
        ),
    }
}

pub fn timeout_for_missed_turns(lang: Lang, missed: u32, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Vy propustili {missed} xoda podryad i perevedeny v taim-aut. Dlya vozvrata otpravte P na {}.",
            n.play
        ),
        Lang::En => format!(
            "You missed {missed} turns in a row and are now on a timeout. To come back, text P to {}.",
            n.play
        ),
    }
}

/// `P ?`: one line a game, within one SMS.
pub fn games_list(lang: Lang, codes: &[(&str, &str)]) -> String {
    let lines: Vec<String> = codes
        .iter()
        .map(|(code, name)| format!("P {code} - {name}"))
        .collect();
    let head = lang.pick("Igry:", "Games:");
    format!("{head}\n{}", lines.join("\n"))
}

/// What a player texted as a game code, cut short: a reply never echoes
/// more than a few characters of what a stranger sent.
fn echo(word: &str) -> String {
    const MOST: usize = 8;
    let mut short: String = word.chars().take(MOST).collect();
    if word.chars().count() > MOST {
        short.push_str("...");
    }
    short
}

pub fn unknown_game(lang: Lang, code: &str, codes: &[(&str, &str)]) -> String {
    let known: Vec<&str> = codes.iter().map(|(c, _)| *c).collect();
    let known = known.join(", ");
    match lang {
        Lang::Ru => format!("Igry {} net. Igry: {known}. P ? - spisok.", echo(code)),
        Lang::En => format!(
            "No game {} here. Games: {known}. P ? lists them.",
            echo(code)
        ),
    }
}

pub fn bad_game_options(lang: Lang, reason: &str, options_help: &str) -> String {
    match lang {
        Lang::Ru => format!("{reason} Tak mozhno: {options_help}"),
        Lang::En => format!("{reason} Valid: {options_help}"),
    }
}

pub fn waiting_for_players(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Nedostatochno igrokov dlya nachala igry. Zhdite.".into(),
        Lang::En => "Not enough players to start yet. Please wait.".into(),
    }
}

pub fn already_waiting(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Vasha zayavka uzhe prinyata. Zhdite nachala igry.".into(),
        Lang::En => "You are already in the queue. Please wait for the match to start.".into(),
    }
}

pub fn not_in_match(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!("Vy seichas ne v igre. Dlya igry otpravte P na {}.", n.play),
        Lang::En => format!("You are not in a match. To play, text P to {}.", n.play),
    }
}

/// A move texted after its match ended.
pub fn match_over(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Match uzhe okonchen. Revansh: PA. Novaya igra: P na {}.",
            n.play
        ),
        Lang::En => format!(
            "That match is over. For a rematch text PA; for a new one, P to {}.",
            n.play
        ),
    }
}

pub fn move_accepted(lang: Lang, mv: &str) -> String {
    match lang {
        Lang::Ru => format!("Xod {mv} prinyat."),
        Lang::En => format!("Move {mv} accepted."),
    }
}

/// A move the game cannot read: the reader's own reason, then the codes
/// where they still fit one SMS (else where to find them).
pub fn bad_move(lang: Lang, reason: &str, move_help: &str) -> String {
    // The reason quotes what the player sent: nothing a phone would hide or
    // act on goes back, and no more of it than a line.
    let reason: String = reason
        .chars()
        .filter(|&c| !crate::phone::is_hidden(c))
        .take(100)
        .collect();
    let head = match (lang, reason.is_empty()) {
        (Lang::Ru, true) => "Neponyatnyi xod.".to_string(),
        (Lang::En, true) => "Cannot read that move.".to_string(),
        (Lang::Ru, false) => format!("Neponyatnyi xod: {reason}."),
        (Lang::En, false) => format!("Cannot read that move: {reason}."),
    };
    let with_help = format!("{head} {move_help}");
    if crate::encoding::analyse(&with_help).parts <= 1 {
        return with_help;
    }
    format!(
        "{head} {}",
        lang.pick("HELP - kody.", "HELP lists the codes.")
    )
}

pub fn resigned(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Vy sdalis.".into(),
        Lang::En => "You resigned.".into(),
    }
}

pub fn rematch_waiting(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Zayavka na revansh prinyata. Zhdem ostalnyh igrokov.".into(),
        Lang::En => "Rematch request received. Waiting for the other players.".into(),
    }
}

pub fn rematch_asked(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("{nick} predlagaet revansh. Otpravte PA."),
        Lang::En => format!("{nick} asks for a rematch. Text PA to accept."),
    }
}

pub fn rematch_expired(lang: Lang) -> String {
    match lang {
        Lang::Ru => {
            "Ne vse igroki soglasilis na revansh. Vasha zayavka perevedena v obychnuyu.".into()
        }
        Lang::En => {
            "Not everyone accepted the rematch. Your request is now an ordinary play request."
                .into()
        }
    }
}

pub fn rematch_closed(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Vremya dlya revansha isteklo. Dlya novoi igry otpravte P na {}.",
            n.play
        ),
        Lang::En => format!(
            "The time for a rematch is over. For a new match, text P to {}.",
            n.play
        ),
    }
}

pub fn no_rematch(lang: Lang, n: Numbers<'_>) -> String {
    match lang {
        Lang::Ru => format!(
            "Revansh nevozmozhen: net nedavnego matcha. Dlya igry otpravte P na {}.",
            n.play
        ),
        Lang::En => format!(
            "No rematch: you have no recent match. To play, text P to {}.",
            n.play
        ),
    }
}

pub fn message_from(nick: &str, text: &str) -> String {
    format!("{nick}: {text}")
}

/// A relayed message over its size; `room`: the characters it may have
/// (in the encoding its characters need).
pub fn message_too_long(lang: Lang, room: usize) -> String {
    match lang {
        Lang::Ru => {
            format!("Soobshchenie slishkom dlinnoe: ne bolee {room} simvolov. Ne otpravleno.")
        }
        Lang::En => format!("Message too long: at most {room} characters. Not sent."),
    }
}

pub fn message_sent(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("Soobshchenie dlya {nick} otpravleno."),
        Lang::En => format!("Message to {nick} sent."),
    }
}

pub fn message_not_allowed(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Soobshchenie mozhno otpravit odin raz igroku poslednego matcha v techenie 30 minut posle nego.".into(),
        Lang::En => "You may send one message to a player of your last match, within 30 minutes of its end.".into(),
    }
}

/// `S` between a virtual phone of the training hall and a real one, which
/// the operator keeps apart (`hall.meet_real_players`).
pub fn message_across_the_hall(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Soobshcheniya mezhdu trenirovochnym zalom i nastoyashchimi telefonami ne peresylayutsya. Ne otpravleno.".into(),
        Lang::En => "Messages between the training hall and real phones are not passed on. Not sent.".into(),
    }
}

pub fn message_undeliverable(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!(
            "{nick} seichas ne poluchaet soobshchenii. Vashe soobshchenie ne otpravleno, ego mozhno otpravit pozzhe."
        ),
        Lang::En => format!(
            "{nick} is not receiving messages now. Yours was not sent; you may send it later."
        ),
    }
}

pub fn unknown_nick(lang: Lang, nick: &str) -> String {
    match lang {
        Lang::Ru => format!("Igrok {nick} ne naiden."),
        Lang::En => format!("No player called {nick}."),
    }
}

/// A match whose record is damaged is ended; its players may play on.
pub fn match_voided(lang: Lang) -> String {
    lang.pick(
        "Vash match prervan iz-za sboya i ne zaschitan. Prostite! Dlya novoi igry otpravte P.",
        "Your match was stopped by a fault and does not count. Sorry! Text P for a new one.",
    )
    .into()
}

/// A phone over its flood limit: its texts are dropped until it slows
/// down, which at the default limit is under a second (one notice a window).
pub fn slow_down(lang: Lang) -> String {
    lang.pick(
        "Slishkom mnogo soobshchenii podryad: chast ne prochitana. Otpravte ix snova medlennee (odno v sekundu - mozhno).",
        "Too many texts in a row: some were not read. Send them again more slowly (one a second is fine).",
    )
    .to_string()
}

/// A missed deadline in a game whose null move is only a reminder.
pub fn turn_reminder(lang: Lang, missed: u32, max: u32) -> String {
    match lang {
        Lang::Ru => format!(
            "Vash xod! Propushcheno xodov podryad: {missed} iz {max}, posle {max} - porazhenie. B - pole."
        ),
        Lang::En => format!(
            "Your move! Missed turns in a row: {missed} of {max}; after {max} you lose. B - board."
        ),
    }
}

pub fn no_history(lang: Lang) -> String {
    lang.pick("U vas eshche ne bylo igr.", "You have played no match yet.")
        .into()
}

pub fn history_unavailable(lang: Lang) -> String {
    lang.pick(
        "Zapis etogo matcha povrezhdena i ne mozhet byt pokazana.",
        "This match's record is damaged and cannot be shown.",
    )
    .into()
}

pub fn no_moves_yet(lang: Lang) -> String {
    lang.pick("Xodov eshche ne bylo.", "No moves yet.").into()
}

pub fn no_such_step(lang: Lang, step: usize) -> String {
    match lang {
        Lang::Ru => format!("Xoda {step} eshche ne bylo."),
        Lang::En => format!("There is no step {step} yet."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::platform::catalog::Catalog;

    /// `HELP` in a match is one SMS in every game and both languages, with
    /// the game's codes whole; so is a move the game cannot read, with the
    /// reader's reason.
    #[test]
    fn in_match_help_and_an_unreadable_move_are_one_sms() {
        use crate::encoding::analyse;
        let catalog = Catalog::new(&Config::default()).with_game(crate::games::trial::Trial);
        for game in catalog.games() {
            for lang in [Lang::Ru, Lang::En] {
                let codes = game.move_help(lang);
                let help = help_in_match(lang, &codes, game.has_state_steps());
                assert_eq!(analyse(&help).parts, 1, "{}: {help}", game.code());
                assert!(help.starts_with(&codes), "{}: {help}", game.code());
                let reason = "\"k1\" is no cell on this board";
                let refusal = bad_move(lang, reason, &codes);
                assert_eq!(analyse(&refusal).parts, 1, "{}: {refusal}", game.code());
                assert!(refusal.contains(reason), "{refusal}");
                let in_match = already_in_match(lang, game.name(lang));
                assert_eq!(analyse(&in_match).parts, 1, "{in_match}");
            }
        }
    }

    /// Round 3's refusals are one SMS in both languages, a nick of the
    /// longest kind included.
    #[test]
    fn a_reserved_nick_and_a_message_across_the_hall_are_one_sms() {
        use crate::encoding::analyse;
        for lang in [Lang::Ru, Lang::En] {
            for why in [
                ReservedFor::Staff,
                ReservedFor::Robots,
                ReservedFor::Commands,
            ] {
                let text = nick_reserved(lang, "Administration16", why);
                assert_eq!(analyse(&text).parts, 1, "{text}");
            }
            let text = message_across_the_hall(lang);
            assert_eq!(analyse(&text).parts, 1, "{text}");
        }
    }
}
