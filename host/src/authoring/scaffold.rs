//! `smart-context plugin new LANGUAGE WORLD NAME`: a buildable plugin project in `./NAME`,
//! for the standard component toolchain of each language: Rust (cargo, wasm32-wasip2),
//! Python (componentize-py), JavaScript (componentize-js), C (clang and wasi-libc, with jco
//! to make the component; format parsers only); code parsers in Rust. Each project carries the contract
//! (`wit/plugin.wit`, the one this host speaks), a working example (a parser that makes a
//! section of each block of lines; a code parser for a small language of `def` blocks; a
//! tool that finds the lines holding a word), the
//! language's helpers, a `build.sh` and a README with the commands that check, pin and load
//! it. The templates are the ones CI builds with the registries' toolchains (tests/toolchains.rs).

use crate::runtime::plugins::World;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// The contract the host speaks, copied into every project and printed by `plugin wit`.
pub const WIT: &str = include_str!("../../../wit/plugin.wit");
/// The versions the templates pin: what CI builds them with.
pub const WIT_BINDGEN: &str = "0.61";
pub const COMPONENTIZE_JS: &str = "0.23.0";
pub const COMPONENTIZE_PY: &str = "0.25.1";
pub const JCO: &str = "1.35.0";

/// A language with a standard component toolchain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    Rust,
    Python,
    /// JavaScript (TypeScript compiles to it).
    Js,
    /// C, for format parsers: clang with wasi-libc, made a component by jco.
    C,
}

/// The worlds an author can start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WorldChoice {
    FormatParser,
    /// A programming language (or a house DSL): definitions, imports and calls.
    CodeParser,
    Pillar,
    EditingPillar,
}

impl From<WorldChoice> for World {
    fn from(choice: WorldChoice) -> Self {
        match choice {
            WorldChoice::FormatParser => World::FormatParser,
            WorldChoice::CodeParser => World::CodeParser,
            WorldChoice::Pillar => World::Pillar,
            WorldChoice::EditingPillar => World::EditingPillar,
        }
    }
}

/// Writes the project for `name` into `dir` (which must not exist or be empty), and returns
/// the files written.
pub fn scaffold(language: Language, world: World, name: &str, dir: &Path) -> Result<Vec<PathBuf>> {
    let valid = name.len() <= 48
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid {
        bail!(
            "{name:?} cannot name a plugin: use 1-48 lower-case letters, digits and '-', starting with a letter (it names the file NAME.wasm, the config entry [plugin.NAME] and the tool NAME__TOOL)"
        );
    }
    if language == Language::C && world != World::FormatParser {
        bail!(
            "the C template is a format parser (C's header carries that world only); write a tool in rust, python or js"
        );
    }
    if world == World::CodeParser && language != Language::Rust {
        bail!(
            "the code-parser template is Rust (the world is the same in every language: see wit/plugin.wit's `language` interface); start from `plugin new rust code-parser {name}`"
        );
    }
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        bail!(
            "{} exists and is not empty; choose another name or directory",
            dir.display()
        );
    }
    let files = files(language, world);
    let crate_name = name.replace('-', "_");
    let tool = crate_name.clone();
    let contract = if language == Language::C {
        // jco's embed takes no world name: the project's contract holds its one world.
        single_world(WIT, world.name())
    } else {
        WIT.to_string()
    };
    let fill = |text: &str| {
        text.replace("{{name}}", name)
            .replace("{{crate}}", &crate_name)
            .replace("{{tool}}", &tool)
            .replace("{{world}}", world.name())
            .replace("{{wit_bindgen}}", WIT_BINDGEN)
            .replace("{{componentize_js}}", COMPONENTIZE_JS)
            .replace("{{jco}}", JCO)
            .replace("{{contract}}", crate::runtime::plugins::CONTRACT_VERSION)
    };
    let mut written = Vec::new();
    for (path, text) in files.iter().map(|(p, t)| (*p, fill(t))).chain([
        ("wit/plugin.wit", contract),
        ("README.md", readme(language, world, name)),
    ]) {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap_or(dir))?;
        std::fs::write(&target, text)?;
        #[cfg(unix)]
        if path.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
        }
        written.push(target);
    }
    Ok(written)
}

/// (path in the project, template) for a language and world.
fn files(language: Language, world: World) -> Vec<(&'static str, &'static str)> {
    let parser = world == World::FormatParser;
    let mut files = Vec::new();
    match language {
        Language::Rust => {
            files.push(("Cargo.toml", include_str!("templates/rust/Cargo.toml")));
            files.push((
                "src/lib.rs",
                match world {
                    World::FormatParser => include_str!("templates/rust/parser.rs"),
                    World::CodeParser => include_str!("templates/rust/code.rs"),
                    World::Pillar | World::EditingPillar => include_str!("templates/rust/tool.rs"),
                },
            ));
            files.push(("build.sh", include_str!("templates/rust/build.sh")));
        }
        Language::Python => {
            files.push((
                "app.py",
                if parser {
                    include_str!("templates/python/parser.py")
                } else {
                    include_str!("templates/python/tool.py")
                },
            ));
            files.push((
                "smart_context_plugin.py",
                include_str!("../../../sdk/python/smart_context_plugin.py"),
            ));
            files.push(("build.sh", include_str!("templates/python/build.sh")));
        }
        Language::Js => {
            files.push((
                "app.js",
                if parser {
                    include_str!("templates/js/parser.js")
                } else {
                    include_str!("templates/js/tool.js")
                },
            ));
            files.push((
                "smart-context-plugin.js",
                include_str!("../../../sdk/js/smart-context-plugin.js"),
            ));
            files.push(("package.json", include_str!("templates/js/package.json")));
            files.push(("build.sh", include_str!("templates/js/build.sh")));
        }
        Language::C => {
            files.push(("parser.c", include_str!("templates/c/parser.c")));
            files.push((
                "smart_context_parser.h",
                include_str!("../../../sdk/c/smart_context_parser.h"),
            ));
            files.push(("package.json", include_str!("templates/c/package.json")));
            files.push(("build.sh", include_str!("templates/c/build.sh")));
        }
    }
    files
}

