//! Finding games on disk (`--scripts`, `$BOARDSCRIPT_SCRIPTS`, ./scripts, the current folder,
//! the built-in games) and `boardscript list`.

use crate::cli::{GameArgs, ListArgs};
use anyhow::Context;
use boardscript_interpreter::text::one_line;
use boardscript_interpreter::{GameSource, GameSpec, ListedGame, TableError};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A folder games are looked for in, and how to name it to people.
pub struct Source {
    pub root: PathBuf,
    /// `./scripts`, `the current folder`, `/path (--scripts)`...: for errors.
    pub name: String,
    /// The line `list` shows above its games.
    pub header: String,
}

/// Where games are looked for, in order. A folder given with `--scripts` (or else in
/// `$BOARDSCRIPT_SCRIPTS`) is the only place; otherwise ./scripts, the game folders in the
/// current folder, and only then the games built in: the scripts of the tree this binary was
/// built from, named as such, so that nobody plays them thinking they are their own.
pub fn sources(given: Option<&Path>) -> Vec<Source> {
    let env = std::env::var_os("BOARDSCRIPT_SCRIPTS").filter(|v| !v.is_empty());
    let given = match (given, env) {
        (Some(dir), _) => Some((dir.to_path_buf(), "--scripts")),
        (None, Some(dir)) => Some((PathBuf::from(dir), "$BOARDSCRIPT_SCRIPTS")),
        (None, None) => None,
    };
    if let Some((dir, from)) = given {
        let name = format!("{} ({from})", one_line(&shown(&dir)));
        let header = format!("games in {name}:");
        return vec![Source {
            root: dir,
            name,
            header,
        }];
    }
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("scripts"), |tree| tree.join("scripts"));
    let built_in_shown = one_line(&shown(&built_in));
    let candidates = [
        (PathBuf::from("scripts"), "./scripts".to_string(), None),
        (PathBuf::from("."), "the current folder".to_string(), None),
        (
            built_in.clone(),
            format!("the built-in games ({built_in_shown})"),
            Some(format!("built-in games ({built_in_shown}):")),
        ),
    ];
    let mut seen: Vec<PathBuf> = vec![];
    let mut out = vec![];
    for (root, name, header) in candidates {
        // The same folder reached twice (run from the tree's own scripts folder) counts once.
        let Ok(real) = root.canonicalize() else {
            continue;
        };
        if !real.is_dir() || seen.contains(&real) {
            continue;
        }
        seen.push(real);
        let header = header.unwrap_or_else(|| format!("games in {name}:"));
        out.push(Source { root, name, header });
    }
    out
}

/// A path as people read it: `a/./b/` is `a/b`.
fn shown(path: &Path) -> String {
    let clean: PathBuf = path.components().collect();
    clean.display().to_string()
}

/// Where game `args.game` lives: `--scripts` may name the game's own folder.
pub fn game_dir(args: &GameArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &args.scripts {
        if dir.join("game.toml").is_file() {
            return Ok(dir.clone());
        }
    }
    let sources = sources(args.scripts.as_deref());
    if let Some(dir) = sources
        .iter()
        .find_map(|s| GameSpec::find(&s.root, &args.game))
    {
        return Ok(dir);
    }
    let mut known: Vec<String> = sources
        .iter()
        .flat_map(|s| GameSpec::list(&s.root))
        .map(|l| l.id)
        .collect();
    known.sort();
    known.dedup();
    let places: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let places = match places.split_last() {
        None => "no folder (none of ./scripts, the current folder or the built-in games is there)"
            .to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    };
    anyhow::bail!(
        "no game `{}` in {places} (games: {})",
        one_line(&args.game),
        known.join(", ")
    )
}

/// The game `args.game`, read and compiled for this thread (`check`'s playouts).
pub fn source(args: &GameArgs) -> anyhow::Result<GameSource> {
    let dir = game_dir(args)?;
    // The error keeps its type, so that its source line can be shown under it.
    GameSource::read(&dir, &args.game)
        .map_err(TableError::from)
        .map_err(anyhow::Error::new)
        .with_context(|| format!("loading game {}", args.game))
}

pub fn list(args: ListArgs) -> anyhow::Result<ExitCode> {
    let sources = sources(args.scripts.as_deref());
    let mut out = std::io::stdout().lock();
    // Each game under the first place it is found in, which is the one `play` loads.
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    let mut any = false;
    for source in &sources {
        let games = GameSpec::list(&source.root);
        if games.is_empty() {
            continue;
        }
        any = true;
        writeln!(out, "{}", source.header)?;
        for g in games {
            let hidden_by = match first.get(&g.id) {
                Some(place) => {
                    format!("  [hidden: `{}` plays the one in {place}]", one_line(&g.id))
                }
                None => {
                    first.insert(g.id.clone(), source.name.clone());
                    String::new()
                }
            };
            describe(&mut out, &source.root, &g, &hidden_by)?;
        }
    }
    if !any {
        let places: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
        anyhow::bail!("no games in {}", places.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// One game of `list`: id, title, seats, what it is about, and options with their defaults.
fn describe(
    out: &mut impl Write,
    root: &Path,
    g: &ListedGame,
    hidden_by: &str,
) -> anyhow::Result<()> {
    match GameSpec::read(&g.dir, &g.id) {
        // Folder names come from disk as they are: shown on one line, like any error.
        Err(e) => writeln!(
            out,
            "{}  (broken: {}){hidden_by}",
            one_line(&g.id),
            one_line(&e)
        )?,
        Ok(spec) => {
            let base = spec
                .base
                .as_ref()
                .map_or(String::new(), |b| format!(" [variant of {b}]"));
            writeln!(
                out,
                "{}  {}{base}{hidden_by}\n    seats: {}",
                one_line(&spec.id),
                spec.title,
                spec.seats.describe()
            )?;
            if !spec.about.is_empty() {
                writeln!(out, "    {}", spec.about)?;
            }
            // A variant shows only the options it adds or changes; the rest are named.
            let base_options = spec
                .base
                .as_ref()
                .and_then(|b| GameSpec::find(root, b).map(|dir| (b, dir)))
                .and_then(|(b, dir)| GameSpec::read(&dir, b).ok())
                .map(|base| base.options)
                .unwrap_or_default();
            let (inherited, own): (Vec<_>, Vec<_>) =
                spec.options.iter().partition(|o| base_options.contains(o));
            for o in own {
                let choices = o
                    .choices
                    .as_ref()
                    .map_or(String::new(), |c| format!(" ({})", c.join("|")));
                writeln!(
                    out,
                    "    --option {}={}{choices}  {}",
                    o.name, o.default, o.about
                )?;
            }
            if let (Some(b), false) = (&spec.base, inherited.is_empty()) {
                let names: Vec<&str> = inherited.iter().map(|o| o.name.as_str()).collect();
                writeln!(out, "    and the options of {b}: {}", names.join(", "))?;
            }
        }
    }
    Ok(())
}
