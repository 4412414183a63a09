//! `game.toml`: a game's name, seats, options, zones, scripts and limits; and variants, which
//! name a base game and add scripts and option defaults on top of it.

use crate::primitives::zone::Visibility;
use crate::script::Limits;
use crate::value::Value;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    limits: Option<Limits>,
    /// Who reads the automatic log line of each action: `all` (default) or `seat` (the actor).
    log_actions: Option<String>,
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
}

fn all() -> String {
    "all".into()
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
    pub scripts: Vec<PathBuf>,
    pub seats: SeatSpec,
    pub options: Vec<OptionSpec>,
    pub zones: BTreeMap<String, (bool, Visibility)>,
    pub limits: Limits,
    /// Whether each action is logged for everyone (else for the acting seat only).
    pub public_actions: bool,
}

impl GameSpec {
    pub fn option(&self, name: &str) -> Option<&OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }
}

fn read_raw(dir: &Path) -> Result<RawManifest, String> {
    let path = dir.join("game.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the game in `dir`, whose id is `id`; a variant's base is found beside it in
/// `<base>/variants/<name>` or as a sibling folder.
pub fn load(dir: &Path, id: &str) -> Result<GameSpec, String> {
    let raw = read_raw(dir)?;
    let mut spec = match &raw.base {
        None => GameSpec {
            id: id.to_string(),
            title: id.to_string(),
            about: String::new(),
            base: None,
            dir: dir.to_path_buf(),
            scripts: vec![],
            seats: SeatSpec {
                names: vec![],
                min: Some(1),
                max: Some(1),
                default: None,
            },
            options: vec![],
            zones: BTreeMap::new(),
            limits: Limits::default(),
            public_actions: true,
        },
        Some(base) => {
            let base_dir = base_dir(dir, base)
                .ok_or_else(|| format!("{}: base game `{base}` not found", dir.display()))?;
            let mut b = load(&base_dir, base)?;
            b.id = id.to_string();
            b.base = Some(base.clone());
            b.dir = dir.to_path_buf();
            b
        }
    };
    if let Some(t) = raw.title {
        spec.title = t;
    }
    if let Some(a) = raw.about {
        spec.about = a;
    }
    if let Some(s) = raw.seats {
        spec.seats = s;
    }
    if let Some(l) = raw.limits {
        l.check()
            .map_err(|e| format!("{}/game.toml: {e}", dir.display()))?;
        spec.limits = l;
    }
    match raw.log_actions.as_deref() {
        None => {}
        Some("all") => spec.public_actions = true,
        Some("seat") => spec.public_actions = false,
        Some(other) => {
            return Err(format!(
                "{}/game.toml: log_actions is `all` or `seat`, not `{other}`",
                dir.display()
            ))
        }
    }
    let scripts = raw.scripts.unwrap_or_else(|| {
        if raw.base.is_none() {
            vec!["rules.rhai".into()]
        } else {
            vec![]
        }
    });
    spec.scripts.extend(scripts.iter().map(|s| dir.join(s)));
    for (name, o) in raw.options {
        let existing = spec.options.iter().position(|x| x.name == name);
        let merged = match existing {
            Some(i) => {
                let old = &spec.options[i];
                OptionSpec {
                    name: name.clone(),
                    default: o.default.map_or(old.default.clone(), Value::from),
                    about: o.about.unwrap_or(old.about.clone()),
                    min: o.min.or(old.min),
                    max: o.max.or(old.max),
                    choices: o.choices.or(old.choices.clone()),
                }
            }
            None => OptionSpec {
                default: o.default.map(Value::from).ok_or_else(|| {
                    format!(
                        "{}/game.toml: option `{name}` has no default",
                        dir.display()
                    )
                })?,
                about: o.about.unwrap_or_default(),
                min: o.min,
                max: o.max,
                choices: o.choices,
                name: name.clone(),
            },
        };
        match existing {
            Some(i) => spec.options[i] = merged,
            None => spec.options.push(merged),
        }
    }
    for (name, z) in raw.zones {
        let vis = Visibility::parse(&z.visible_to)
            .map_err(|e| format!("{}/game.toml: zone `{name}`: {e}", dir.display()))?;
        spec.zones.insert(name, (z.per_seat, vis));
    }
    Ok(spec)
}

fn base_dir(dir: &Path, base: &str) -> Option<PathBuf> {
    let above = dir.parent()?.parent()?;
    if dir.parent()?.file_name()? == "variants"
        && above.file_name()? == base
        && above.join("game.toml").is_file()
    {
        return Some(above.to_path_buf());
    }
    // Siblings: scripts/<base> beside scripts/<variant>, or up from a variants folder.
    for root in [dir.parent()?, above.parent().unwrap_or(above)] {
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
