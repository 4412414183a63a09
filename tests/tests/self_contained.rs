//! A fresh clone is self-contained (issue 20 item 16): no file under `scripts/`, nor the
//! README, points at files outside the repository (the rule texts and references the games
//! were written from, a folder beside the clone). Rulebooks are cited by title and publisher.

use boardscript_tests::scripts_dir;
use std::path::{Path, PathBuf};

/// Ways of pointing outside the clone, matched without regard to case.
const OUTSIDE: [&str; 8] = [
    "shared/seeds",
    "shared/rules",
    "shared/bench",
    "shared/tools",
    "../shared",
    "beside this repository",
    "folder beside",
    "seeds/0",
];

/// Every file under `dir`, in name order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// A seed file's name, `004_7fa2f3ba355849e0`: three digits, `_`, sixteen hex digits.
fn names_a_seed_file(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(19)).any(|i| {
        (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b[i..i + 3].iter().all(u8::is_ascii_digit)
            && b[i + 3] == b'_'
            && b[i + 4..i + 20].iter().all(u8::is_ascii_hexdigit)
    })
}

/// What in `text` points outside the clone, line by line.
fn pointers_outside(text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_lowercase();
            OUTSIDE.iter().any(|p| lower.contains(p)) || names_a_seed_file(line)
        })
        .map(|(i, line)| format!("{}: {}", i + 1, line.trim()))
        .collect()
}

#[test]
fn i20_16_no_file_points_outside_the_clone() {
    let mut checked = files(&scripts_dir());
    checked.push(scripts_dir().join("../README.md"));
    let mut found = vec![];
    for path in &checked {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        for hit in pointers_outside(&text) {
            found.push(format!("{}:{hit}", path.display()));
        }
    }
    assert!(checked.len() > 50, "only {} files checked", checked.len());
    assert!(
        found.is_empty(),
        "pointers outside the clone:\n{}",
        found.join("\n")
    );
}

/// The check itself catches each way of pointing outside, and passes plain text.
#[test]
fn i20_16_the_check_catches_each_pointer() {
    for bad in [
        "Rule text: `shared/seeds/004_7fa2f3ba355849e0.txt`",
        "reference shared/rules/virus-wars.md",
        "see ../shared/bench",
        "`shared/` is the folder beside this repository.",
        "the seed 003_045e4f662e41af7d",
    ] {
        assert_eq!(pointers_outside(bad).len(), 1, "{bad}");
    }
    assert!(pointers_outside("seeds the game's RNG; a shared hand; seed 1234_5").is_empty());
}
