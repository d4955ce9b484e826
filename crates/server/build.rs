//! Embeds the browser interface: every file under the workspace's `web/` folder (hidden files
//! excepted) becomes an entry of `$OUT_DIR/web_files.rs`, a sorted list of `(path, bytes)` read
//! with `include_bytes!`, in every build profile. A new module in `web/` needs no edit here or
//! in the server.
//!
//! Cargo reruns this script when anything under `web/` changes (a directory named in
//! `rerun-if-changed` is scanned as a whole), so a changed, new or removed file rebuilds the
//! server; `include_bytes!` alone would notice only changes to files already listed.
//!
//! The shipped puzzles (`puzzles/*.jsonl`, and the problem collections in
//! `puzzles/problems/*.jsonl`) are embedded the same way, as `$OUT_DIR/puzzle_files.rs`.

use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest
        .join("../../web")
        .canonicalize()
        .expect("the web/ folder is two levels above crates/server");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for (url, path) in &files {
        out.push_str(&format!("    ({url:?}, include_bytes!({path:?})),\n"));
    }
    out.push_str("]\n");
    let target =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_files.rs");
    fs::write(&target, out).expect("OUT_DIR is writable");

    // The shipped puzzles: every `*.jsonl` file directly under the workspace's `puzzles/`, and
    // the problem collections under `puzzles/problems/` (named `problems/FAMILY.jsonl`).
    let puzzles = manifest
        .join("../../puzzles")
        .canonicalize()
        .expect("the puzzles/ folder is two levels above crates/server");
    println!("cargo:rerun-if-changed={}", puzzles.display());
    println!(
        "cargo:rerun-if-changed={}",
        puzzles.join("problems").display()
    );
    let mut sets = Vec::new();
    for (folder, prefix) in [
        (puzzles.clone(), ""),
        (puzzles.join("problems"), "problems/"),
    ] {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("puzzles/ is readable").path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .expect("puzzle file names are UTF-8");
                let absolute = path.to_str().expect("UTF-8 paths").to_string();
                sets.push((format!("{prefix}{name}"), absolute));
            }
        }
    }
    sets.sort();
    let mut out = String::from("&[\n");
    for (name, path) in &sets {
        out.push_str(&format!("    ({name:?}, include_str!({path:?})),\n"));
    }
    out.push_str("]\n");
    let target =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("puzzle_files.rs");
    fs::write(&target, out).expect("OUT_DIR is writable");
}

/// Adds the files under `dir` as (path relative to `root` with `/` separators, absolute path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        let path = entry.path();
        let name = entry.file_name();
        let name = name
            .to_str()
            .unwrap_or_else(|| panic!("{} is not UTF-8", path.display()));
        if name.starts_with('.') {
            continue;
        }
        let kind = entry
            .file_type()
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        if kind.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("a file under web/")
                .components()
                .map(|c| c.as_os_str().to_str().expect("UTF-8 checked above"))
                .collect::<Vec<_>>()
                .join("/");
            let absolute = path.to_str().expect("UTF-8 checked above").to_string();
            files.push((relative, absolute));
        }
    }
}
