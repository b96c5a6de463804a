//! Weng-Lin's ratings on Glicko's scale. Both systems turn a difference of
//! ratings into a chance of winning through a logistic curve: Glicko's
//! (like Elo's) is `1 / (1 + 10^(-d/400))`, that is `e` raised to
//! `d / 173.7178`; Weng-Lin's is `e` raised to `d / c`, with `c = β√2` for
//! two settled ratings. One Weng-Lin point is therefore `173.7178 / (β√2)`
//! Glicko points, and its 25 is Glicko's 1500: the same chances read alike.

use skillratings::weng_lin::{WengLinConfig, WengLinRating};

use super::Rating;

/// Glicko's scale unit (`400 / ln 10`).
const GLICKO_UNIT: f64 = 173.7178;
/// The middle of each scale.
const GLICKO_MIDDLE: f64 = 1500.0;
const WENG_LIN_MIDDLE: f64 = 25.0;

/// Glicko points per Weng-Lin point.
fn points_per_unit(config: &WengLinConfig) -> f64 {
    GLICKO_UNIT / (config.beta * std::f64::consts::SQRT_2)
}

pub(super) fn to_weng_lin(r: &Rating, config: &WengLinConfig) -> WengLinRating {
    let k = points_per_unit(config);
    WengLinRating {
        rating: WENG_LIN_MIDDLE + (r.rating - GLICKO_MIDDLE) / k,
        uncertainty: r.deviation / k,
    }
}

pub(super) fn from_weng_lin(r: &WengLinRating, volatility: f64, config: &WengLinConfig) -> Rating {
    let k = points_per_unit(config);
    Rating {
        rating: GLICKO_MIDDLE + (r.rating - WENG_LIN_MIDDLE) * k,
        deviation: r.uncertainty * k,
        volatility,
    }
}
