//! `game.toml`: a game's name, seats, options, zones, supplies, scripts, data files and limits; and
//! variants, which name a base game and add scripts, data and option defaults on top of it.

mod actions;
mod check;
mod data;
mod files;
mod layout;

use crate::primitives::zone::Visibility;
use crate::script::Limits;
use crate::value::Value;
pub use check::MAX_SEATS;
pub use data::{DataSpec, MAX_DATA_DEPTH};
pub use files::{read_text_file, MAX_FILE_BYTES};
pub use layout::{is_plain_colour, Layout, MAX_LAYOUT_ENTRIES};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The longest chain of variants on variants (`a` based on `b` based on `c`...).
pub const MAX_BASE_DEPTH: usize = 8;

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    title: Option<String>,
    about: Option<String>,
    /// For a variant: the base game's id (`chess`).
    base: Option<String>,
    scripts: Option<Vec<String>>,
    seats: Option<SeatSpec>,
    #[serde(default)]
    options: BTreeMap<String, RawOption>,
    #[serde(default)]
    zones: BTreeMap<String, ZoneSpec>,
    /// Supplies of tokens: `doors = 8` or `markers = { size = 5, per_seat = true }`; a
    /// variant's entry replaces its base's of the same name.
    #[serde(default)]
    supplies: BTreeMap<String, toml::Value>,
    limits: Option<Limits>,
    /// Who reads the automatic log line of each action: `all` (default) or `seat` (the actor),
    /// or a table by verb (`{ default = "all", peek = "seat" }`).
    log_actions: Option<toml::Value>,
    /// The phases `g.set_phase` may enter; a variant's are added to its base's.
    phases: Option<Vec<String>>,
    /// The first words of the game's actions; a variant's are added to its base's.
    verbs: Option<Vec<String>>,
    /// The shapes of the actions and the verbs table (`manifest/actions.rs`); a variant's are
    /// added to its base's.
    actions: Option<actions::RawActions>,
    /// Data files by name; a variant's entry replaces its base's of the same name.
    #[serde(default)]
    data: BTreeMap<String, toml::Value>,
    /// Hints for pages that draw the game (`manifest/layout.rs`); a variant's entries
    /// replace its base's.
    layout: Option<layout::RawLayout>,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawOption {
    default: Option<toml::Value>,
    about: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
    choices: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    /// Seat names; with `min`/`max`, the first N are used.
    #[serde(default)]
    pub names: Vec<String>,
    pub min: Option<usize>,
    pub max: Option<usize>,
    pub default: Option<usize>,
}

impl SeatSpec {
    pub fn range(&self) -> (usize, usize) {
        let n = self.names.len();
        let min = self.min.unwrap_or(n.max(1));
        (min, self.max.unwrap_or(n.max(min)))
    }

    pub fn default_count(&self) -> usize {
        let (min, max) = self.range();
        self.default.unwrap_or(if self.names.is_empty() {
            min
        } else {
            self.names.len().clamp(min, max)
        })
    }

    /// The names of a game with `n` seats.
    pub fn names_for(&self, n: usize) -> Result<Vec<String>, String> {
        let (min, max) = self.range();
        if !(min..=max).contains(&n) {
            return Err(if min == max {
                format!("this game has {min} seats, not {n}")
            } else {
                format!("this game takes {min} to {max} seats, not {n}")
            });
        }
        Ok((0..n)
            .map(|i| {
                self.names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("p{}", i + 1))
            })
            .collect())
    }

    pub fn describe(&self) -> String {
        let (min, max) = self.range();
        let count = if min == max {
            format!("{min}")
        } else {
            format!("{min}-{max}")
        };
        if self.names.is_empty() {
            count
        } else {
            format!("{count}: {}", self.names.join(", "))
        }
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ZoneSpec {
    #[serde(default)]
    pub per_seat: bool,
    #[serde(default = "all")]
    pub visible_to: String,
    /// The zone whose cards are shuffled in when this one is drawn empty (a deck's discard
    /// pile): the same seat's zone of that name for a per-seat zone.
    pub discard: Option<Spanned<String>>,
}

/// A zone as the game declares it, once read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneDecl {
    pub per_seat: bool,
    pub visibility: Visibility,
    /// The zone drawn into this one when it runs empty (see `ZoneSpec::discard`).
    pub discard: Option<String>,
}

fn all() -> String {
    "all".into()
}

/// One supply of `game.toml`'s `[supplies]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SupplySpec {
    pub per_seat: bool,
    pub size: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub default: Value,
    pub about: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub choices: Option<Vec<String>>,
}

