//! A line-based outline of a source file's top-level definitions: declarations that start at
//! column 0, ended by brace balance (C-family, Rust, Go, Java, JS/TS) or by indentation
//! (Python). Good enough to navigate by; tree-sitter replaces it with the index.

use crate::error::HostResult;
use crate::workspace::{ReadOptions, Workspace};

const MAX_OUTLINE_BYTES: u64 = 8 << 20;

#[derive(Debug, Clone, PartialEq)]
pub struct Symbol {
    pub name: String,
    pub kind: String,
    pub start: u32,
    pub end: u32,
    pub signature: String,
}

#[derive(Debug, Clone)]
pub struct FileOutline {
    pub path: String,
    pub language: Option<&'static str>,
    pub line_count: u32,
    pub byte_size: u64,
    pub symbols: Vec<Symbol>,
}

pub fn outline(ws: &Workspace, path: &str) -> HostResult<FileOutline> {
    let rel = ws.normalize(path)?;
    let options = ReadOptions {
        max_bytes: MAX_OUTLINE_BYTES,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    let file = ws.read(&rel, options)?;
    let text = String::from_utf8_lossy(&file.bytes);
    let language = language_of(&rel);
    let lines: Vec<&str> = text.lines().collect();
    let symbols = match language {
        Some("python") => indented_definitions(&lines),
        Some(lang) => braced_definitions(&lines, lang),
        None => Vec::new(),
    };
    Ok(FileOutline {
        path: rel,
        language,
        line_count: lines.len() as u32,
        byte_size: file.size,
        symbols,
    })
}

/// The language of a path, by extension.
pub fn language_of(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => "rust",
        "py" | "pyi" => "python",
        "ts" | "tsx" | "mts" | "cts" => "typescript",
        "js" | "jsx" | "mjs" | "cjs" => "javascript",
        "go" => "go",
        "java" => "java",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "kt" | "kts" => "kotlin",
        "swift" => "swift",
        _ => return None,
    })
}

/// (keyword prefix, kind) pairs that open a definition, after visibility modifiers.
fn keywords(lang: &str) -> &'static [(&'static str, &'static str)] {
    match lang {
        "rust" => &[
            ("fn ", "fn"),
            ("struct ", "struct"),
            ("enum ", "enum"),
            ("trait ", "trait"),
            ("impl", "impl"),
            ("mod ", "mod"),
            ("type ", "type"),
            ("const ", "const"),
            ("static ", "static"),
            ("macro_rules!", "macro"),
            ("union ", "union"),
        ],
        "go" => &[
            ("func ", "func"),
            ("type ", "type"),
            ("var ", "var"),
            ("const ", "const"),
        ],
        "typescript" | "javascript" => &[
            ("function ", "function"),
            ("function* ", "function"),
            ("class ", "class"),
            ("interface ", "interface"),
            ("type ", "type"),
            ("enum ", "enum"),
            ("const ", "const"),
            ("let ", "let"),
            ("var ", "var"),
            ("namespace ", "namespace"),
        ],
        "java" | "csharp" | "kotlin" | "swift" => &[
            ("class ", "class"),
            ("interface ", "interface"),
            ("enum ", "enum"),
            ("record ", "record"),
            ("struct ", "struct"),
            ("fun ", "fun"),
            ("func ", "func"),
            ("object ", "object"),
            ("protocol ", "protocol"),
            ("extension ", "extension"),
        ],
        _ => &[
            ("struct ", "struct"),
            ("class ", "class"),
            ("enum ", "enum"),
            ("union ", "union"),
            ("namespace ", "namespace"),
            ("typedef ", "typedef"),
        ],
    }
}

const MODIFIERS: &[&str] = &[
    "pub(crate) ",
    "pub(super) ",
    "pub ",
    "export default ",
    "export ",
    "default ",
    "async ",
    "unsafe ",
    "extern \"C\" ",
    "public ",
    "private ",
    "protected ",
    "internal ",
    "static ",
    "final ",
    "abstract ",
    "sealed ",
    "open ",
    "data ",
    "inline ",
    "declare ",
];

/// The declaration without its leading visibility and qualifier keywords; `const fn` is a fn.
fn strip_modifiers(mut line: &str) -> &str {
    loop {
        if let Some(rest) = line.strip_prefix("const fn ") {
            return &line[line.len() - rest.len() - "fn ".len()..];
        }
        match MODIFIERS.iter().find_map(|m| line.strip_prefix(m)) {
            Some(rest) => line = rest,
            None => return line,
        }
    }
}

/// Definitions at column 0 whose extent is found by brace balance; C-family functions
/// (`type name(...)` at column 0, not ending in `;`) are recognised too.
fn braced_definitions(lines: &[&str], lang: &str) -> Vec<Symbol> {
    let mut symbols = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let starts_at_col0 = line.starts_with(|c: char| !c.is_whitespace());
        let kind = if starts_at_col0 {
            definition_kind(line, lang)
        } else {
            None
        };
        let Some(kind) = kind else {
            i += 1;
            continue;
        };
        let end = block_end(lines, i);
        symbols.push(Symbol {
            name: name_of(line, kind),
            kind: kind.to_string(),
            start: i as u32 + 1,
            end: end as u32 + 1,
            signature: line.trim_end().to_string(),
        });
        i = end + 1;
    }
    symbols
}

