//! Every text a player reads, as Fluent messages in one catalog per language:
//! the embedded defaults (`locales/` at the workspace's root), over which an
//! operator's overrides are laid once they pass the same checks.
//!
//! Code names a message and its arguments (`tr!(lang, "registered", nick =
//! nick)`); the catalog holds the words, plurals and selections. Nothing here
//! reads a file: the service reads the operator's folder and hands the texts
//! in ([`Locales::with_overrides`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

use crate::encoding::analyse;
use crate::lang::Lang;

/// One file of messages in one language: embedded, or an operator's.
#[derive(Clone, Debug)]
pub struct Source {
    pub lang: Lang,
    /// Where it came from, as an error names it (`en/platform.ftl`).
    pub name: String,
    pub text: String,
}

/// The embedded catalogs, file by file.
const EMBEDDED: &[(Lang, &str, &str)] = &[
    (
        Lang::En,
        "en/platform.ftl",
        include_str!("../../../../locales/en/platform.ftl"),
    ),
    (
        Lang::En,
        "en/football.ftl",
        include_str!("../../../../locales/en/football.ftl"),
    ),
    (
        Lang::En,
        "en/intelball.ftl",
        include_str!("../../../../locales/en/intelball.ftl"),
    ),
    (
        Lang::En,
        "en/paper-soccer.ftl",
        include_str!("../../../../locales/en/paper-soccer.ftl"),
    ),
    (
        Lang::En,
        "en/word-battle.ftl",
        include_str!("../../../../locales/en/word-battle.ftl"),
    ),
    (
        Lang::En,
        "en/auto-race.ftl",
        include_str!("../../../../locales/en/auto-race.ftl"),
    ),
    (
        Lang::En,
        "en/games.ftl",
        include_str!("../../../../locales/en/games.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/platform.ftl",
        include_str!("../../../../locales/ru-Latn/platform.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/football.ftl",
        include_str!("../../../../locales/ru-Latn/football.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/intelball.ftl",
        include_str!("../../../../locales/ru-Latn/intelball.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/paper-soccer.ftl",
        include_str!("../../../../locales/ru-Latn/paper-soccer.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/word-battle.ftl",
        include_str!("../../../../locales/ru-Latn/word-battle.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/auto-race.ftl",
        include_str!("../../../../locales/ru-Latn/auto-race.ftl"),
    ),
    (
        Lang::Ru,
        "ru-Latn/games.ftl",
        include_str!("../../../../locales/ru-Latn/games.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/platform.ftl",
        include_str!("../../../../locales/ru/platform.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/football.ftl",
        include_str!("../../../../locales/ru/football.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/intelball.ftl",
        include_str!("../../../../locales/ru/intelball.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/paper-soccer.ftl",
        include_str!("../../../../locales/ru/paper-soccer.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/word-battle.ftl",
        include_str!("../../../../locales/ru/word-battle.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/auto-race.ftl",
        include_str!("../../../../locales/ru/auto-race.ftl"),
    ),
    (
        Lang::Cyr,
        "ru/games.ftl",
        include_str!("../../../../locales/ru/games.ftl"),
    ),
];

mod longest;

/// The longest value each variable a message may name can take, as the
/// games and the platform produce them, one table per catalog file
/// (`longest/`), by the file's name: the budget check renders every message
/// with its own file's table, then the platform's and the games' shared one
/// (`step`, `word`). A variable in none of them is refused by the check, so
/// a new one is measured before it ships.
pub const LONGEST: &[(&str, &[(&str, &str)])] = &[
    ("platform", longest::PLATFORM),
    ("football", longest::FOOTBALL),
    ("intelball", longest::INTELBALL),
    ("paper-soccer", longest::PAPER_SOCCER),
    ("word-battle", longest::WORD_BATTLE),
    ("auto-race", longest::AUTO_RACE),
    ("games", longest::GAMES),
];

/// The tables a message of catalog file `area` is measured by, in order.
fn tables_for(area: &str) -> Vec<&'static [(&'static str, &'static str)]> {
    let mut tables: Vec<_> = LONGEST
        .iter()
        .filter(|(a, _)| *a == area)
        .map(|(_, t)| *t)
        .collect();
    for shared in ["platform", "games"] {
        if shared != area {
            tables.extend(
                LONGEST
                    .iter()
                    .filter(|(a, _)| *a == shared)
                    .map(|(_, t)| *t),
            );
        }
    }
    tables
}

/// A catalog file's area: its name without folder and `.ftl`.
fn area_of(name: &str) -> &str {
    let file = name.rsplit('/').next().unwrap_or(name);
    file.strip_suffix(".ftl").unwrap_or(file)
}

/// Variables whose value the code assembles from other messages (a list of
/// lines, a game's move codes, a refusal's reason) and fits to its budget
/// itself, choosing a shorter form where the whole would not fit (each such
/// place has its own test): the check measures the frame around them, with
/// these empty.
pub const ASSEMBLED: &[&str] = &[
    "items", "codes", "reason", "known", "options", "lines", "you", "legend", "games", "against",
    "finish", "change",
];

/// How a message's argument is given: words or a number (which plural
/// rules select on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    Text(Cow<'a, str>),
    Number(i64),
}

impl Arg<'_> {
    pub fn into_owned(self) -> Arg<'static> {
        match self {
            Arg::Text(s) => Arg::Text(Cow::Owned(s.into_owned())),
            Arg::Number(n) => Arg::Number(n),
        }
    }
}

/// A text named but not yet worded: a message and its arguments, said in
/// whichever language its reader has (a refusal made before anyone knows
/// who will read it). Made with [`said!`](crate::said).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    id: &'static str,
    args: Vec<(&'static str, Arg<'static>)>,
}

impl Said {
    pub fn new(id: &'static str, args: Vec<(&'static str, Arg<'static>)>) -> Said {
        Said { id, args }
    }

    /// The message's id, for logs and tests.
    pub fn id(&self) -> &'static str {
        self.id
    }

    pub fn text(&self, lang: Lang) -> String {
        text(lang, self.id, &self.args)
    }
}

/// A [`Said`]: `said!("id")` or `said!("id", step = 3)`.
#[macro_export]
macro_rules! said {
    ($id:literal $(,)?) => {
        $crate::locales::Said::new($id, Vec::new())
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::locales::Said::new(
            $id,
            vec![$((stringify!($name), $crate::locales::Arg::from($value).into_owned())),+],
        )
    };
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(s))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(s))
    }
}

impl From<String> for Arg<'_> {
    fn from(s: String) -> Self {
        Arg::Text(Cow::Owned(s))
    }
}

impl From<char> for Arg<'_> {
    fn from(c: char) -> Self {
        Arg::Text(Cow::Owned(c.to_string()))
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(n: $t) -> Self {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
number_args!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

/// A text from the installed catalog: `tr!(lang, "id")` or
/// `tr!(lang, "id", nick = nick, count = n)`. The id is a literal, so the
/// catalog check can find every message the code uses.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $id:literal $(,)?) => {
        $crate::locales::text($lang, $id, &[])
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::locales::text(
            $lang,
            $id,
            &[$((stringify!($name), $crate::locales::Arg::from($value))),+],
        )
    };
}

static INSTALLED: OnceLock<Locales> = OnceLock::new();

/// Makes `catalog` the one [`text`] reads, once, before any text is made
/// (the service does at start); the embedded catalog otherwise.
pub fn install(catalog: Locales) -> Result<(), Locales> {
    INSTALLED.set(catalog)
}

/// The catalog texts come from.
pub fn installed() -> &'static Locales {
    INSTALLED.get_or_init(Locales::embedded)
}

/// The SMS part budget of message `id` in `lang` ([`Locales::budget`]).
pub fn budget(lang: Lang, id: &str) -> u32 {
    installed().budget(lang, id)
}

/// Message `id` in `lang`, from the installed catalog.
pub fn text(lang: Lang, id: &str, args: &[(&str, Arg<'_>)]) -> String {
    installed().format(lang, id, args)
}

/// A message that cannot be used, named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file, or the language when the problem is a message it lacks.
    pub at: String,
    /// The message's id, when the problem is one message's.
    pub message: Option<String>,
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.message {
            Some(id) => write!(f, "{}: message {id}: {}", self.at, self.what),
            None => write!(f, "{}: {}", self.at, self.what),
        }
    }
}

/// The messages of every language, ready to format.
pub struct Locales {
    /// Indexed by [`Lang::ALL`]'s order.
    bundles: Vec<FluentBundle<Arc<FluentResource>>>,
    /// Each message's SMS part budget, by language (the built-in one's).
    budgets: Vec<BTreeMap<String, u32>>,
}

impl fmt::Debug for Locales {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Locales").finish_non_exhaustive()
    }
}