impl OptionSpec {
    /// Parses and checks a value given as text (`--option size=13`).
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let v = Value::parse_like(text, &self.default)
            .map_err(|e| format!("option `{}`: {e}", self.name))?;
        if let Value::Int(i) = v {
            if self.min.is_some_and(|m| i < m) || self.max.is_some_and(|m| i > m) {
                let range = format!(
                    "{}..={}",
                    self.min.map_or("".into(), |m| m.to_string()),
                    self.max.map_or("".into(), |m| m.to_string())
                );
                return Err(format!(
                    "option `{}` must be in {range}, not {i}",
                    self.name
                ));
            }
        }
        if let (Some(choices), Value::Str(s)) = (&self.choices, &v) {
            if !choices.contains(s) {
                return Err(format!(
                    "option `{}` is one of {}, not `{s}`",
                    self.name,
                    choices.join(", ")
                ));
            }
        }
        Ok(v)
    }
}

/// A game or variant, resolved: the variant's scripts follow its base's, and its option
/// defaults replace the base's.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// `chess`, or `chess/blitz` for a variant.
    pub id: String,
    pub title: String,
    pub about: String,
    pub base: Option<String>,
    pub dir: PathBuf,
    /// The game's folder and its bases' (canonical): the only places its files load from.
    pub roots: Vec<PathBuf>,
    pub scripts: Vec<PathBuf>,
    pub seats: SeatSpec,
    pub options: Vec<OptionSpec>,
    pub zones: BTreeMap<String, ZoneDecl>,
    /// Supplies of tokens by name: whether each seat has its own, and how many tokens each
    /// holds.
    pub supplies: BTreeMap<String, SupplySpec>,
    pub limits: Limits,
    /// Whether each action is logged for everyone (else for the acting seat only).
    pub public_actions: bool,
    /// `public_actions` for the actions starting with these verbs (`log_actions` as a table).
    pub public_by_verb: BTreeMap<String, bool>,
    /// The declared phases: the only names `g.set_phase` accepts (besides `""`), and the only
    /// prefixes that make `<phase>_apply` and `<phase>_legal_actions` phase functions.
    pub phases: Vec<String>,
    /// The first words of the game's actions (`verbs = ["move", "shoot"]`), so that a line
    /// starting with one reads as an action even before any such action was legal: the
    /// REPL then refuses it as not legal now, not as an unknown command.
    pub verbs: Vec<String>,
    /// The declared shapes of the actions (`[actions] shapes`, then the verbs table's), in
    /// order: the first that fits an action types it.
    pub shapes: Vec<crate::shape::Shape>,
    /// The verbs table (`[actions.verbs.<verb>]`), in the order written: each verb's actions
    /// go to the script's `<verb>_apply(g, seat, parsed)`, and are listed by its
    /// `<verb>_legal(g, seat)` when the script has no `legal_actions`.
    pub verb_table: Vec<String>,
    /// The most legal actions one decision may offer (`[actions] max`), under any options:
    /// a bound for fixed-size action spaces. A variant's replaces its base's.
    pub max_actions: Option<usize>,
    /// The data files scripts read with `data(name, ...)`, by name.
    pub data: Vec<DataSpec>,
    /// Optional hints for pages that draw the game (`[layout]`); the rules never read them.
    pub layout: Layout,
}

impl GameSpec {
    /// Reads the manifest of the game in `dir`, known as `id` (scripts are not read).
    pub fn read(dir: &Path, id: &str) -> Result<GameSpec, String> {
        load(dir, id)
    }

    /// The folder of game `id` under the scripts folder `root` (`a/b`: variant `b` of `a`).
    pub fn find(root: &Path, id: &str) -> Option<PathBuf> {
        find(root, id)
    }

    /// Every game and variant under the scripts folder `root`, in order.
    pub fn list(root: &Path) -> Vec<Listed> {
        list(root)
    }

    pub fn option(&self, name: &str) -> Option<&OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The text of one of the game's files (a script), checked again at the time of reading:
    /// a regular file inside the game's folders, of at most [`MAX_FILE_BYTES`].
    pub fn read_file(&self, path: &Path) -> Result<String, String> {
        let entry = check::shown(&path.display().to_string());
        read_text_file(&files::inside(path, &self.roots, &entry)?)
    }

    /// Every data file, read and checked (see [`data::parse`]), by name.
    pub fn read_data(&self) -> Result<BTreeMap<String, Value>, String> {
        let mut out = BTreeMap::new();
        for d in &self.data {
            let text = self.read_file(&d.path)?;
            out.insert(d.name.clone(), data::parse(d, &text, &self.limits)?);
        }
        Ok(out)
    }
}

