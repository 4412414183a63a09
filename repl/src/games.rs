//! Finding games on disk (`--scripts`, ./scripts, or the scripts shipped beside the sources)
//! and `boardscript list`.

use crate::cli::{GameArgs, ListArgs};
use anyhow::Context;
use boardscript_interpreter::manifest;
use boardscript_interpreter::text::one_line;
use boardscript_interpreter::Game;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The folder holding games: the one given, else ./scripts, else the repository's.
pub fn scripts_root(given: Option<&Path>) -> PathBuf {
    if let Some(p) = given {
        return p.to_path_buf();
    }
    let here = PathBuf::from("scripts");
    if here.is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scripts")
}

/// Where game `args.game` lives: `--scripts` may name the game's own folder.
pub fn game_dir(args: &GameArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &args.scripts {
        if dir.join("game.toml").is_file() {
            return Ok(dir.clone());
        }
    }
    let root = scripts_root(args.scripts.as_deref());
    manifest::find(&root, &args.game).with_context(|| {
        let known: Vec<String> = manifest::list(&root).into_iter().map(|l| l.id).collect();
        format!(
            "no game `{}` in {} (games: {})",
            args.game,
            root.display(),
            known.join(", ")
        )
    })
}

pub fn load(args: &GameArgs) -> anyhow::Result<Game> {
    let dir = game_dir(args)?;
    // The error keeps its type, so that its source line can be shown under it.
    Game::load(&dir, &args.game)
        .map_err(anyhow::Error::new)
        .with_context(|| format!("loading game {}", args.game))
}

pub fn list(args: ListArgs) -> anyhow::Result<ExitCode> {
    let root = scripts_root(args.scripts.as_deref());
    let games = manifest::list(&root);
    let mut out = std::io::stdout().lock();
    if games.is_empty() {
        anyhow::bail!("no games in {}", root.display());
    }
    for g in games {
        match manifest::load(&g.dir, &g.id) {
            // Folder names come from disk as they are: shown on one line, like any error.
            Err(e) => writeln!(out, "{}  (broken: {})", one_line(&g.id), one_line(&e))?,
            Ok(spec) => {
                let base = spec
                    .base
                    .as_ref()
                    .map_or(String::new(), |b| format!(" [variant of {b}]"));
                writeln!(
                    out,
                    "{}  {}{base}\n    seats: {}",
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
                    .and_then(|b| manifest::find(&root, b).map(|dir| (b, dir)))
                    .and_then(|(b, dir)| manifest::load(&dir, b).ok())
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
    }
    Ok(ExitCode::SUCCESS)
}
