//! Criterion benches: combination generation from the opening and from a
//! crowded mid-game position, and the level-3 search.
//!
//! `cargo bench -p smsarena-bench --bench intelball`

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use smsarena::games::intelball::robot::{self, combos::expand};
use smsarena::games::intelball::{BLUE, Position};
use smsarena::games::{Budget, MatchRng};

/// Twelve players within three columns of the ball, Blue holding it.
const CROWDED: &str = "_S(40)_X()_L(2,6_3,5_g4,2_4,6_5,5_5,7_)_R(3,6_3,8_4,7_g4,11_5,6_6,7_)_B(4,6)_H(L)_T(20)_C(0:0)";

fn benches(c: &mut Criterion) {
    let opening = Position::opening();
    let crowded: Position = CROWDED.parse().expect("crowded position");
    c.bench_function("combinations/opening", |b| {
        b.iter(|| expand(black_box(&opening.field), BLUE).finals.len())
    });
    c.bench_function("combinations/crowded", |b| {
        b.iter(|| expand(black_box(&crowded.field), BLUE).finals.len())
    });
    for (name, pos) in [("level3/opening", &opening), ("level3/crowded", &crowded)] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let budget = Budget::nodes(u64::MAX);
                let mut rng = MatchRng::seed_from_u64(1);
                robot::choose(black_box(pos), 90, 3, &budget, &mut rng)
            })
        });
    }
}

criterion_group! {
    name = intelball;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(intelball);