fn slot(lang: Lang) -> usize {
    Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0)
}

fn embedded_sources() -> Vec<Source> {
    EMBEDDED
        .iter()
        .map(|&(lang, name, text)| Source {
            lang,
            name: name.to_owned(),
            text: text.to_owned(),
        })
        .collect()
}

fn parse(source: &Source) -> Result<FluentResource, Problem> {
    FluentResource::try_new(source.text.clone()).map_err(|(_, errors)| {
        let what = errors
            .iter()
            .map(|e| {
                let line = source.text[..e.pos.start.min(source.text.len())]
                    .matches('\n')
                    .count()
                    + 1;
                format!("line {line}: {}", e.kind)
            })
            .collect::<Vec<_>>()
            .join("; ");
        Problem {
            at: source.name.clone(),
            message: None,
            what: format!("not Fluent: {what}"),
        }
    })
}

fn new_bundle(lang: Lang) -> FluentBundle<Arc<FluentResource>> {
    let locale = match lang {
        Lang::En => "en",
        Lang::Ru | Lang::Cyr => "ru",
    };
    let mut bundle =
        FluentBundle::new_concurrent(vec![locale.parse().expect("a valid language tag")]);
    // Unicode isolation marks around each argument are not GSM-7: an SMS
    // with them costs UCS-2's 70 characters a part.
    bundle.set_use_isolating(false);
    bundle
}

