//! Two `smsarena engine paper-soccer` processes play a whole game; a small
//! referee pipes one's turns to the other and checks each against our rules.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use smsarena::games::paper_soccer::State;
use smsarena::games::paper_soccer::moves::parse_kurnik;

struct Proc {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

fn spawn(level: &str, seed: &str) -> Proc {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smsarena"))
        .args([
            "engine",
            "paper-soccer",
            "--level",
            level,
            "--ms",
            "50",
            "--seed",
            seed,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let input = child.stdin.take().unwrap();
    let output = BufReader::new(child.stdout.take().unwrap());
    Proc {
        child,
        input,
        output,
    }
}

#[test]
fn two_engine_processes_play_to_the_end() {
    for (la, lb) in [("3", "2"), ("2", "3")] {
        let mut engines = [spawn(la, "1"), spawn(lb, "2")];
        let mut state = State::new(8, 10, 0);
        let mut message = "start".to_string();
        let mut mover = 0;
        let mut turns = 0;
        while state.end.is_none() {
            let e = &mut engines[mover];
            let t0 = Instant::now();
            writeln!(e.input, "{message}").unwrap();
            e.input.flush().unwrap();
            let mut line = String::new();
            e.output.read_line(&mut line).unwrap();
            let ms = t0.elapsed().as_millis();
            // The time per turn is measured with the referee in a release
            // build (BENCHMARKS.md); here only that the answer comes.
            assert!(ms < 5_000, "turn took {ms} ms");
            let line = line.trim().to_string();
            // Our own referee: the turn must be whole and legal.
            let dirs = parse_kurnik(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
            let before = state.turns.len();
            for d in dirs {
                assert!(
                    state.end.is_none() && state.turns.len() == before,
                    "{line}: too long"
                );
                state.step(d).unwrap_or_else(|e| panic!("{line}: {e:?}"));
            }
            assert!(
                state.end.is_some() || state.turns.len() > before,
                "{line}: incomplete"
            );
            message = line;
            mover = 1 - mover;
            turns += 1;
            assert!(turns < 500);
        }
        for mut e in engines {
            drop(e.input);
            let status = e.child.wait().unwrap();
            assert!(status.success(), "engine exits cleanly on end of input");
        }
    }
}
