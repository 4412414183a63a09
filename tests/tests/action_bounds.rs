//! `[actions] max` (issue 26): a game that declares the most legal actions a decision may
//! offer keeps to it. Random playouts of every shipped game and variant that declares one,
//! through the facade: no decision offers more (the table would refuse it as a fault of the
//! rules, and a learner sizing its action space by the bound would drop options).

use boardscript_interpreter::{GameSource, Setup, Table};
use std::path::PathBuf;

/// Every game and variant id in the scripts folder.
fn shipped() -> Vec<String> {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let mut ids = vec![];
    for dir in std::fs::read_dir(&scripts)
        .unwrap()
        .map(|e| e.unwrap().path())
    {
        if !dir.join("game.toml").is_file() {
            continue;
        }
        let game = dir.file_name().unwrap().to_string_lossy().to_string();
        if let Ok(variants) = std::fs::read_dir(dir.join("variants")) {
            for v in variants.map(|e| e.unwrap().path()) {
                ids.push(format!(
                    "{game}/{}",
                    v.file_name().unwrap().to_string_lossy()
                ));
            }
        }
        ids.push(game);
    }
    ids.sort();
    ids
}

#[test]
fn no_decision_offers_more_than_the_declared_bound() {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    let mut checked = vec![];
    for id in shipped() {
        let source = GameSource::find(&scripts, &id).unwrap();
        let Some(max) = source.spec().max_actions else {
            continue;
        };
        let mut most = 0;
        for seed in 0..3u64 {
            let setup = Setup {
                seed,
                ..Setup::default()
            };
            let t = Table::new(&source, setup).unwrap();
            let mut pick = seed;
            for _ in 0..2_000 {
                let Some(&seat) = t.deciding().unwrap().first() else {
                    break;
                };
                // `options` refuses a list past the bound (`Rules`): unwrap fails on it.
                let options = t.options(seat).unwrap();
                most = most.max(options.len());
                pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1);
                t.apply_option(seat, (pick >> 33) as usize % options.len())
                    .unwrap();
            }
        }
        assert!(
            most <= max,
            "{id}: {most} legal actions, declared max {max}"
        );
        checked.push(id);
    }
    for id in ["connect-four", "fibs", "hex", "virus-wars/blitz"] {
        assert!(checked.iter().any(|c| c == id), "{id} declares a bound");
    }
}