impl Locales {
    /// The catalogs built into the binary. They pass [`Locales::check`]
    /// (a test holds them to it), so this cannot fail in a shipped build.
    pub fn embedded() -> Locales {
        Locales::with_overrides(Vec::new()).unwrap_or_else(|problems| {
            panic!(
                "the embedded catalogs are broken: {}",
                problems
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })
    }

    /// The embedded catalogs with `overrides` laid over them, message by
    /// message; refused whole, naming each problem, if an override is not
    /// Fluent, names a message the embedded catalog lacks, uses an argument
    /// the message is not given or a message that does not exist, or
    /// exceeds the message's part budget.
    pub fn with_overrides(overrides: Vec<Source>) -> Result<Locales, Vec<Problem>> {
        Locales::build(embedded_sources(), overrides)
    }

    /// `built_in`'s catalogs with `overrides` laid over them.
    fn build(built_in: Vec<Source>, overrides: Vec<Source>) -> Result<Locales, Vec<Problem>> {
        let embedded: Vec<(Source, FluentResource)> = built_in
            .into_iter()
            .map(|s| {
                let r = parse(&s).map_err(|p| vec![p])?;
                Ok((s, r))
            })
            .collect::<Result<_, Vec<Problem>>>()?;
        let mut problems = Vec::new();
        let mut bundles: Vec<_> = Lang::ALL.iter().map(|&l| new_bundle(l)).collect();
        let mut defaults: Vec<BTreeMap<String, MessageShape>> =
            vec![BTreeMap::new(); Lang::ALL.len()];
        for (source, resource) in embedded {
            let area = area_of(&source.name);
            defaults[slot(source.lang)].extend(shapes(&resource).into_iter().map(
                |(id, mut shape)| {
                    shape.area = area.to_owned();
                    (id, shape)
                },
            ));
            if let Err(errors) = bundles[slot(source.lang)].add_resource(Arc::new(resource)) {
                for e in errors {
                    problems.push(Problem {
                        at: source.name.clone(),
                        message: None,
                        what: e.to_string(),
                    });
                }
            }
        }
        for source in overrides {
            let resource = match parse(&source) {
                Ok(r) => r,
                Err(p) => {
                    problems.push(p);
                    continue;
                }
            };
            let known = &defaults[slot(source.lang)];
            for (id, shape) in shapes(&resource) {
                let Some(default) = known.get(&id) else {
                    problems.push(Problem {
                        at: source.name.clone(),
                        message: Some(id),
                        what: "no such message in the catalog (a typo?)".into(),
                    });
                    continue;
                };
                for var in shape.variables.difference(&default.variables) {
                    problems.push(Problem {
                        at: source.name.clone(),
                        message: Some(id.clone()),
                        what: format!(
                            "names ${var}, which this message is not given (it is given: {})",
                            list_or_none(&default.variables)
                        ),
                    });
                }
            }
            bundles[slot(source.lang)].add_resource_overriding(Arc::new(resource));
        }
        let budgets = defaults
            .iter()
            .map(|known| {
                known
                    .iter()
                    .map(|(id, shape)| (id.clone(), shape.parts))
                    .collect()
            })
            .collect();
        let catalog = Locales { bundles, budgets };
        problems.extend(catalog.check_budgets(&defaults));
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(problems)
        }
    }