/// The manifest in `dir`, and its text (for the places of later errors).
fn read_raw(dir: &Path) -> Result<(RawManifest, String), String> {
    let path = dir.join("game.toml");
    let text = read_text_file(&path)?;
    let raw = toml::from_str(&text).map_err(|e| {
        // One line, at the place: toml's own message spans several lines with a snippet.
        let at = e.span().map_or(String::new(), |span| {
            let (line, column) = data::line_col(&text, span.start);
            format!(":{line}:{column}")
        });
        format!("{}{at}: {}", path.display(), e.message().trim())
    })?;
    Ok((raw, text))
}

/// Reads the game in `dir`, whose id is `id`; a variant's base is found beside it in
/// `<base>/variants/<name>` or as a sibling folder.
pub fn load(dir: &Path, id: &str) -> Result<GameSpec, String> {
    load_chain(dir, id, &mut vec![])
}

/// `load` for a game whose variants are being loaded: `chain` holds the (canonical folder,
/// id) of each, outermost first, so that a base naming one of them is caught as a cycle.
fn load_chain(
    dir: &Path,
    id: &str,
    chain: &mut Vec<(PathBuf, String)>,
) -> Result<GameSpec, String> {
    let manifest = dir.join("game.toml");
    let fail = |message: String| format!("{}: {message}", manifest.display());
    let real = dir.canonicalize().map_err(|e| fail(e.to_string()))?;
    if let Some(at) = chain.iter().position(|(d, _)| *d == real) {
        let ids: Vec<&str> = chain[at..]
            .iter()
            .map(|(_, i)| i.as_str())
            .chain([id])
            .collect();
        return Err(fail(format!("base cycle: {}", ids.join(" -> "))));
    }
    if chain.len() >= MAX_BASE_DEPTH {
        return Err(fail(format!(
            "bases nested more than {MAX_BASE_DEPTH} deep"
        )));
    }
    chain.push((real.clone(), id.to_string()));
    let spec = load_one(dir, id, real, chain);
    chain.pop();
    spec
}

