//! Import resolution by convention: which indexed file an import names. Each language's
//! module system is approximated by path suffixes (Python dotted modules, JS/TS relative
//! specifiers, C includes, Rust module paths, Go package directories, Java class files, and
//! for the languages of the built-in code parsers Ruby requires, PHP `use` by PSR-4 and
//! includes, shell `source`, Lua `require`).

use super::code::{Language, Symbol};

/// The lookup key of an import: the last module segment, without a file extension.
/// Imports and files with the same key are the candidates resolution checks.
pub fn import_key(name: &str) -> String {
    // A group or wildcard import (`a.b.{C, D}`, `a.b._`) is keyed by its package.
    let name = name.split(['{', ' ']).next().unwrap_or(name);
    let name = name
        .strip_suffix("._")
        .or_else(|| name.strip_suffix(".*"))
        .unwrap_or(name);
    let name = name.trim_end_matches('.');
    let last = name
        .rsplit(['/', ':', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or(name);
    let has_file_ext = last
        .rsplit_once('.')
        .is_some_and(|(_, ext)| KNOWN_EXTENSIONS.contains(&ext));
    if has_file_ext || name.contains('/') {
        last.split('.').next().unwrap_or(last).to_string()
    } else {
        last.rsplit('.').next().unwrap_or(last).to_string()
    }
}

/// The catalogue key of a link target or a linked file: its file name's stem
/// (`../guide.md#install` and `docs/guide.md` both give `guide`).
pub fn link_key(target: &str) -> String {
    let path = target.split(['#', '?']).next().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name).to_string()
}

/// The workspace path a document link points at (`#anchor` and `?query` dropped), when it is
/// a relative or root-relative path rather than a URL.
pub fn link_target(from: &str, target: &str) -> Option<String> {
    let target = target.split(['#', '?']).next().unwrap_or("");
    if target.is_empty() {
        // An anchor in the same document.
        return Some(from.to_string());
    }
    if target.contains("://") || target.starts_with("mailto:") || target.starts_with("//") {
        return None;
    }
    let base = if target.starts_with('/') {
        ""
    } else {
        from.rsplit_once('/').map_or("", |(dir, _)| dir)
    };
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

const KNOWN_EXTENSIONS: &[&str] = &[
    "h", "hpp", "hh", "hxx", "c", "cc", "cpp", "js", "jsx", "mjs", "cjs", "ts", "tsx", "py", "rs",
    "go", "java", "inc", "rb", "php", "sh", "bash", "lua", "cs", "kt", "scala", "swift", "dart",
    "sol", "nix", "proto", "mk", "cmake", "vue", "svelte", "bzl", "css",
];

/// Files named like a package (`__init__.py`, `index.ts`, `mod.rs`) are keyed by their
/// directory; the rest by their stem.
pub fn file_keys(path: &str) -> Vec<String> {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_string();
    let mut keys = vec![stem.clone()];
    if is_package_root(path)
        && let Some(dir) = parts.next()
    {
        keys.push(dir.to_string());
    }
    // A Go file is its package, the directory, and so is a Terraform file its module; Lua's
    // `require "pkg"` loads `pkg/init.lua`, Nix's `import ./pkg` pkg/default.nix, CMake's
    // `add_subdirectory(pkg)` pkg/CMakeLists.txt.
    // A Clojure namespace spells a file's `_` as `-` (`shop.cart-item` is cart_item.clj).
    if [".clj", ".cljs", ".cljc"].iter().any(|e| name.ends_with(e)) && stem.contains('_') {
        keys.push(stem.replace('_', "-"));
    }
    // An OCaml file is the module of its capitalised name (`cart.ml` is `Cart`).
    if (name.ends_with(".ml") || name.ends_with(".mli"))
        && let Some(first) = stem.get(..1)
    {
        keys.push(format!("{}{}", first.to_ascii_uppercase(), &stem[1..]));
    }
    if (path.ends_with(".go")
        || path.ends_with(".tf")
        || matches!(name, "init.lua" | "default.nix" | "CMakeLists.txt"))
        && let Some(dir) = path.rsplit('/').nth(1)
    {
        keys.push(dir.to_string());
    }
    keys
}

/// The module path a go.mod declares (`module github.com/gorilla/mux`, quoted or not).
pub fn go_module(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|line| {
        let line = line.split("//").next()?.trim();
        let rest = line.strip_prefix("module")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let module = rest.trim().trim_matches(['"', '`']);
        (!module.is_empty() && !module.contains(char::is_whitespace)).then(|| module.to_string())
    })
}

/// The crate a Cargo.toml declares: `[lib] name`, else `[package] name` with its
/// `-` read as `_` (the name Rust paths use); none for a workspace's own manifest or one
/// that does not parse.
pub fn cargo_crate(manifest: &str) -> Option<String> {
    let doc: toml::Table = manifest.parse().ok()?;
    let name_in = |section: &str| doc.get(section)?.get("name")?.as_str();
    let name = name_in("lib")
        .or_else(|| name_in("package"))?
        .replace('-', "_");
    // What cargo accepts: an identifier that no path keyword is (a hostile manifest
    // naming its crate `crate` or `self` would capture those paths).
    let identifier = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (identifier && !matches!(name.as_str(), "crate" | "self" | "super" | "Self")).then_some(name)
}

/// A file that stands for its directory (`pkg/__init__.py`, `lib/index.ts`, `a/mod.rs`,
/// `src/lib.rs`): an import of the directory lands on it, and it often re-exports the rest.
pub fn is_package_root(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    matches!(stem, "__init__" | "index" | "mod" | "lib")
}

/// Whether `language`'s imports name modules its code declares, wherever their files sit: a
/// C# `using Shop.Services` is every file with `namespace Shop.Services`, F#'s `open
/// Shop.Cart` the file of `module Shop.Cart`. Such an import resolves by declaration
/// ([`declared_modules`]), not by path.
pub fn imports_declared_modules(language: Option<&str>) -> bool {
    matches!(language, Some("csharp" | "fsharp"))
}

/// The modules a file of `language` declares (see [`imports_declared_modules`]), as their
/// imports spell them: a nested `namespace Services` in `namespace Shop` is `Shop.Services`.
pub fn declared_modules<'s>(
    language: Option<&str>,
    symbols: impl IntoIterator<Item = &'s Symbol>,
) -> Vec<String> {
    if !imports_declared_modules(language) {
        return Vec::new();
    }
    let mut out: Vec<String> = symbols
        .into_iter()
        .filter(|s| s.kind == "namespace")
        .map(|s| match &s.container {
            Some(outer) => format!("{outer}.{}", s.name),
            None => s.name.clone(),
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The relative paths (or path suffixes, marked by a leading `/`) an import may name.
pub fn candidates(lang: Option<&str>, importer: &str, name: &str) -> Vec<String> {
    let dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
    let native = lang.and_then(|l| Language::ALL.into_iter().find(|x| x.name() == l));
    if native.is_none() {
        return component_candidates(lang.unwrap_or(""), dir, name);
    }
    match native {
        Some(Language::Python) => {
            let dots = name.chars().take_while(|c| *c == '.').count();
            let module = name[dots..].replace('.', "/");
            let base = if dots == 0 {
                format!("/{module}")
            } else {
                let mut base = dir.to_string();
                for _ in 1..dots {
                    base = base
                        .rsplit_once('/')
                        .map_or(String::new(), |(d, _)| d.to_string());
                }
                join(&base, &module)
            };
            vec![format!("{base}.py"), format!("{base}/__init__.py")]
        }
        Some(
            Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
            | Language::Vue
            | Language::Svelte
            | Language::Html,
        ) => {
            if !name.starts_with('.') {
                return Vec::new();
            }
            let base = join(dir, name);
            let mut out = vec![base.clone()];
            for ext in ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs"] {
                out.push(format!("{base}.{ext}"));
                out.push(format!("{base}/index.{ext}"));
            }
            out
        }
        Some(Language::C | Language::Cpp) => vec![join(dir, name), format!("/{name}")],
        Some(Language::Rust) => {
            let segments: Vec<&str> = name
                .split("::")
                .filter(|s| !matches!(*s, "crate" | "self" | "super" | ""))
                .collect();
            (1..=segments.len())
                .flat_map(|k| {
                    let module = segments[..k].join("/");
                    [format!("/{module}.rs"), format!("/{module}/mod.rs")]
                })
                .collect()
        }
        // The module path's prefix (example.com/m) is not a directory of the tree: any
        // trailing run of its segments may be.
        Some(Language::Go) => {
            let segments: Vec<&str> = name.split('/').filter(|s| !s.is_empty()).collect();
            (0..segments.len())
                .map(|k| format!("/{}/", segments[k..].join("/")))
                .collect()
        }
        // A type's file, else its outer type's: a static import's member or a nested type
        // (`import static a.Util.check`, `import a.Outer.Inner`) is declared in the parent's.
        Some(Language::Java) => {
            let mut out = vec![format!("/{}.java", name.replace('.', "/"))];
            if let Some((parent, _)) = name.rsplit_once('.') {
                out.push(format!("/{}.java", parent.replace('.', "/")));
            }
            out
        }
        None => Vec::new(),
    }
}

/// A module path's file name without its extension (`../core/util.js` gives `util`): the
/// name a CommonJS `const util = require(..)` alias records for the module.
pub fn module_stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.split('.').next().unwrap_or(file)
}

/// The files a Rust path rooted at `crate`, `self` or `super` names from `importer`, the
/// deepest module first (`crate::algorithms::utils::f`: src/algorithms/utils.rs before
/// src/algorithms/mod.rs, and never a src/utils.rs elsewhere); empty for other paths.
pub fn rust_module_files(importer: &str, name: &str) -> Vec<String> {
    let mut segments = name.split("::").filter(|s| !s.is_empty()).peekable();
    let (dir, file) = importer.rsplit_once('/').unwrap_or(("", importer));
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    // The directory holding the importer's own submodules.
    let own = if matches!(stem, "mod" | "lib" | "main") {
        dir.to_string()
    } else {
        join(dir, stem)
    };
    let mut base = match segments.peek().copied() {
        // The crate's root is the directory of its lib.rs or main.rs: by convention the
        // nearest src/ above the importer.
        Some("crate") => match importer.rfind("src/") {
            Some(i) if i == 0 || importer[..i].ends_with('/') => importer[..i + 3].to_string(),
            _ => return Vec::new(),
        },
        Some("self" | "super") => own,
        _ => return Vec::new(),
    };
    if segments.peek() == Some(&"crate") {
        segments.next();
    }
    while let Some(&s) = segments.peek() {
        match s {
            "self" => {}
            "super" => {
                base = base
                    .rsplit_once('/')
                    .map_or(String::new(), |(d, _)| d.into())
            }
            _ => break,
        }
        segments.next();
    }
    let rest: Vec<&str> = segments.collect();
    if rest.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<String> = (1..=rest.len())
        .rev()
        .flat_map(|k| {
            let module = join(&base, &rest[..k].join("/"));
            [format!("{module}.rs"), format!("{module}/mod.rs")]
        })
        .collect();
    // An item of the base module itself (`use super::helper` of a function): its file, or
    // the crate root's.
    out.extend([format!("{base}.rs"), format!("{base}/mod.rs")]);
    if base.ends_with("src") || base.is_empty() {
        out.extend([join(&base, "lib.rs"), join(&base, "main.rs")]);
    }
    out
}

/// [`candidates`] for the languages of the built-in code-parser components.
fn component_candidates(lang: &str, dir: &str, name: &str) -> Vec<String> {
    let relative = |ext: &str| {
        let base = join(dir, name);
        if name.ends_with(&format!(".{ext}")) {
            vec![base]
        } else {
            vec![format!("{base}.{ext}"), base]
        }
    };
    match lang {
        // `require_relative "x"` is relative to the file; `require "a/b"` is on the load path
        // (lib/, mostly): a file ending in /a/b.rb.
        "ruby" => {
            let mut out = relative("rb");
            if !name.starts_with('.') {
                out.push(format!("/{}.rb", name.trim_end_matches(".rb")));
            }
            out
        }
        // `use App\Models\User`: PSR-4 maps a namespace prefix to a directory, so the class
        // is a file ending in its last segments (`Models/User.php`, two at least when there
        // are two); `require 'x.php'` is relative, or on the include path.
        "php" if !name.contains('/') && !name.ends_with(".php") && !name.ends_with(".inc") => {
            let segments: Vec<&str> = name.split('\\').filter(|s| !s.is_empty()).collect();
            let keep = segments.len().min(2);
            (0..=segments.len().saturating_sub(keep))
                .map(|k| format!("/{}.php", segments[k..].join("/")))
                .collect()
        }
        "php" => {
            let mut out = vec![join(dir, name)];
            if !name.starts_with('.') {
                out.push(format!("/{}", name.trim_start_matches('/')));
            }
            out
        }
        // `source ./lib/x.sh`: relative to the script (a `$VAR` path names nothing).
        "bash" if !name.contains('$') => relative("sh"),
        "bash" => Vec::new(),
        // `import a.b.C` (or `a.b.{C, D}`, `a.b._`): by convention the class sits in
        // a/b/C.kt (.scala) under some source root, and its package in the directory a/b/.
        "kotlin" | "scala" => {
            let ext = if lang == "kotlin" { "kt" } else { "scala" };
            let path = name.split(['{', ' ']).next().unwrap_or(name);
            let segments: Vec<&str> = path
                .split('.')
                .filter(|s| !s.is_empty() && *s != "_" && *s != "*")
                .collect();
            let Some((last, package)) = segments.split_last() else {
                return Vec::new();
            };
            let mut out = vec![format!("/{}/", segments.join("/"))];
            if !package.is_empty() {
                out.push(format!("/{}/{last}.{ext}", package.join("/")));
            }
            out
        }
        // `require "a.b"`: a/b.lua or a/b/init.lua on the package path.
        "lua" => {
            let module = name.replace('.', "/");
            vec![format!("/{module}.lua"), format!("/{module}/init.lua")]
        }
        // `import 'package:app/src/x.dart'` is the file under package app's lib/; `dart:io`
        // is the SDK's; any other URI is relative to the importer.
        "dart" => match name.strip_prefix("package:") {
            Some(path) => match path.split_once('/') {
                Some((package, rest)) => {
                    vec![format!("/{package}/lib/{rest}"), format!("/lib/{rest}")]
                }
                None => Vec::new(),
            },
            None if name.contains(':') => Vec::new(),
            None => vec![join(dir, name)],
        },
        // `import "./A.sol"` is relative; `import "@scope/pkg/A.sol"` or `"contracts/A.sol"`
        // is found by its path's end (a remapping or a dependency's folder).
        "solidity" | "protobuf" if !name.starts_with('.') => {
            vec![format!("/{}", name.trim_start_matches('/'))]
        }
        "solidity" | "protobuf" | "make" => vec![join(dir, name)],
        // `import ./lib` is lib/default.nix when it names a directory.
        "nix" if name.ends_with(".nix") => vec![join(dir, name)],
        "nix" => vec![join(dir, &format!("{name}/default.nix"))],
        // A module's `source = "./modules/vpc"`: the .tf files directly in that directory.
        "hcl" if name.starts_with('.') => vec![format!("/{}/", join(dir, name))],
        "hcl" => Vec::new(),
        // `include(cmake/x.cmake)` is relative to the list file or found by its end;
        // `add_subdirectory(src)` is src/CMakeLists.txt; `include(Module)` a module file.
        "cmake" if name.contains("${") => Vec::new(),
        "cmake" if name.ends_with(".cmake") => {
            vec![
                join(dir, name),
                format!("/{}", name.trim_start_matches("./")),
            ]
        }
        "cmake" => vec![
            join(dir, &format!("{name}/CMakeLists.txt")),
            format!("/{name}.cmake"),
        ],
        // `(:require [shop.cart-item])` is shop/cart_item.clj (or .cljs, .cljc).
        "clojure" => {
            let path = name.replace('.', "/").replace('-', "_");
            ["clj", "cljc", "cljs"]
                .iter()
                .map(|ext| format!("/{path}.{ext}"))
                .collect()
        }
        // `open Cart_item` is the module of cart_item.ml (its interface, cart_item.mli).
        "ocaml" => {
            let module = name.rsplit('.').next().unwrap_or(name);
            let mut file = module.to_string();
            if let Some(first) = file.get_mut(..1) {
                first.make_ascii_lowercase();
            }
            vec![format!("/{file}.ml"), format!("/{file}.mli")]
        }
        // `import Shop.Cart` is Shop/Cart.elm under a source directory.
        "elm" => vec![format!("/{}.elm", name.replace('.', "/"))],
        // Bazel's `load("//pkg/sub:defs.bzl")` is pkg/sub/defs.bzl from the workspace root,
        // `load(":defs.bzl")` beside the BUILD file; `@repo//...` is another repository's.
        "starlark" => match (name.strip_prefix("//"), name.strip_prefix(':')) {
            (Some(path), _) => vec![path.replacen(':', "/", 1)],
            (_, Some(file)) => vec![join(dir, file)],
            _ => Vec::new(),
        },
        // `@import "base.css"` or `url(base.css)`: relative to the stylesheet.
        "css" if !name.contains("://") => vec![join(dir, name)],
        // `#import "Cart.h"`: beside the importer or on the include path, as in C.
        "objc" => vec![join(dir, name), format!("/{name}")],
        // A language of a third party's code parser: an import written as a path (`a/b.x`,
        // `./b.x`) names a file beside the importer or a file ending in that path.
        _ if name.contains('/') && !name.contains("://") => {
            vec![
                join(dir, name),
                format!("/{}", name.trim_start_matches("./")),
            ]
        }
        _ => Vec::new(),
    }
}

/// Whether `path` is one of `candidates` (a leading `/` means "ends with", a trailing `/`
/// means "is directly inside").
///
/// Asked for every file a common module name (`mod`, `lib`, `error`) may mean, per import and
/// call site, so it compares in place rather than building the rooted path.
pub fn matches(path: &str, candidates: &[String]) -> bool {
    // The rooted path is "/" + path; its directory with a trailing slash is "/" + the
    // path's directory + "/" (just "/" at the top).
    let dir = path.rsplit_once('/').map(|(d, _)| d);
    candidates.iter().any(|c| {
        if c.ends_with('/') {
            match dir {
                Some(d) => concat_ends_with(&["/", d, "/"], c),
                None => "/".ends_with(c.as_str()),
            }
        } else if c.starts_with('/') {
            concat_ends_with(&["/", path], c)
        } else {
            path == c
        }
    })
}

/// Whether the concatenation of `parts` ends with `suffix`, without building it.
fn concat_ends_with(parts: &[&str], suffix: &str) -> bool {
    let mut rest = suffix;
    for part in parts.iter().rev() {
        if rest.len() <= part.len() {
            return part.ends_with(rest);
        }
        match rest.strip_suffix(part) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

/// `dir` joined with a relative `spec`, `.` and `..` resolved.
/// A relative module path as written in `importer` (`../core/request.js`), from the tree's
/// root (`lib/core/request.js`).
pub fn anchored(importer: &str, spec: &str) -> String {
    join(importer.rsplit_once('/').map_or("", |(d, _)| d), spec)
}

fn join(dir: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_resolve_relative_to_the_document() {
        assert_eq!(
            link_target("docs/a.md", "b.md#x").as_deref(),
            Some("docs/b.md")
        );
        assert_eq!(
            link_target("docs/a.md", "../README.md").as_deref(),
            Some("README.md")
        );
        assert_eq!(
            link_target("docs/a.md", "/src/lib.rs").as_deref(),
            Some("src/lib.rs")
        );
        assert_eq!(
            link_target("docs/a.md", "#install").as_deref(),
            Some("docs/a.md")
        );
        assert_eq!(link_target("a.md", "https://x.org/a.md"), None);
        assert_eq!(link_target("a.md", "../../etc/passwd"), None);
    }

    /// `matches` compares in place; the answers are those of the rooted path it once built.
    #[test]
    fn matching_in_place_answers_as_the_rooted_path() {
        let rooted = |path: &str, c: &str| {
            let rooted = format!("/{path}");
            if c.ends_with('/') {
                let dir = rooted.rsplit_once('/').map_or("", |(d, _)| d);
                format!("{dir}/").ends_with(c)
            } else if c.starts_with('/') {
                rooted.ends_with(c)
            } else {
                path == c
            }
        };
        let paths = ["a.py", "x/a.py", "x/y/a.py", "xa.py", "é/ü.rs", ""];
        let written = [
            "/",
            "/a.py",
            "a.py",
            "/x/a.py",
            "x/",
            "/x/",
            "y/",
            "/x/y/",
            "x/y/",
            "a.py/",
            "/xa.py",
            "/é/ü.rs",
            "é/",
            "/é/",
            "//",
            "",
        ];
        for path in paths {
            for c in written {
                let one = [c.to_string()];
                assert_eq!(
                    matches(path, &one),
                    rooted(path, c),
                    "{path:?} against {c:?}"
                );
            }
        }
    }

    #[test]
    fn keys() {
        assert_eq!(import_key("django.db.models"), "models");
        assert_eq!(import_key("./util/strings"), "strings");
        assert_eq!(import_key("../x.js"), "x");
        assert_eq!(import_key("util/list.h"), "list");
        assert_eq!(import_key("crate::store::Store"), "Store");
        assert_eq!(import_key("github.com/a/b"), "b");
        assert_eq!(file_keys("a/b/__init__.py"), ["__init__", "b"]);
        assert_eq!(file_keys("pkg/server/run.go"), ["run", "server"]);
    }

    #[test]
    fn resolution_by_language() {
        let py = candidates(Some("python"), "pkg/app/views.py", "django.db.models");
        assert!(matches("django/db/models/__init__.py", &py));
        assert!(!matches("other/models.py", &py));
        let rel = candidates(Some("python"), "pkg/app/views.py", "..core.utils");
        assert!(matches("pkg/core/utils.py", &rel));
        let js = candidates(Some("typescript"), "src/ui/button.ts", "../lib/dom");
        assert!(matches("src/lib/dom.ts", &js) && matches("src/lib/dom/index.js", &js));
        assert!(candidates(Some("javascript"), "a.js", "react").is_empty());
        let c = candidates(Some("c"), "src/main.c", "util/list.h");
        assert!(matches("src/util/list.h", &c) && matches("include/util/list.h", &c));
        let rs = candidates(Some("rust"), "src/app.rs", "crate::store::Store");
        assert!(matches("host/src/store/mod.rs", &rs) && matches("src/store.rs", &rs));
        assert_eq!(
            go_module("// a module\nmodule github.com/gorilla/mux // why\n\ngo 1.12\n").as_deref(),
            Some("github.com/gorilla/mux")
        );
        assert_eq!(
            go_module("module \"example.com/m\"\n").as_deref(),
            Some("example.com/m")
        );
        assert_eq!(go_module("modules x\ngo 1.20\n"), None);
        let go = candidates(Some("go"), "main.go", "example.com/m/server");
        assert!(matches("server/run.go", &go) && !matches("server/sub/x.go", &go));
        let java = candidates(Some("java"), "A.java", "com.acme.Util");
        assert!(matches("src/main/java/com/acme/Util.java", &java));
        // A static import's member lives in its type's file.
        let member = candidates(Some("java"), "A.java", "com.acme.Util.check");
        assert!(matches("src/main/java/com/acme/Util.java", &member));
    }

    #[test]
    fn resolution_for_the_code_parser_languages() {
        let rb = candidates(Some("ruby"), "lib/shop/cart.rb", "./item");
        assert!(matches("lib/shop/item.rb", &rb) && !matches("item.rb", &rb));
        let rb = candidates(Some("ruby"), "app/main.rb", "shop/cart");
        assert!(matches("lib/shop/cart.rb", &rb) && matches("app/shop/cart.rb", &rb));
        assert_eq!(import_key("App\\Models\\User"), "User");
        assert_eq!(import_key("shop.items.{Item, Price}"), "items");
        assert_eq!(import_key("scala.collection._"), "collection");
        let php = candidates(Some("php"), "app/Http/Kernel.php", "App\\Models\\User");
        assert!(matches("app/Models/User.php", &php) && !matches("app/Other/User.php", &php));
        let php = candidates(Some("php"), "public/index.php", "../bootstrap/app.php");
        assert!(matches("bootstrap/app.php", &php));
        let sh = candidates(Some("bash"), "scripts/deploy.sh", "./lib/common.sh");
        assert!(matches("scripts/lib/common.sh", &sh));
        assert!(candidates(Some("bash"), "a.sh", "$HOME/x.sh").is_empty());
        let lua = candidates(Some("lua"), "src/main.lua", "game.vector");
        assert!(matches("src/game/vector.lua", &lua) && matches("game/vector/init.lua", &lua));
        assert_eq!(file_keys("src/game/init.lua"), ["init", "game"]);
        assert!(candidates(Some("csharp"), "A.cs", "System.Text").is_empty());
        let kt = candidates(Some("kotlin"), "app/Main.kt", "shop.items.Item");
        assert!(matches("src/main/kotlin/shop/items/Item.kt", &kt));
        assert!(!matches("src/main/kotlin/shop/Item.kt", &kt));
        let scala = candidates(Some("scala"), "A.scala", "shop.items.{Item, Price}");
        assert!(matches("src/main/scala/shop/items/Price.scala", &scala));
        assert!(candidates(None, "a.txt", "x").is_empty());
        let dart = candidates(
            Some("dart"),
            "lib/src/cart.dart",
            "package:shop/src/item.dart",
        );
        assert!(matches("packages/shop/lib/src/item.dart", &dart));
        assert!(matches("lib/src/item.dart", &dart));
        let dart = candidates(Some("dart"), "lib/src/cart.dart", "cart_part.dart");
        assert!(matches("lib/src/cart_part.dart", &dart) && !matches("cart_part.dart", &dart));
        assert!(candidates(Some("dart"), "a.dart", "dart:io").is_empty());
        assert_eq!(import_key("cart_part.dart"), "cart_part");
        let sol = candidates(Some("solidity"), "contracts/Token.sol", "./IERC20.sol");
        assert!(matches("contracts/IERC20.sol", &sol));
        let sol = candidates(
            Some("solidity"),
            "contracts/Token.sol",
            "@oz/token/ERC20.sol",
        );
        assert!(matches("lib/oz/contracts/@oz/token/ERC20.sol", &sol));
        let nix = candidates(Some("nix"), "pkgs/top.nix", "./tool");
        assert!(matches("pkgs/tool/default.nix", &nix));
        assert_eq!(file_keys("pkgs/tool/default.nix"), ["default", "tool"]);
        let tf = candidates(Some("hcl"), "infra/main.tf", "./modules/vpc");
        assert!(matches("infra/modules/vpc/main.tf", &tf));
        assert!(!matches("infra/modules/vpc/sub/main.tf", &tf));
        assert!(candidates(Some("hcl"), "main.tf", "terraform-aws-modules/vpc/aws").is_empty());
        assert_eq!(file_keys("infra/modules/vpc/main.tf"), ["main", "vpc"]);
        let cmake = candidates(Some("cmake"), "CMakeLists.txt", "src");
        assert!(matches("src/CMakeLists.txt", &cmake));
        assert_eq!(file_keys("src/CMakeLists.txt"), ["CMakeLists", "src"]);
        let cmake = candidates(Some("cmake"), "CMakeLists.txt", "cmake/Warnings.cmake");
        assert!(matches("cmake/Warnings.cmake", &cmake));
        let make = candidates(Some("make"), "build/Makefile", "config.mk");
        assert!(matches("build/config.mk", &make));
        assert_eq!(import_key("config.mk"), "config");
        let clj = candidates(Some("clojure"), "src/shop/cart.clj", "shop.cart-item");
        assert!(matches("src/shop/cart_item.clj", &clj));
        assert_eq!(
            file_keys("src/shop/cart_item.clj"),
            ["cart_item", "cart-item"]
        );
        let ml = candidates(Some("ocaml"), "src/cart.ml", "Cart_item");
        assert!(matches("lib/cart_item.ml", &ml) && matches("lib/cart_item.mli", &ml));
        assert_eq!(file_keys("lib/cart_item.ml"), ["cart_item", "Cart_item"]);
        let elm = candidates(Some("elm"), "src/Main.elm", "Shop.Cart");
        assert!(matches("src/Shop/Cart.elm", &elm));
        let bzl = candidates(
            Some("starlark"),
            "pkg/BUILD.bazel",
            "//tools/build:defs.bzl",
        );
        assert!(matches("tools/build/defs.bzl", &bzl) && !matches("x/tools/build/defs.bzl", &bzl));
        assert_eq!(import_key("//tools/build:defs.bzl"), "defs");
        let bzl = candidates(Some("starlark"), "pkg/BUILD.bazel", ":macros.bzl");
        assert!(matches("pkg/macros.bzl", &bzl));
        assert!(candidates(Some("starlark"), "BUILD", "@rules_cc//cc:defs.bzl").is_empty());
        let css = candidates(Some("css"), "web/app.css", "base.css");
        assert!(matches("web/base.css", &css));
        let objc = candidates(Some("objc"), "Sources/Cart.m", "Cart.h");
        assert!(matches("Sources/Cart.h", &objc));
        let proto = candidates(
            Some("protobuf"),
            "proto/shop/v1/cart.proto",
            "shop/v1/item.proto",
        );
        assert!(matches("proto/shop/v1/item.proto", &proto));
        let house = candidates(Some("house"), "rules/billing.house", "rules/common.house");
        assert!(matches("rules/common.house", &house));
        let house = candidates(Some("house"), "rules/billing.house", "./common.house");
        assert!(matches("rules/common.house", &house));
        assert!(candidates(Some("house"), "a.house", "https://x.org/a").is_empty());
    }

    #[test]
    fn namespaces_are_the_modules_csharp_and_fsharp_files_declare() {
        let symbol = |name: &str, kind: &str, container: Option<&str>| Symbol {
            name: name.into(),
            kind: kind.into(),
            container: container.map(str::to_string),
            start_line: 1,
            end_line: 1,
            signature: String::new(),
            doc: None,
            branches: 0,
        };
        let symbols = [
            symbol("Shop.Services", "namespace", None),
            symbol("Billing", "namespace", Some("Shop")),
            symbol("BillingService", "class", Some("Shop.Services")),
            symbol("Shop.Services", "namespace", None),
        ];
        assert_eq!(
            declared_modules(Some("csharp"), &symbols),
            ["Shop.Billing", "Shop.Services"]
        );
        assert!(imports_declared_modules(Some("fsharp")));
        // Elsewhere a namespace is no module an import names (C++'s are resolved by path).
        assert!(declared_modules(Some("cpp"), &symbols).is_empty());
        assert!(!imports_declared_modules(None));
    }
}
