//! An operator's text overrides (`[texts] overrides`): read from their folder
//! and installed over the built-in catalogs at start, or refused, naming
//! each message that is wrong.

use std::fs;
use std::path::Path;

use smsarena_text::locales::{Locales, Source, install};

use crate::config::TextsConfig;
use crate::lang::Lang;

/// Reads the override folder, if one is configured, checks it against the
/// catalogs and installs the result for every text this process makes.
/// Call once, before the first text; an error is one line a problem.
pub fn install_overrides(cfg: &TextsConfig) -> Result<(), String> {
    let Some(dir) = &cfg.overrides else {
        return Ok(());
    };
    let sources = read_folder(dir)?;
    let locales = Locales::with_overrides(sources).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        format!("texts.overrides {}: {}", dir.display(), lines.join("\n  "))
    })?;
    if install(locales).is_err() {
        return Err("texts.overrides: the texts were already in use".into());
    }
    Ok(())
}

/// Every `*.ftl` of each language's subfolder; a subfolder that names no
/// language we speak is refused rather than silently unused.
fn read_folder(dir: &Path) -> Result<Vec<Source>, String> {
    let entries = fs::read_dir(dir)
        .map_err(|e| format!("texts.overrides {}: cannot read it: {e}", dir.display()))?;
    let mut sources = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let tag = entry.file_name().to_string_lossy().into_owned();
        if !path.is_dir() {
            continue;
        }
        let Some(lang) = Lang::ALL.into_iter().find(|l| l.locale() == tag) else {
            let known: Vec<&str> = Lang::ALL.iter().map(|l| l.locale()).collect();
            return Err(format!(
                "texts.overrides {}: {tag}/ is no language of ours ({})",
                dir.display(),
                known.join(", ")
            ));
        };
        let mut files: Vec<_> = fs::read_dir(&path)
            .map_err(|e| format!("texts.overrides {}: {e}", path.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
            .collect();
        files.sort();
        for file in files {
            let text = fs::read_to_string(&file)
                .map_err(|e| format!("texts.overrides {}: {e}", file.display()))?;
            let name = format!(
                "{tag}/{}",
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            sources.push(Source { lang, name, text });
        }
    }
    Ok(sources)
}