    /// Every message id of `lang`, sorted.
    pub fn ids(&self, lang: Lang) -> BTreeSet<String> {
        self.budgets[slot(lang)].keys().cloned().collect()
    }

    /// The SMS parts message `id` may take in `lang`: its `.parts`, else 1.
    /// Code that fits a text by leaving detail out fits it to this.
    pub fn budget(&self, lang: Lang, id: &str) -> u32 {
        self.budgets[slot(lang)].get(id).copied().unwrap_or(1)
    }

    /// Message `id` in `lang` with `args`. An id the catalog lacks (which
    /// the catalog check rules out) reads as the id itself rather than fail
    /// a player's turn.
    pub fn format(&self, lang: Lang, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let bundle = &self.bundles[slot(lang)];
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            let value = match value {
                Arg::Text(s) => FluentValue::from(s.as_ref()),
                Arg::Number(n) => FluentValue::from(*n),
            };
            fluent_args.set(*name, value);
        }
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// Each message rendered at its longest within its budget: the
    /// `.parts` attribute of the embedded message (1 when it has none).
    fn check_budgets(&self, defaults: &[BTreeMap<String, MessageShape>]) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (&lang, known) in Lang::ALL.iter().zip(defaults) {
            let bundle = &self.bundles[slot(lang)];
            for (id, default) in known {
                let Some(message) = bundle.get_message(id) else {
                    continue;
                };
                let Some(pattern) = message.value() else {
                    problems.push(Problem {
                        at: lang.locale().into(),
                        message: Some(id.clone()),
                        what: "has no text".into(),
                    });
                    continue;
                };
                match longest(bundle, pattern, &tables_for(&default.area), 0) {
                    Ok(text) => {
                        let parts = analyse(&text).parts;
                        if parts > default.parts {
                            problems.push(Problem {
                                at: lang.locale().into(),
                                message: Some(id.clone()),
                                what: format!(
                                    "takes {parts} SMS parts at its longest, over its budget of {}: {text:?}",
                                    default.parts
                                ),
                            });
                        }
                    }
                    Err(what) => problems.push(Problem {
                        at: lang.locale().into(),
                        message: Some(id.clone()),
                        what,
                    }),
                }
            }
        }
        problems
    }

    /// What makes the embedded catalogs unfit to ship: a message one
    /// language has and another lacks, and what [`with_overrides`] refuses.
    pub fn check() -> Vec<Problem> {
        Locales::check_of(embedded_sources())
    }

    fn check_of(built_in: Vec<Source>) -> Vec<Problem> {
        let catalog = match Locales::build(built_in, Vec::new()) {
            Ok(c) => c,
            Err(problems) => return problems,
        };
        let mut problems = Vec::new();
        let all: BTreeSet<String> = Lang::ALL.iter().flat_map(|&l| catalog.ids(l)).collect();
        for &lang in &Lang::ALL {
            for id in all.difference(&catalog.ids(lang)) {
                problems.push(Problem {
                    at: lang.locale().into(),
                    message: Some(id.clone()),
                    what: "missing in this language".into(),
                });
            }
        }
        problems
    }
}