fn load_one(
    dir: &Path,
    id: &str,
    real: PathBuf,
    chain: &mut Vec<(PathBuf, String)>,
) -> Result<GameSpec, String> {
    let (raw, text) = read_raw(dir)?;
    let manifest = dir.join("game.toml");
    let fail = |message: String| format!("{}: {message}", manifest.display());
    let mut spec = match &raw.base {
        None => GameSpec {
            id: id.to_string(),
            title: id.to_string(),
            about: String::new(),
            base: None,
            dir: dir.to_path_buf(),
            roots: vec![],
            scripts: vec![],
            seats: SeatSpec {
                names: vec![],
                min: Some(1),
                max: Some(1),
                default: None,
            },
            options: vec![],
            zones: BTreeMap::new(),
            supplies: BTreeMap::new(),
            limits: Limits::default(),
            public_actions: true,
            public_by_verb: BTreeMap::new(),
            phases: vec![],
            verbs: vec![],
            shapes: vec![],
            verb_table: vec![],
            max_actions: None,
            data: vec![],
            layout: Layout::default(),
        },
        Some(base) => {
            // A folder name, not a path: `base = "../.."` must not walk out of the scripts.
            let plain = !base.is_empty()
                && base != "."
                && base != ".."
                && !base.contains(['/', '\\'])
                && !base.chars().any(char::is_control);
            let base_dir = base_dir(dir, base)
                .filter(|_| plain)
                .ok_or_else(|| fail(format!("base game {} not found", check::shown(base))))?;
            let mut b = load_chain(&base_dir, base, chain)?;
            b.id = id.to_string();
            b.base = Some(base.clone());
            b.dir = dir.to_path_buf();
            b
        }
    };
    spec.roots.insert(0, real);
    if let Some(t) = raw.title {
        check::text("title", &t).map_err(fail)?;
        spec.title = t;
    }
    if let Some(a) = raw.about {
        check::text("about", &a).map_err(fail)?;
        spec.about = a;
    }
    if let Some(s) = raw.seats {
        check::seats(&s).map_err(fail)?;
        spec.seats = s;
    }
    if let Some(l) = raw.limits {
        l.check()
            .map_err(|e| format!("{}/game.toml: {e}", dir.display()))?;
        spec.limits = l;
    }
    if let Some(log) = raw.log_actions {
        (spec.public_actions, spec.public_by_verb) = check::log_actions(log).map_err(fail)?;
    }
    if let Some(phases) = raw.phases {
        check::phases(&phases).map_err(fail)?;
        for phase in phases {
            if !spec.phases.contains(&phase) {
                spec.phases.push(phase);
            }
        }
    }
    if let Some(verbs) = raw.verbs {
        check::verbs(&verbs).map_err(fail)?;
        for verb in verbs {
            if !spec.verbs.contains(&verb) {
                spec.verbs.push(verb);
            }
        }
    }
    if let Some(hints) = raw.layout {
        let seats = spec
            .seats
            .names_for(spec.seats.range().1)
            .unwrap_or_default();
        let base = std::mem::take(&mut spec.layout);
        spec.layout = layout::read(hints, base, &seats, &text, &manifest.display().to_string())?;
    }
    if let Some(declared) = raw.actions {
        let read = actions::read(declared, &text, &manifest.display().to_string())?;
        if read.max.is_some() {
            spec.max_actions = read.max;
        }
        for shape in read.shapes {
            if let Some(dup) = spec.shapes.iter().find(|s| s.text == shape.text) {
                return Err(format!(
                    "{}: actions: shape `{}` is declared by the base too (at {})",
                    shape.at, shape.text, dup.at
                ));
            }
            // The first word of a shape is a verb: the REPL reads a line starting with it as
            // an action.
            if let Some(verb) = shape.verb() {
                if !spec.verbs.iter().any(|v| v == verb) {
                    spec.verbs.push(verb.to_string());
                }
            }
            spec.shapes.push(shape);
        }
        for verb in read.verbs {
            if !spec.verb_table.contains(&verb) {
                spec.verb_table.push(verb);
            }
        }
        check::verbs(&spec.verbs).map_err(fail)?;
    }
    let scripts = raw.scripts.unwrap_or_else(|| {
        if raw.base.is_none() {
            vec!["rules.rhai".into()]
        } else {
            vec![]
        }
    });
    for script in &scripts {
        let path = dir.join(script);
        files::inside(&path, &spec.roots, &check::shown(script)).map_err(fail)?;
        spec.scripts.push(path);
    }
    for (name, o) in raw.options {
        let default = o
            .default
            .map(|d| check::option_default(&name, d))
            .transpose()
            .map_err(fail)?;
        let existing = spec.options.iter().position(|x| x.name == name);
        let merged = match existing {
            Some(i) => {
                let old = &spec.options[i];
                OptionSpec {
                    name: name.clone(),
                    default: default.unwrap_or(old.default.clone()),
                    about: o.about.unwrap_or(old.about.clone()),
                    min: o.min.or(old.min),
                    max: o.max.or(old.max),
                    choices: o.choices.or(old.choices.clone()),
                }
            }
            None => OptionSpec {
                default: default.ok_or_else(|| {
                    fail(format!("option {} has no default", check::shown(&name)))
                })?,
                about: o.about.unwrap_or_default(),
                min: o.min,
                max: o.max,
                choices: o.choices,
                name: name.clone(),
            },
        };
        // Checked merged: a variant's default must obey its base's min, max and choices.
        check::option(&merged).map_err(fail)?;
        match existing {
            Some(i) => spec.options[i] = merged,
            None => spec.options.push(merged),
        }
    }
    for (name, raw_entry) in raw.data {
        let entry = data::entry(dir, &name, raw_entry).map_err(fail)?;
        let written = entry.path.strip_prefix(dir).unwrap_or(&entry.path);
        files::inside(
            &entry.path,
            &spec.roots,
            &check::shown(&written.display().to_string()),
        )
        .map_err(|e| fail(format!("data {name}: {e}")))?;
        match spec.data.iter_mut().find(|d| d.name == name) {
            Some(old) => *old = entry,
            None => spec.data.push(entry),
        }
    }
    // Where each discard of this file is written, for errors found once all zones are known.
    let mut written = BTreeMap::new();
    for (name, z) in raw.zones {
        let vis = Visibility::parse(&z.visible_to)
            .map_err(|e| fail(format!("zone {}: {e}", check::shown(&name))))?;
        let discard = z.discard.map(|d| {
            written.insert(name.clone(), data::line_col(&text, d.span().start));
            d.into_inner()
        });
        let decl = ZoneDecl {
            per_seat: z.per_seat,
            visibility: vis,
            discard,
        };
        spec.zones.insert(name, decl);
    }
    // Checked whole: a variant may add a discard to its base's deck, or change the zone a
    // discard of its base's names.
    check::discards(&spec.zones).map_err(|(zone, message)| match written.get(&zone) {
        Some((line, column)) => format!("{}:{line}:{column}: {message}", manifest.display()),
        None => fail(message),
    })?;
    for (name, raw_supply) in raw.supplies {
        let supply = check::supply(&name, raw_supply).map_err(fail)?;
        spec.supplies.insert(name, supply);
    }
    Ok(spec)
}

