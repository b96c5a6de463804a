//! House rules, checked on the source tree itself (as rust-analyzer's tidy
//! test does): the games and the text below them stay pure (by their
//! dependency lists), every store method is exercised on both backends, every source file says what it is, the code map in
//! `docs/ARCHITECTURE.md` names files that exist and every module there is,
//! and every SQLite write of what its writer keeps copies of is known.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

/// The workspace's crates below the service: every folder of `crates/`.
fn crates() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// The crates below the service and what each may depend on, with the
/// features it may ask of each: the compiler keeps them pure only while their
/// dependencies have no I/O, clock, thread or entropy to offer. The text has
/// Fluent's parser and formatter only; the games add serialisation of their settings, their seeded
/// generator (no `std`: no thread or OS generator), errors, numbers and SVG
/// (no web framework's feature). Dev-dependencies are free: tests may do as
/// they like.
const PURE_CRATES: &[(&str, Allowed)] = &[
    (
        "crates/text",
        &[
            ("fluent-bundle", &[]),
            ("fluent-syntax", &[]),
            ("unic-langid", &[]),
        ],
    ),
    (
        "crates/games",
        &[
            ("smsarena-text", &[]),
            ("serde", &["derive"]),
            ("rand", &["alloc"]),
            ("rand_chacha", &[]),
            ("thiserror", &[]),
            ("itoa", &[]),
            ("maud", &[]),
        ],
    ),
];

/// The dependencies a crate may have, each with the features it may ask of it.
type Allowed = &'static [(&'static str, &'static [&'static str])];

/// Dependencies whose default features reach the OS (rand's thread and OS
/// generators) or a web framework: a pure crate takes them without.
const NO_DEFAULT_FEATURES: &[&str] = &["rand", "rand_chacha", "maud"];

/// Every dependency table of a manifest that builds into the crate (plain,
/// build and per-target; not dev), as (where, name, its entry).
fn build_dependencies(manifest: &toml::Table) -> Vec<(String, String, toml::Value)> {
    let mut tables: Vec<(String, &toml::Table)> = Vec::new();
    for key in ["dependencies", "build-dependencies"] {
        if let Some(t) = manifest.get(key).and_then(|v| v.as_table()) {
            tables.push((key.to_string(), t));
        }
    }
    if let Some(targets) = manifest.get("target").and_then(|v| v.as_table()) {
        for (cfg, target) in targets {
            for key in ["dependencies", "build-dependencies"] {
                if let Some(t) = target.get(key).and_then(|v| v.as_table()) {
                    tables.push((format!("target.{cfg}.{key}"), t));
                }
            }
        }
    }
    tables
        .into_iter()
        .flat_map(|(at, t)| {
            t.iter()
                .map(move |(name, entry)| (at.clone(), name.clone(), entry.clone()))
        })
        .collect()
}

fn read_manifest(path: &Path) -> toml::Table {
    let text = fs::read_to_string(path).unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", relative(path)))
}

