//! `[actions]` of game.toml: the shapes of the game's actions, and its verbs table (each
//! verb's legality and effect as script functions found by name, `<verb>_legal`,
//! `<verb>_apply`).

use super::data::line_col;
use crate::shape::{self, Shape, MAX_SHAPES};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActions {
    /// `shapes = ["{cell}", "move {node}", "pass"]`.
    #[serde(default)]
    shapes: Vec<Spanned<String>>,
    /// `[actions.verbs.move] shape = "move {node}"` (or `shapes = [...]`).
    #[serde(default)]
    verbs: BTreeMap<String, Spanned<RawVerb>>,
    /// `max = 7`: no decision offers more legal actions, under any options.
    max: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawVerb {
    shape: Option<Spanned<String>>,
    #[serde(default)]
    shapes: Vec<Spanned<String>>,
}

/// The `[actions]` of one manifest, read and checked: its shapes (the verbs' after the
/// table's own, in the order written) and its verbs table (in the order written).
pub(super) struct Actions {
    pub shapes: Vec<Shape>,
    pub verbs: Vec<String>,
    pub max: Option<usize>,
}

/// Reads `raw`; an error names the file, line and column of the word at fault.
pub(super) fn read(raw: RawActions, text: &str, file: &str) -> Result<Actions, String> {
    let at = |offset: usize| {
        let (line, column) = line_col(text, offset);
        format!("{file}:{line}:{column}")
    };
    let parse = |s: &Spanned<String>, shapes: &mut Vec<Shape>| {
        // The span starts at the opening quote; a shape has no escapes worth counting.
        let start = s.span().start + 1;
        let shape = shape::parse(s.get_ref(), at(start))
            .map_err(|(offset, why)| format!("{}: actions: {why}", at(start + offset)))?;
        if let Some(dup) = shapes.iter().find(|d| d.text == shape.text) {
            return Err(format!(
                "{}: actions: shape `{}` is declared twice (first at {})",
                shape.at, shape.text, dup.at
            ));
        }
        shapes.push(shape);
        Ok::<(), String>(())
    };
    let mut shapes = vec![];
    for s in &raw.shapes {
        parse(s, &mut shapes)?;
    }
    let mut verbs: Vec<(&String, &Spanned<RawVerb>)> = raw.verbs.iter().collect();
    verbs.sort_by_key(|(_, v)| v.span().start);
    let mut names = vec![];
    for (verb, entry) in verbs {
        let where_ = at(entry.span().start);
        super::check::verbs(std::slice::from_ref(verb))
            .map_err(|e| format!("{where_}: actions.verbs: {e}"))?;
        let own: Vec<&Spanned<String>> = entry
            .get_ref()
            .shape
            .iter()
            .chain(&entry.get_ref().shapes)
            .collect();
        if own.is_empty() {
            return Err(format!(
                "{where_}: actions.verbs.{verb}: no shape (`shape = \"{verb} {{...}}\"`)"
            ));
        }
        for s in own {
            parse(s, &mut shapes)?;
            let shape = shapes.last().expect("just parsed");
            if shape.verb() != Some(verb.as_str()) {
                return Err(format!(
                    "{}: actions.verbs.{verb}: shape `{}` does not start with `{verb}`",
                    shape.at, shape.text
                ));
            }
        }
        names.push(verb.clone());
    }
    if shapes.len() > MAX_SHAPES {
        return Err(format!(
            "{file}: actions: {} shapes, at most {MAX_SHAPES}",
            shapes.len()
        ));
    }
    let max = match &raw.max {
        None => None,
        Some(max) => match usize::try_from(*max.get_ref()) {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                return Err(format!(
                    "{}: actions: max = {}: a number of actions, at least 1",
                    at(max.span().start),
                    max.get_ref()
                ))
            }
        },
    };
    Ok(Actions {
        shapes,
        verbs: names,
        max,
    })
}