fn definition_kind(line: &str, lang: &str) -> Option<&'static str> {
    let trimmed = line.trim_start();
    if trimmed.starts_with("//")
        || trimmed.starts_with("/*")
        || trimmed.starts_with('#')
        || trimmed.starts_with('*')
    {
        return None;
    }
    let bare = strip_modifiers(trimmed);
    if let Some((_, kind)) = keywords(lang).iter().find(|(kw, _)| bare.starts_with(kw)) {
        return Some(kind);
    }
    let c_like = matches!(lang, "c" | "cpp" | "java" | "csharp");
    let looks_like_function =
        bare.contains('(') && !bare.trim_end().ends_with(';') && !bare.starts_with("return");
    (c_like && looks_like_function).then_some("function")
}

/// The line where the block opened on or after `start` closes (brace depth back to 0), or the
/// line itself for a one-line declaration ending in `;` before any brace.
fn block_end(lines: &[&str], start: usize) -> usize {
    let mut depth: i64 = 0;
    let mut opened = false;
    for (offset, line) in lines[start..].iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return start + offset;
        }
        if !opened && code.trim_end().ends_with(';') {
            return start + offset;
        }
        // A declaration that never opens a block within a few lines is a one-liner.
        if !opened && offset >= 8 {
            return start;
        }
    }
    lines.len().saturating_sub(1).max(start)
}

/// Python: `def`, `async def` and `class` at column 0 (decorators included), ended where the
/// indentation returns to column 0.
fn indented_definitions(lines: &[&str]) -> Vec<Symbol> {
    let mut symbols = Vec::new();
    let mut decorator_start: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with('@') {
            decorator_start.get_or_insert(i);
            continue;
        }
        let kind = if line.starts_with("def ") || line.starts_with("async def ") {
            "function"
        } else if line.starts_with("class ") {
            "class"
        } else {
            if !line.trim().is_empty() {
                decorator_start = None;
            }
            continue;
        };
        let start = decorator_start.take().unwrap_or(i);
        let mut end = i;
        for (j, next) in lines.iter().enumerate().skip(i + 1) {
            if next.trim().is_empty() {
                continue;
            }
            if next.starts_with(|c: char| !c.is_whitespace()) {
                break;
            }
            end = j;
        }
        symbols.push(Symbol {
            name: name_of(line, kind),
            kind: kind.to_string(),
            start: start as u32 + 1,
            end: end as u32 + 1,
            signature: line.trim_end().to_string(),
        });
    }
    symbols
}

/// The identifier after the keyword, or the word before `(` for C-style functions.
fn name_of(line: &str, kind: &str) -> String {
    let bare = strip_modifiers(line.trim_start());
    let keyword_led =
        kind != "function" || bare.starts_with("function") || bare.starts_with("def ");
    let candidate = if keyword_led {
        bare.split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest.trim_start())
    } else {
        bare.split('(')
            .next()
            .and_then(|head| head.split_whitespace().last())
            .unwrap_or("")
    };
    candidate
        .trim_start_matches(['*', '&'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '$'))
        .collect::<String>()
        .trim_end_matches(':')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(symbols: &[Symbol]) -> Vec<(String, String, u32, u32)> {
        symbols
            .iter()
            .map(|s| (s.kind.clone(), s.name.clone(), s.start, s.end))
            .collect()
    }

    #[test]
    fn rust_items_with_ranges() {
        let src = "use x;\n\npub struct A {\n    b: u8,\n}\n\npub(crate) async fn run(x: u8) -> u8 {\n    if x { 1 } else { 2 }\n}\nconst N: u8 = 3;\npub const fn k() {}\nimpl A {\n    fn m(&self) {}\n}\n";
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(
            names(&braced_definitions(&lines, "rust")),
            [
                ("struct".into(), "A".into(), 3, 5),
                ("fn".into(), "run".into(), 7, 9),
                ("const".into(), "N".into(), 10, 10),
                ("fn".into(), "k".into(), 11, 11),
                ("impl".into(), "A".into(), 12, 14),
            ]
        );
    }

    #[test]
    fn python_defs_and_classes_with_decorators() {
        let src = "import os\n\n@decorator\ndef f(x):\n    return x\n\nclass C:\n    def m(self):\n        pass\n\nX = 1\n";
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(
            names(&indented_definitions(&lines)),
            [
                ("function".into(), "f".into(), 3, 5),
                ("class".into(), "C".into(), 7, 9)
            ]
        );
    }

    #[test]
    fn c_functions_and_ts_exports() {
        let c: Vec<&str> =
            "#include <x.h>\nstatic int add(int a, int b) {\n  return a + b;\n}\nint decl(void);\n"
                .lines()
                .collect();
        assert_eq!(
            names(&braced_definitions(&c, "c")),
            [("function".into(), "add".into(), 2, 4)]
        );
        let ts: Vec<&str> =
            "export default function main() {\n}\nexport interface P { a: string }\n"
                .lines()
                .collect();
        assert_eq!(
            names(&braced_definitions(&ts, "typescript")),
            [
                ("function".into(), "main".into(), 1, 2),
                ("interface".into(), "P".into(), 3, 3)
            ]
        );
    }

    #[test]
    fn unknown_languages_have_no_symbols_but_facts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "a\nb\n").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let o = outline(&ws, "notes.txt").unwrap();
        assert_eq!(
            (o.language, o.line_count, o.byte_size, o.symbols.len()),
            (None, 2, 4, 0)
        );
    }
}