fn list_or_none(vars: &BTreeSet<String>) -> String {
    if vars.is_empty() {
        "none".into()
    } else {
        vars.iter()
            .map(|v| format!("${v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a message promises its callers: the arguments it reads and the SMS
/// parts it may take.
#[derive(Clone, Debug, Default)]
struct MessageShape {
    variables: BTreeSet<String>,
    parts: u32,
    /// The built-in file it is in (`football`), whose longest values it is
    /// measured by.
    area: String,
}

fn shapes(resource: &FluentResource) -> BTreeMap<String, MessageShape> {
    let mut out = BTreeMap::new();
    for entry in resource.entries() {
        let Entry::Message(message) = entry else {
            continue;
        };
        let mut variables = BTreeSet::new();
        if let Some(value) = &message.value {
            variables_of(value, &mut variables);
        }
        let parts = message
            .attributes
            .iter()
            .find(|a| a.id.name == "parts")
            .and_then(|a| match a.value.elements.as_slice() {
                [PatternElement::TextElement { value }] => value.trim().parse().ok(),
                _ => None,
            })
            .unwrap_or(1);
        out.insert(
            message.id.name.to_string(),
            MessageShape {
                variables,
                parts,
                area: String::new(),
            },
        );
    }
    out
}

fn variables_of(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            variables_in(expression, out);
        }
    }
}

fn variables_in(expression: &Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for v in variants {
                variables_of(&v.value, out);
            }
        }
        Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_variables(a, out);
            }
        }
        InlineExpression::Placeable { expression } => variables_in(expression, out),
        _ => {}
    }
}

/// The pattern at its longest: each argument at its [`LONGEST`] value and
/// each selection at its costliest variant. An error names what cannot be
/// measured (an argument with no longest value, a missing message).
type Tables<'a> = &'a [&'static [(&'static str, &'static str)]];

fn longest(
    bundle: &FluentBundle<Arc<FluentResource>>,
    pattern: &Pattern<&str>,
    tables: Tables<'_>,
    depth: u32,
) -> Result<String, String> {
    if depth > 8 {
        return Err("refers to itself".into());
    }
    let mut out = String::new();
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable { expression } => {
                out.push_str(&longest_expression(bundle, expression, tables, depth)?)
            }
        }
    }
    Ok(out)
}

fn longest_expression(
    bundle: &FluentBundle<Arc<FluentResource>>,
    expression: &Expression<&str>,
    tables: Tables<'_>,
    depth: u32,
) -> Result<String, String> {
    match expression {
        Expression::Select { variants, .. } => {
            let mut best: Option<String> = None;
            for v in variants {
                let text = longest(bundle, &v.value, tables, depth + 1)?;
                let cost = |s: &str| {
                    let a = analyse(s);
                    (a.parts, a.units)
                };
                if best.as_deref().is_none_or(|b| cost(&text) > cost(b)) {
                    best = Some(text);
                }
            }
            Ok(best.unwrap_or_default())
        }
        Expression::Inline(inline) => longest_inline(bundle, inline, tables, depth),
    }
}