/// The games and the text are pure by their dependency lists: each lists
/// only what `PURE_CRATES` allows it, with no more features than allowed,
/// and without the default features that would reach the OS.
#[test]
fn pure_crates_depend_only_on_pure_crates() {
    let root_manifest = read_manifest(&root().join("Cargo.toml"));
    let shared = root_manifest
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.as_table())
        .cloned()
        .unwrap_or_default();
    let mut offences = Vec::new();
    for (krate, allowed) in PURE_CRATES {
        let manifest = read_manifest(&root().join(krate).join("Cargo.toml"));
        for (at, name, entry) in build_dependencies(&manifest) {
            let package = entry
                .get("package")
                .and_then(|p| p.as_str())
                .unwrap_or(&name)
                .to_string();
            let Some((_, features_allowed)) = allowed.iter().find(|(n, _)| *n == package) else {
                offences.push(format!("{krate}: [{at}] {name}, not on the list"));
                continue;
            };
            // A `workspace = true` entry takes the root's version, features and
            // default features, and may add features of its own.
            let inherited = entry
                .get("workspace")
                .and_then(|w| w.as_bool())
                .unwrap_or(false);
            let base = if inherited {
                shared.get(&name).cloned()
            } else {
                None
            };
            let features = |v: Option<&toml::Value>| -> Vec<String> {
                v.and_then(|v| v.get("features"))
                    .and_then(|f| f.as_array())
                    .map(|f| {
                        f.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let mut asked = features(Some(&entry));
            asked.extend(features(base.as_ref()));
            for feature in asked {
                if !features_allowed.contains(&feature.as_str()) {
                    offences.push(format!("{krate}: {name} with feature {feature}"));
                }
            }
            if NO_DEFAULT_FEATURES.contains(&package.as_str()) {
                let said = |v: Option<&toml::Value>| {
                    let v = v?;
                    let said = v.get("default-features").or(v.get("default_features"));
                    said.and_then(|d| d.as_bool())
                };
                let defaults = said(Some(&entry)).or(said(base.as_ref())).unwrap_or(true);
                if defaults {
                    offences.push(format!("{krate}: {name} with its default features"));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the crates below the service must stay pure (tests/service/tidy.rs, PURE_CRATES):\n{}",
        offences.join("\n")
    );
}

/// What std offers every crate and a pure one may not use: I/O, a clock,
/// the environment, processes and threads; and the ways to entropy the
/// games' rand could offer if it were built with its `std` feature, as the
/// service's build of it is. Time and entropy enter a game only as
/// arguments: a clock through `Budget`, randomness through the match's
/// seeded generator.
const NOT_IN_PURE_CRATES: &[&str] = &[
    "std::time",
    "std::fs",
    "std::io",
    "std::net",
    "std::env",
    "std::process",
    "std::thread",
    "SystemTime",
    "Instant::now",
    "rand::random",
    "thread_rng",
    "rand::rng(",
    "OsRng",
];

#[test]
fn pure_crates_use_no_io_of_std() {
    let mut offences = Vec::new();
    for (krate, _) in PURE_CRATES {
        for file in rust_files(&root().join(krate).join("src")) {
            let text = fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for banned in NOT_IN_PURE_CRATES {
                    let word_start = code.match_indices(banned).any(|(i, _)| {
                        let before = code[..i].chars().last();
                        let after = code[i + banned.len()..].chars().next();
                        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    });
                    if word_start {
                        offences.push(format!("{}:{}: {banned}", relative(&file), n + 1));
                    }
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the crates below the service must stay pure:\n{}",
        offences.join("\n")
    );
}

/// The methods of each trait in `src/store/tx.rs` and `src/store/console.rs`, by trait name.
fn store_methods() -> Vec<(String, Vec<String>)> {
    let text = [
        "src/store/tx.rs",
        "src/store/console.rs",
        "src/store/standings.rs",
    ]
    .map(|f| fs::read_to_string(root().join(f)).unwrap())
    .join("\n");
    let mut traits: Vec<(String, Vec<String>)> = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if raw == "}" {
            // A trait's end: what follows, to the next trait, is not its methods.
            traits.push(("(outside)".into(), Vec::new()));
            continue;
        }
        if line == "#[cfg(test)]" {
            // A file's unit tests: no more trait methods below.
            traits.push(("(tests)".into(), Vec::new()));
            continue;
        }
        if let Some(rest) = line.strip_prefix("pub trait ") {
            let name = rest.split([' ', '{', ':']).next().unwrap().to_string();
            traits.push((name, Vec::new()));
        } else if let Some(rest) = line.strip_prefix("fn ") {
            let name = rest.split(['(', '<']).next().unwrap().to_string();
            if let Some(section) = traits.last_mut() {
                section.1.push(name);
            }
        }
    }
    traits
}

#[test]
fn every_store_method_is_exercised_by_the_store_tests() {
    let tests: String = fs::read_to_string(root().join("tests/service/store.rs"))
        .unwrap()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let traits = store_methods();
    let handles: Vec<String> = traits
        .iter()
        .find(|(t, _)| t == "Tx")
        .expect("the Tx trait")
        .1
        .clone();
    let mut missing = Vec::new();
    for (name, methods) in &traits {
        for method in methods {
            let call = match name.as_str() {
                "Tx" | "(tests)" | "(outside)" => continue,
                // The read side runs in `store.read(|r| ...)`.
                "Read" => format!("r.{method}("),
                // The console's handles, on both sides.
                "ConsoleRead" | "ConsoleWrite" => format!(".console().{method}("),
                "StandingsRead" | "Standings" => format!(".standings().{method}("),
                concern => {
                    let handle = concern.to_lowercase();
                    assert!(handles.contains(&handle), "Tx has a handle for {concern}");
                    format!(".{handle}().{method}(")
                }
            };
            if !tests.contains(&call) {
                missing.push(format!("{name}::{method} ({call})"));
            }
        }
    }
    assert!(
        traits.iter().map(|(_, m)| m.len()).sum::<usize>() > 30,
        "the trait parser found the methods"
    );
    assert!(
        missing.is_empty(),
        "tests/service/store.rs exercises no call of:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_source_file_opens_with_a_summary_line() {
    let mut files = rust_files(&root().join("src"));
    for krate in crates() {
        files.extend(rust_files(&krate.join("src")));
    }
    files.extend(rust_files(&root().join("tests")));
    files.extend(rust_files(&root().join("crates/bench/benches")));
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap();
            !text.starts_with("//! ")
        })
        .map(|f| relative(f))
        .collect();
    assert!(
        missing.is_empty(),
        "no //! line atop:\n{}",
        missing.join("\n")
    );
}

/// The paths the code map of `docs/ARCHITECTURE.md` names.
fn code_map_paths() -> Vec<String> {
    let text = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let section = text
        .split("## Code map")
        .nth(1)
        .expect("ARCHITECTURE.md has a code map")
        .split("\n## ")
        .next()
        .unwrap();
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split(", "))
        .map(str::trim)
        .filter(|p| {
            [
                "src/",
                "crates/",
                "tests/",
                "measure/",
                "migrations/",
                "config/",
                "docs/",
                "data/",
            ]
            .iter()
            .any(|dir| p.starts_with(dir))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_code_map_names_files_that_exist_and_every_module() {
    let paths = code_map_paths();
    assert!(paths.len() > 20, "the code map lists the tree");
    for path in &paths {
        // `crates/games/src/<game>/` names a folder of such things.
        let existing = match path.find('<') {
            Some(i) => path[..i].trim_end_matches('/').to_string(),
            None => path.trim_end_matches('/').to_string(),
        };
        assert!(
            root().join(&existing).exists(),
            "the code map names {path}, which does not exist"
        );
    }
    // Every module of every crate is on the map: each file and folder of its
    // `src/` and of their folders one level down.
    let mut modules = Vec::new();
    let mut sources = vec![root().join("src")];
    sources.extend(crates().iter().map(|c| c.join("src")));
    for src in sources {
        for entry in fs::read_dir(src).unwrap().flatten() {
            let path = entry.path();
            modules.push(path.clone());
            if path.is_dir() {
                for inner in fs::read_dir(&path).unwrap().flatten() {
                    modules.push(inner.path());
                }
            }
        }
    }
    let unmapped: Vec<String> = modules
        .iter()
        .map(|m| relative(m))
        .filter(|m| !m.ends_with("/mod.rs") && !m.ends_with("lib.rs"))
        .filter(|m| {
            !paths.iter().any(|p| {
                let p = p.trim_end_matches('/');
                let stem = m.trim_end_matches(".rs");
                p == m.as_str()
                    || p == stem
                    || m.starts_with(&format!("{p}/"))
                    || p.starts_with(&format!("{m}/"))
                    || (p.contains('<') && m.starts_with(&p[..p.find('<').unwrap()]))
            })
        })
        .collect();
    assert!(
        unmapped.is_empty(),
        "docs/ARCHITECTURE.md's code map does not mention:\n{}",
        unmapped.join("\n")
    );
}

/// Where the games live: a folder each, in their own crate.
const GAMES: &str = "crates/games/src";

/// The games: every folder of `crates/games/src/` but the platform's own trial game.
fn game_folders() -> Vec<String> {
    let mut games: Vec<String> = fs::read_dir(root().join(GAMES))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "trial")
        .collect();
    games.sort();
    games
}

/// What each game carries besides its rules, so that a game added is a game
/// guided, tested, benched and fuzzed: the per-game lists nothing else
/// enforces (the hostile-text test iterates over the catalog itself).
#[test]
fn every_game_has_its_guide_tests_bench_and_fuzz_target() {
    let games = game_folders();
    let config = smsarena::config::Config::default();
    let catalog = smsarena::platform::catalog::Catalog::new(&config);
    assert_eq!(
        catalog.games().count(),
        games.len(),
        "the catalog hosts one game per folder of {GAMES}/: {games:?} against {catalog:?}"
    );
    let bench_cargo = fs::read_to_string(root().join("crates/bench/Cargo.toml")).unwrap();
    let fuzz_cargo = fs::read_to_string(root().join("fuzz/Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for game in &games {
        let guide = format!("docs/games/{game}.md");
        let wanted = [
            guide.clone(),
            format!("{GAMES}/{game}/tests/mod.rs"),
            format!("tests/service/{game}.rs"),
            format!("crates/bench/benches/{game}.rs"),
            format!("fuzz/fuzz_targets/{game}.rs"),
        ];
        for path in wanted {
            if !root().join(&path).is_file() {
                missing.push(path);
            }
        }
        let corpus = root().join(format!("fuzz/corpus/{game}"));
        if fs::read_dir(&corpus).map_or(true, |mut d| d.next().is_none()) {
            missing.push(format!("fuzz/corpus/{game}/ (a seed input)"));
        }
        if !bench_cargo.contains(&format!("[[bench]]\nname = \"{game}\"")) {
            missing.push(format!("[[bench]] {game} in crates/bench/Cargo.toml"));
        }
        if !fuzz_cargo.contains(&format!("name = \"{game}\"")) {
            missing.push(format!("[[bin]] {game} in fuzz/Cargo.toml"));
        }
        // The guide the catalog carries is the file players read.
        if let Ok(text) = fs::read_to_string(root().join(&guide))
            && !catalog.games().any(|g| g.guide() == text)
        {
            missing.push(format!("{guide} as a catalog game's GUIDE"));
        }
    }
    assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
}

/// One layout for every game's unit tests: `tests/` beside the rules, not
/// `*_tests.rs` files among them.
#[test]
fn game_tests_live_in_their_tests_folder() {
    let stray: Vec<String> = rust_files(&root().join(GAMES))
        .iter()
        .map(|f| relative(f))
        .filter(|f| !f.contains("/tests/"))
        .filter(|f| {
            let name = f.rsplit('/').next().unwrap();
            name.ends_with("_tests.rs") || name == "tests.rs" || name == "props.rs"
        })
        .collect();
    assert!(
        stray.is_empty(),
        "test modules outside a tests/ folder:\n{}",
        stray.join("\n")
    );
}

/// The sibling modules a platform file names through `super::` or
/// `crate::platform::` (in `use` lines and paths alike).
fn platform_references(text: &str, siblings: &[String]) -> Vec<String> {
    references(text, &["super::", "crate::platform::"], siblings)
}

/// The names of `known` that `text` reaches through any of `prefixes`
/// (`prefix::name`, or `prefix::{a, name::b}`), each once.
fn references(text: &str, prefixes: &[&str], known: &[String]) -> Vec<String> {
    let mut named = Vec::new();
    for prefix in prefixes {
        for (i, _) in text.match_indices(prefix) {
            let rest = &text[i + prefix.len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group[..group.find('}').unwrap_or(group.len())]
                    .split(',')
                    .collect(),
                None => vec![rest],
            };
            for name in names {
                let ident: String = name
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if known.contains(&ident) && !named.contains(&ident) {
                    named.push(ident);
                }
            }
        }
    }
    named
}

/// Whether `to` is reached from `from` through `edges`, depth first.
fn reaches(from: &str, to: &str, edges: &[(String, Vec<String>)], seen: &mut Vec<String>) -> bool {
    let Some((_, next)) = edges.iter().find(|(n, _)| n == from) else {
        return false;
    };
    for n in next {
        if n == to {
            return true;
        }
        if !seen.contains(n) {
            seen.push(n.clone());
            if reaches(n, to, edges, seen) {
                return true;
            }
        }
    }
    false
}

/// No two of the service's top-level modules import each other through any
/// chain, test modules and doc links included: each rests on those below it,
/// so any one can be read with only what lies under it. Printed, lowest
/// first, is the order they stand in (`cargo test --test service tidy --
/// --nocapture`).
#[test]
fn the_services_top_level_modules_have_no_import_circles() {
    let src = root().join("src");
    let mut modules: Vec<(String, PathBuf)> = fs::read_dir(&src)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            if p.is_dir() {
                name != "bin"
            } else {
                name.ends_with(".rs") && name != "lib.rs" && name != "main.rs"
            }
        })
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    modules.sort();
    let names: Vec<String> = modules.iter().map(|(n, _)| n.clone()).collect();
    let edges: Vec<(String, Vec<String>)> = modules
        .iter()
        .map(|(name, path)| {
            let files = if path.is_dir() {
                rust_files(path)
            } else {
                vec![path.clone()]
            };
            let text: String = files
                .iter()
                .map(|f| fs::read_to_string(f).unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            let mut refs = references(&text, &["crate::"], &names);
            refs.retain(|r| r != name);
            refs.sort();
            (name.clone(), refs)
        })
        .collect();
    let circles: Vec<&String> = names
        .iter()
        .filter(|n| reaches(n, n, &edges, &mut Vec::new()))
        .collect();
    assert!(
        circles.is_empty(),
        "top-level modules on an import circle: {circles:?}\n{edges:#?}"
    );
    // The order they stand in: each after everything it imports.
    let mut placed: Vec<&str> = Vec::new();
    while placed.len() < edges.len() {
        let mut layer: Vec<&str> = edges
            .iter()
            .filter(|(n, refs)| {
                !placed.contains(&n.as_str()) && refs.iter().all(|r| placed.contains(&r.as_str()))
            })
            .map(|(n, _)| n.as_str())
            .collect();
        layer.sort();
        eprintln!("{}", layer.join(" "));
        placed.extend(layer);
    }
}

/// No two modules of the platform import each other, through any chain:
/// a circle means neither can be read, changed or tested without the other.
#[test]
fn the_platform_has_no_import_circles() {
    let dir = root().join("src/platform");
    let mut modules: Vec<(String, PathBuf)> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap() != "mod.rs")
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, p)
        })
        .collect();
    modules.sort();
    let names: Vec<String> = modules.iter().map(|(n, _)| n.clone()).collect();
    let edges: Vec<(String, Vec<String>)> = modules
        .iter()
        .map(|(name, path)| {
            // A folder module (`commands/`) reaches its siblings from one
            // level further down: `super::super::x` or `crate::platform::x`.
            let text = if path.is_dir() {
                rust_files(path)
                    .iter()
                    .map(|f| {
                        fs::read_to_string(f)
                            .unwrap()
                            .replace("super::super::", "crate::platform::")
                    })
                    .filter(|t| !t.is_empty())
                    .map(|t| t.replace("super::", "self::"))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                fs::read_to_string(path).unwrap()
            };
            let mut refs = platform_references(&text, &names);
            refs.retain(|r| r != name);
            (name.clone(), refs)
        })
        .collect();
    let circles: Vec<&String> = names
        .iter()
        .filter(|n| reaches(n, n, &edges, &mut Vec::new()))
        .collect();
    assert!(
        circles.is_empty(),
        "platform modules on an import circle: {circles:?}\n{edges:#?}"
    );
}

/// No store file is over 500 lines: the store is the part most read when
/// something goes wrong, and a long file there hid methods written twice.
#[test]
fn no_store_file_is_over_500_lines() {
    let long: Vec<String> = rust_files(&root().join("src/store"))
        .iter()
        .map(|f| (relative(f), fs::read_to_string(f).unwrap().lines().count()))
        .filter(|(_, lines)| *lines > 500)
        .map(|(f, lines)| format!("{f}: {lines} lines"))
        .collect();
    assert!(long.is_empty(), "store files over 500 lines: {long:?}");
}

/// SQLite's writer keeps copies of seats, players and each player's newest
/// match (`src/store/sqlite/copies.rs`), right only while every statement
/// that writes those tables is one its transaction tells the copies of.
/// So the writes are listed here: a new one fails this test until it tells
/// the copies (`src/store/sqlite/tx.rs`) and joins the list.
#[test]
fn every_sqlite_write_of_what_the_writer_copies_is_known() {
    const TABLES: &[&str] = &["PLAYERS", "MATCH_SEATS", "MATCHES"];
    const VERBS: &[&str] = &["UPDATE ", "INSERT INTO ", "REPLACE INTO ", "DELETE FROM "];
    let mut found = Vec::new();
    for file in rust_files(&root().join("src")) {
        let path = relative(&file);
        if path.starts_with("src/store/postgres/") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        let sql = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase();
        for verb in VERBS {
            for table in TABLES {
                let write = format!("{verb}{table}");
                for (at, _) in sql.match_indices(&write) {
                    let next = sql[at + write.len()..].chars().next();
                    if !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        found.push(format!("{path}: {write}"));
                    }
                }
            }
        }
    }
    found.sort();
    assert_eq!(
        found,
        [
            // SAVE_MATCH and SAVE_MATCH_IN_PLAY: the copy takes the save.
            "src/store/statements/sqlite.rs: INSERT INTO MATCH_SEATS",
            "src/store/statements/sqlite.rs: UPDATE MATCHES",
            "src/store/statements/sqlite.rs: UPDATE MATCHES",
            "src/store/statements/sqlite.rs: UPDATE MATCH_SEATS",
            "src/store/statements/sqlite.rs: UPDATE PLAYERS",
            // INSERT_MATCH (its SQLite and PostgreSQL texts): the copy takes
            // the new match (`match_made`).
            "src/store/statements/writes.rs: INSERT INTO MATCHES",
            "src/store/statements/writes.rs: INSERT INTO MATCHES",
            // A new player: no copy holds him yet (one not found is not kept).
            "src/store/statements/writes.rs: INSERT INTO PLAYERS",
        ],
        "a write of seats, players or matches on SQLite must tell the writer's copies"
    );
}

/// The message ids the code names: the literal after `tr!(lang,` and
/// `said!(`, in every crate's sources.
fn message_ids_in_code() -> BTreeMap<String, String> {
    let mut used = BTreeMap::new();
    let mut dirs = vec![root().join("src")];
    dirs.extend(crates().into_iter().map(|c| c.join("src")));
    for dir in dirs {
        for path in rust_files(&dir) {
            let text = fs::read_to_string(&path).unwrap();
            for (macro_, after_comma) in [("tr!(", true), ("said!(", false)] {
                for (at, _) in text.match_indices(macro_) {
                    // `include_str!(` is no `tr!(`.
                    if text[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                    {
                        continue;
                    }
                    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
                    if text[line_start..at].contains("//") {
                        continue; // a comment's example
                    }
                    let mut rest = &text[at + macro_.len()..];
                    if after_comma {
                        let Some(comma) = rest.find(',') else {
                            continue;
                        };
                        rest = &rest[comma + 1..];
                    }
                    let rest = rest.trim_start();
                    let Some(quoted) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let id: String = quoted.chars().take_while(|&c| c != '"').collect();
                    used.entry(id).or_insert_with(|| relative(&path));
                }
            }
        }
    }
    used
}

/// Each catalog file's message ids, and the messages its messages name
/// (`{ other-message }`), by language folder.
fn catalog_ids() -> BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> {
    let mut out = BTreeMap::new();
    let locales = root().join("locales");
    for lang in fs::read_dir(&locales).unwrap().flatten() {
        let tag = lang.file_name().to_string_lossy().into_owned();
        let (ids, referenced): &mut (BTreeSet<String>, BTreeSet<String>) =
            out.entry(tag).or_default();
        for file in fs::read_dir(lang.path()).unwrap().flatten() {
            let text = fs::read_to_string(file.path()).unwrap();
            for line in text.lines() {
                if let Some((id, _)) = line.split_once(" =")
                    && !id.is_empty()
                    && id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    ids.insert(id.to_string());
                }
                for (at, _) in line.match_indices("{ ") {
                    let name: String = line[at + 2..]
                        .chars()
                        .take_while(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                        .collect();
                    if !name.is_empty() {
                        referenced.insert(name);
                    }
                }
            }
        }
    }
    out
}

/// Every message the code names is in every language's catalog, and every
/// message of a catalog is named by the code (or by another message): a
/// text is neither missing at the moment a player needs it nor kept
/// unused. (That each language has every message, and each fits its SMS
/// budget at its longest, is `smsarena-text`'s check.)
#[test]
fn every_message_the_code_names_is_in_the_catalogs_and_every_message_is_used() {
    let used = message_ids_in_code();
    assert!(used.len() > 50, "the scan found only {} ids", used.len());
    let mut offences = Vec::new();
    for (tag, (ids, referenced)) in catalog_ids() {
        for (id, at) in &used {
            if !ids.contains(id) {
                offences.push(format!("{at} names {id}, which locales/{tag}/ lacks"));
            }
        }
        for id in &ids {
            if !used.contains_key(id) && !referenced.contains(id) {
                offences.push(format!("locales/{tag}/: {id} is never used"));
            }
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

/// No text a player reads is written in code: nothing outside
/// `crates/text/` branches on the language to choose words (`Lang::Ru =>`),
/// and the two-wording helpers the catalogs replaced are gone. (The
/// compiler holds the rest: `Lang` has no `pick`.)
#[test]
fn no_player_text_is_chosen_by_language_in_code() {
    let mut dirs = vec![root().join("src")];
    dirs.extend(
        crates()
            .into_iter()
            .filter(|c| !c.ends_with("text"))
            .map(|c| c.join("src")),
    );
    let mut offences = Vec::new();
    for dir in dirs {
        for path in rust_files(&dir) {
            let text = fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let arm = ["Lang::Ru", "Lang::En", "Lang::Cyr"].iter().any(|l| {
                    line.split(l).skip(1).any(|after| {
                        after.trim_start().starts_with("=>") || after.trim_start().starts_with('|')
                    })
                });
                if arm || line.contains("Plain::new(") || line.contains("NotationError::said(") {
                    offences.push(format!("{}:{}: {}", relative(&path), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "words chosen in code rather than taken from locales/:\n{}",
        offences.join("\n")
    );
}