/// The contract with every world but `keep` left out (their doc comments and `@since` gates
/// with them).
pub fn single_world(wit: &str, keep: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut docs: Vec<&str> = Vec::new();
    let mut skipping = false;
    for line in wit.lines() {
        if skipping {
            skipping = !line.starts_with('}');
            continue;
        }
        if line.starts_with("///") || line.starts_with('@') {
            docs.push(line);
            continue;
        }
        if let Some(rest) = line.strip_prefix("world ")
            && rest.split_whitespace().next() != Some(keep)
        {
            docs.clear();
            skipping = true;
            continue;
        }
        out.append(&mut docs);
        out.push(line);
    }
    out.append(&mut docs);
    let mut text = out.join("\n");
    text.push('\n');
    text
}

fn readme(language: Language, world: World, name: &str) -> String {
    let (toolchain, install) = match language {
        Language::Rust => (
            "Rust's `wasm32-wasip2` target",
            "rustup target add wasm32-wasip2".to_string(),
        ),
        Language::Python => (
            "componentize-py",
            format!("pip install componentize-py=={COMPONENTIZE_PY}"),
        ),
        Language::Js => (
            "componentize-js (StarlingMonkey)",
            "npm install   # once: componentize-js, pinned in package.json".to_string(),
        ),
        Language::C => (
            "clang and wasi-libc, made a component by jco",
            "sudo apt install clang lld wasi-libc libclang-rt-dev-wasm32   # Debian; and npm install, once, for jco"
                .to_string(),
        ),
    };
    let run = if world.is_tool() {
        format!(
            "smart-context plugin check {name}.wasm --args '{{\"word\": \"TODO\"}}'   # runs it alone on the current directory"
        )
    } else if world == World::CodeParser {
        format!(
            "smart-context plugin check {name}.wasm --input example.{name}   # parses one file, prints its outline"
        )
    } else {
        format!(
            "smart-context plugin check {name}.wasm --input example.{name}   # parses one file, prints the sections"
        )
    };
    format!(
        "# {name}\n\nA smart-context plugin ({world} world) built with {toolchain}.\n\n\
```sh\n{install}\n./build.sh                      # writes {name}.wasm\n{run}\nsmart-context plugin pin {name}.wasm   # prints the config entry that loads it, hash pinned\n```\n\n\
Paste the printed entry into the operator's config (`~/.config/smart-context/config.toml`, or\n\
`--config FILE`) and restart the server. `wit/plugin.wit` is the contract this host speaks;\n\
a plugin gets no files, network or environment through WASI, only the host interfaces it\n\
imports and is granted (the others answer ACCESS_DENIED). See docs/plugins.md of\n\
smart-context for the interfaces, the limits and the other languages.\n",
        world = world.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_make_a_file_a_config_key_and_a_tool() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["", "Notes", "1notes", "my_notes", "../up", &"x".repeat(49)] {
            assert!(
                scaffold(
                    Language::Rust,
                    World::FormatParser,
                    bad,
                    &dir.path().join("p")
                )
                .is_err(),
                "{bad:?}"
            );
        }
        // The code-parser template is Rust's.
        let refused = scaffold(
            Language::Python,
            World::CodeParser,
            "house",
            &dir.path().join("py-code"),
        )
        .unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("plugin new rust code-parser house"),
            "{refused}"
        );
        let written = scaffold(
            Language::Python,
            World::Pillar,
            "my-tool",
            &dir.path().join("p"),
        )
        .unwrap();
        let app = std::fs::read_to_string(dir.path().join("p/app.py")).unwrap();
        assert!(
            app.contains("name=\"my_tool\"") && !app.contains("{{"),
            "{app}"
        );
        assert!(written.iter().any(|p| p.ends_with("wit/plugin.wit")));
        // C's contract holds its one world, whole.
        scaffold(
            Language::C,
            World::FormatParser,
            "ini",
            &dir.path().join("c"),
        )
        .unwrap();
        let wit = std::fs::read_to_string(dir.path().join("c/wit/plugin.wit")).unwrap();
        let worlds: Vec<&str> = wit.lines().filter(|l| l.starts_with("world ")).collect();
        assert_eq!(worlds, ["world format-parser {"]);
        assert!(wit.contains("interface parser {") && wit.contains("import log;"));
        // Worlds gated by `@since` leave with their gate: what is left parses.
        assert!(!wit.trim_end().ends_with(')'), "a dangling gate: {wit}");
        let code = single_world(include_str!("../../../wit/plugin.wit"), "code-parser");
        let worlds: Vec<&str> = code.lines().filter(|l| l.starts_with("world ")).collect();
        assert_eq!(worlds, ["world code-parser {"]);
        assert!(code.contains("@since(version = 0.2.2)\nworld code-parser {"));
        assert!(scaffold(Language::C, World::Pillar, "tool", &dir.path().join("t")).is_err());
        // A project is never written over another.
        assert!(
            scaffold(
                Language::Js,
                World::Pillar,
                "my-tool",
                &dir.path().join("p")
            )
            .is_err()
        );
    }
}
