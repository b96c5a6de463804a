//! Text handling on every message: the SMS encoding analysis of a board text
//! (done once per queued text), GSM substitution, and command parsing (once per inbound text).
//!
//! `cargo bench -p smsarena-bench --bench text`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use smsarena::encoding;
use smsarena::platform::commands::Command;
use smsarena::platform::compose_text;

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

criterion_group!(benches, bench_encoding, bench_commands);
criterion_main!(benches);