fn base_dir(dir: &Path, base: &str) -> Option<PathBuf> {
    let parent = dir.parent()?;
    let above = parent.parent();
    let named = |p: &Path, name: &str| p.file_name().is_some_and(|n| n == name);
    // `<base>/variants/<name>`; each test stands alone, so that a relative folder such as
    // `./ping` (whose parent `.` has no name) still reaches the siblings below.
    if let Some(above) = above {
        if named(parent, "variants") && named(above, base) && above.join("game.toml").is_file() {
            return Some(above.to_path_buf());
        }
    }
    // Siblings: scripts/<base> beside scripts/<variant>, or up from a variants folder.
    let up = above.map(|a| a.parent().unwrap_or(a));
    for root in std::iter::once(parent).chain(up) {
        let candidate = root.join(base);
        if candidate.join("game.toml").is_file() {
            return Some(candidate);
        }
    }
    None
}

/// One entry of `boardscript list`.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: String,
    pub dir: PathBuf,
}

/// Every game under `root`: `root/<id>/game.toml`, and variants in `root/<id>/variants/<v>/`
/// listed as `<id>/<v>`.
pub fn list(root: &Path) -> Vec<Listed> {
    let mut out = vec![];
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for d in dirs {
        if !d.join("game.toml").is_file() {
            continue;
        }
        let id = d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let mut vars: Vec<PathBuf> = std::fs::read_dir(d.join("variants"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        vars.sort();
        out.push(Listed {
            id: id.clone(),
            dir: d.clone(),
        });
        for v in vars.into_iter().filter(|v| v.join("game.toml").is_file()) {
            let vid = format!(
                "{id}/{}",
                v.file_name().unwrap_or_default().to_string_lossy()
            );
            out.push(Listed { id: vid, dir: v });
        }
    }
    out
}

/// The folder of game `id` under `root` (`a/b` is variant `b` of game `a`).
pub fn find(root: &Path, id: &str) -> Option<PathBuf> {
    let dir = match id.split_once('/') {
        Some((game, variant)) => root.join(game).join("variants").join(variant),
        None => root.join(id),
    };
    dir.join("game.toml").is_file().then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, manifest: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("game.toml"), manifest).unwrap();
        std::fs::write(dir.join("rules.rhai"), "").unwrap();
    }

    #[test]
    fn bases_nest_only_so_deep() {
        let root = tempfile::tempdir().unwrap();
        write(&root.path().join("g0"), "");
        for i in 1..=MAX_BASE_DEPTH {
            write(
                &root.path().join(format!("g{i}")),
                &format!("base = \"g{}\"\n", i - 1),
            );
        }
        let deepest = MAX_BASE_DEPTH - 1;
        let ok = load(&root.path().join(format!("g{deepest}")), "g").unwrap();
        assert_eq!(ok.roots.len(), MAX_BASE_DEPTH);
        let id = format!("g{MAX_BASE_DEPTH}");
        let err = load(&root.path().join(&id), &id).unwrap_err();
        assert!(err.contains("nested more than 8 deep"), "{err}");
    }

    #[test]
    fn a_variant_may_use_its_bases_files_but_nothing_outside() {
        let root = tempfile::tempdir().unwrap();
        let base = root.path().join("chess");
        write(&base, "");
        std::fs::write(base.join("shared.rhai"), "").unwrap();
        let variant = base.join("variants").join("blitz");
        write(
            &variant,
            "base = \"chess\"\nscripts = [\"../../shared.rhai\"]\n",
        );
        let spec = load(&variant, "chess/blitz").unwrap();
        assert_eq!(spec.scripts.len(), 2);
        for path in &spec.scripts {
            spec.read_file(path).unwrap();
        }
        write(
            &variant,
            "base = \"chess\"\nscripts = [\"../../../x.rhai\"]\n",
        );
        std::fs::write(root.path().join("x.rhai"), "").unwrap();
        let err = load(&variant, "chess/blitz").unwrap_err();
        assert!(err.contains("outside the game's folder"), "{err}");
        // A base given as a path is not a base.
        write(&variant, "base = \"../chess\"\n");
        let err = load(&variant, "chess/blitz").unwrap_err();
        assert!(err.contains("base game `../chess` not found"), "{err}");
    }

    #[test]
    fn a_broken_manifest_is_one_line_at_its_place() {
        let root = tempfile::tempdir().unwrap();
        write(root.path(), "title = \"x\"\nseats = [\n");
        let err = load(root.path(), "x").unwrap_err();
        assert!(!err.contains('\n'), "{err}");
        assert!(err.contains("game.toml:2:"), "{err}");
    }
}
