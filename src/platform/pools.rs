//! Who may meet whom: the training hall's virtual phones and real phones are seated in no match together and send no `S` to each other, unless the operator lets them meet (`hall.meet_real_players`).
//!
//! Every text one player's action sends another goes to someone he shares
//! a match with (boards, rematch requests, `S`), so keeping the hall out
//! of real players' matches keeps a web visitor from making a real phone
//! get, and the operator pay for, an SMS.

use crate::config::Config;
use crate::phone::is_virtual;
use crate::store::{Player, Pool};

/// The players a player may be seated with, as the lobby reads them.
pub(crate) fn pool_of(cfg: &Config, player: &Player) -> Pool {
    if cfg.hall.meet_real_players {
        Pool::Everyone
    } else if is_virtual(&player.phone) {
        Pool::Hall
    } else {
        Pool::Phones
    }
}

/// Whether two players may share a match or a message.
pub(crate) fn may_meet(cfg: &Config, one: &Player, other: &Player) -> bool {
    pool_of(cfg, one) == pool_of(cfg, other)
}

/// Whether all of these players may share a match: a match of the hall's
/// and real phones together may be left from before the setting was
/// turned off, and is not played again.
pub(crate) fn all_meet(cfg: &Config, players: &[&Player]) -> bool {
    players
        .split_first()
        .is_none_or(|(first, rest)| rest.iter().all(|p| may_meet(cfg, first, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(phone: &str) -> Player {
        Player {
            id: 1,
            phone: phone.to_string(),
            nick: None,
            lang: crate::lang::Lang::En,
            opted_out: false,
            away: false,
        }
    }

    #[test]
    fn hall_phones_meet_only_each_other_unless_the_setting_lets_them_meet_real_ones() {
        let mut cfg = Config::default();
        let (hall, other_hall, real) = (
            player("+99900000001"),
            player("+99900000002"),
            player("+79001234567"),
        );
        assert_eq!(pool_of(&cfg, &hall), Pool::Hall);
        assert_eq!(pool_of(&cfg, &real), Pool::Phones);
        assert!(may_meet(&cfg, &hall, &other_hall));
        assert!(!may_meet(&cfg, &hall, &real) && !may_meet(&cfg, &real, &hall));
        assert!(!all_meet(&cfg, &[&hall, &other_hall, &real]));
        assert!(all_meet(&cfg, &[&hall, &other_hall]));
        cfg.hall.meet_real_players = true;
        assert_eq!(pool_of(&cfg, &hall), Pool::Everyone);
        assert!(may_meet(&cfg, &hall, &real));
        assert!(all_meet(&cfg, &[&hall, &other_hall, &real]));
    }
}