fn longest_inline(
    bundle: &FluentBundle<Arc<FluentResource>>,
    inline: &InlineExpression<&str>,
    tables: Tables<'_>,
    depth: u32,
) -> Result<String, String> {
    match inline {
        InlineExpression::StringLiteral { value } | InlineExpression::NumberLiteral { value } => {
            Ok((*value).to_owned())
        }
        InlineExpression::VariableReference { id } if ASSEMBLED.contains(&id.name) => {
            Ok(String::new())
        }
        InlineExpression::VariableReference { id } => tables
            .iter()
            .flat_map(|table| table.iter())
            .find(|(name, _)| *name == id.name)
            .map(|(_, v)| (*v).to_owned())
            .ok_or_else(|| {
                format!(
                    "${} has no longest value to measure it by (locales::LONGEST)",
                    id.name
                )
            }),
        InlineExpression::FunctionReference { arguments, .. } => match arguments.positional.first()
        {
            Some(first) => longest_inline(bundle, first, tables, depth),
            None => Ok(String::new()),
        },
        InlineExpression::MessageReference { id, .. } => {
            let pattern = bundle
                .get_message(id.name)
                .and_then(|m| m.value())
                .ok_or_else(|| format!("refers to message {}, which does not exist", id.name))?;
            longest(bundle, pattern, tables, depth + 1)
        }
        InlineExpression::TermReference { id, .. } => Err(format!(
            "refers to term -{}: terms are not used in these catalogs",
            id.name
        )),
        InlineExpression::Placeable { expression } => {
            longest_expression(bundle, expression, tables, depth)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(lang: Lang, text: &str) -> Source {
        Source {
            lang,
            name: format!("{}/override.ftl", lang.locale()),
            text: text.into(),
        }
    }

    #[test]
    fn the_embedded_catalogs_are_whole_and_within_their_budgets() {
        let problems = Locales::check();
        assert!(
            problems.is_empty(),
            "{}",
            problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// The check fails on a message one language lacks and on one over its
    /// budget at its longest (a nick of 16 letters), naming each.
    #[test]
    fn the_check_names_a_missing_and_an_over_long_message() {
        let catalogs = |en: &str, ru: &str| {
            Lang::ALL
                .iter()
                .map(|&lang| Source {
                    lang,
                    name: format!("{}/platform.ftl", lang.locale()),
                    text: if lang == Lang::En { en } else { ru }.to_owned(),
                })
                .collect::<Vec<_>>()
        };
        let said = |problems: Vec<Problem>| {
            problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let whole = "hello = Hello, { $nick }.\nbye = Bye.\n";
        assert_eq!(said(Locales::check_of(catalogs(whole, whole))), "");

        let missing = said(Locales::check_of(catalogs(
            whole,
            "hello = Privet, { $nick }.\n",
        )));
        assert!(
            missing.contains("ru-Latn: message bye: missing in this language"),
            "{missing}"
        );
        assert!(
            missing.contains("ru: message bye: missing in this language"),
            "{missing}"
        );

        let long = format!(
            "hello = {} {{ $nick }}.\nbye = Bye.\n",
            "Hello there, ".repeat(11)
        );
        let over = said(Locales::check_of(catalogs(&long, whole)));
        assert!(
            over.contains("en: message hello: takes 2 SMS parts at its longest"),
            "{over}"
        );
        assert!(!over.contains("ru"), "{over}");
    }

    #[test]
    fn an_override_replaces_one_message_and_leaves_the_rest() {
        let catalog = Locales::with_overrides(vec![source(
            Lang::En,
            "registered = Welcome aboard, { $nick }! Text P to { $play_number } to play.\n",
        )])
        .unwrap();
        let args = [
            ("nick", Arg::from("ann")),
            ("play_number", Arg::from("2220")),
        ];
        assert_eq!(
            catalog.format(Lang::En, "registered", &args),
            "Welcome aboard, ann! Text P to 2220 to play."
        );
        assert_eq!(
            catalog.format(Lang::Ru, "registered", &args),
            Locales::embedded().format(Lang::Ru, "registered", &args)
        );
    }

    #[test]
    fn an_override_is_refused_naming_the_message_it_breaks() {
        let cases = [
            (
                "registered = Hi { $nik }.\n",
                "message registered: names $nik",
            ),
            ("registred = Hi.\n", "message registred: no such message"),
            ("registered = { $nick ->\n", "not Fluent: line 2"),
            (
                &format!("registered = {}\n", "long ".repeat(40)),
                "message registered: takes 2 SMS parts",
            ),
        ];
        for (text, expected) in cases {
            let problems = Locales::with_overrides(vec![source(Lang::En, text)]).unwrap_err();
            let said = problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            assert!(said.contains(expected), "{text:?}: {said}");
            assert!(said.starts_with("en"), "{said}");
        }
    }

    #[test]
    fn arguments_are_set_without_isolation_marks() {
        let text = Locales::embedded().format(
            Lang::En,
            "registered",
            &[
                ("nick", Arg::from("ann")),
                ("play_number", Arg::from("2220")),
            ],
        );
        assert!(text.is_ascii(), "{text:?}");
        assert!(text.contains("ann"), "{text}");
    }
}
