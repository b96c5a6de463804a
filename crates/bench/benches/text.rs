//! Text handling on every message: the SMS encoding analysis of a board text
//! (done once per queued text), GSM substitution, command parsing (once per
//! inbound text), and a reply worded from the catalogs (once per reply).
//!
//! `cargo bench -p smsarena-bench --bench text`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use smsarena::encoding;
use smsarena::lang::Lang;
use smsarena::platform::commands::Command;
use smsarena::platform::compose_text;
use smsarena::platform::texts::{self, Numbers};

const BOARD: &str = "...22\n.....\n...0.\n..Y1.\n.....\n\nVash xod.";
const FINAL: &str =
    "...22\n.....\n...0.\n..Y1.\n.....\n\nVi pobedili.\nPA - revansh. S nick tekst - soobshchenie.";
const CYRILLIC: &str = "Привет, как дела? Играем в футбол по SMS: ваш ход.";

fn bench_encoding(c: &mut Criterion) {
    let mut group = c.benchmark_group("sms/encoding");
    group.bench_function("analyse board text", |b| {
        b.iter(|| encoding::analyse(black_box(BOARD)))
    });
    group.bench_function("analyse final board text", |b| {
        b.iter(|| encoding::analyse(black_box(FINAL)))
    });
    group.bench_function("analyse Cyrillic (UCS-2)", |b| {
        b.iter(|| encoding::analyse(black_box(CYRILLIC)))
    });
    group.bench_function("gsm_friendly board text", |b| {
        b.iter(|| encoding::gsm_friendly(black_box(BOARD)))
    });
    group.bench_function("compose_text board (queue-time work)", |b| {
        b.iter(|| compose_text("002220", "+79001234567", black_box(BOARD).to_string(), true))
    });
    group.finish();
}

fn bench_commands(c: &mut Criterion) {
    let mut group = c.benchmark_group("command/parse");
    for (name, text) in [
        ("move 6", "6"),
        ("P", "P"),
        ("R nick", "R ronaldo_9"),
        ("S nick text", "S ann good game, see you"),
        ("Cyrillic P", "Р"),
        ("STOP", "stop"),
    ] {
        group.bench_function(name, |b| b.iter(|| Command::parse(black_box(text))));
    }
    group.finish();
}

fn bench_catalog(c: &mut Criterion) {
    let mut group = c.benchmark_group("texts/catalog");
    let numbers = Numbers {
        play: "002227",
        game: "002220",
    };
    for lang in Lang::ALL {
        group.bench_function(format!("registered ({lang})"), |b| {
            b.iter(|| texts::registered(black_box(lang), black_box("ronaldo_9"), numbers))
        });
    }
    group.bench_function("turn reminder, two numbers (EN)", |b| {
        b.iter(|| texts::turn_reminder(black_box(Lang::En), black_box(2), 3))
    });
    group.bench_function("the same, with format! (the words in code, before)", |b| {
        b.iter(|| {
            let (missed, max) = (black_box(2u32), 3u32);
            format!(
                "Your move! Missed turns in a row: {missed} of {max}; after {max} you lose. B - board."
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench_encoding, bench_commands, bench_catalog);
criterion_main!(benches);
