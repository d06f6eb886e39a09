//! What the analysis layer reads of the index: each code file's definitions, imports, call
//! sites and aliases as the catalogue holds them, read again only for files whose content
//! changed since the caller's copy.

use super::Index;
use super::catalog::{self, CodeFile};
use super::code::Symbol;
use super::queries::store_error;
use crate::error::HostResult;
use std::collections::HashMap;

/// One code file's catalogued facts.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    pub path: String,
    /// BLAKE3 of the content the facts were extracted from.
    pub hash: String,
    pub language: Option<String>,
    /// In source order, containers before their members (doc text left out).
    pub symbols: Vec<Symbol>,
    /// Module paths as written, with their lines.
    pub imports: Vec<(String, u32)>,
    /// Call sites: callee name, receiver as written (empty for a plain call), line.
    pub calls: Vec<(String, String, u32)>,
    /// (definition name, local name, line) for `import a as b` forms.
    pub aliases: Vec<(String, String, u32)>,
    /// Variables, parameters and fields with the type the file gives them.
    pub types: Vec<super::code::Typed>,
}

impl FileFacts {
    /// Whether each import (in the order of `imports`) is renamed on its line (`from m
    /// import a as b`, `import a.b as c`, `use a::b as c`, Go's `ts "m/teststructs"`): the
    /// language then binds the new name only, and the old one means whatever else the file
    /// gives it. One pass over the file's imports and aliases, however many there are.
    ///
    /// Aliases name what they rename by its last name only, so where a line imports that
    /// name more often than it renames it (`use crate::{a::run as run_a, b::run}`, `import
    /// a.b, c.b as d`), which one stays is unknown, and none counts as renamed.
    pub fn renamed_imports(&self) -> Vec<bool> {
        if self.aliases.is_empty() {
            return vec![false; self.imports.len()];
        }
        let mut renames: HashMap<(u32, &str), usize> = HashMap::new();
        for (original, local, line) in &self.aliases {
            if original != local {
                *renames.entry((*line, original.as_str())).or_default() += 1;
            }
        }
        let mut imported: HashMap<(u32, &str), usize> = HashMap::new();
        for (path, line) in &self.imports {
            *imported.entry((*line, last_segment(path))).or_default() += 1;
        }
        self.imports
            .iter()
            .map(|(path, line)| {
                let key = (*line, last_segment(path));
                let renamed = renames.get(&key).copied().unwrap_or(0);
                renamed > 0 && renamed >= imported[&key]
            })
            .collect()
    }

    /// The facts of a text that is not (or not yet) in the catalogue, as the indexer would
    /// record them: how a planned edit is put beside the indexed files.
    pub fn from_source(path: &str, language: super::code::Language, source: &str) -> FileFacts {
        Self::from_extraction(
            path,
            language,
            source,
            super::code::extract(language, source),
        )
    }

    /// [`from_source`](Self::from_source) for a planned text of `path`: the tree the syntax
    /// check kept for it is used (incrementally reparsed, or as it is when the check saw this
    /// very text), so a planned edit is parsed once for both.
    pub fn from_planned(path: &str, language: super::code::Language, source: &str) -> FileFacts {
        let x = super::code::syntax::tree(path, language, source)
            .map(|tree| super::code::extract_tree(language, source, &tree))
            .unwrap_or_default();
        Self::from_extraction(path, language, source, x)
    }

    fn from_extraction(
        path: &str,
        language: super::code::Language,
        source: &str,
        mut x: super::code::Extraction,
    ) -> FileFacts {
        super::code::anchor_modules(&mut x.types, path);
        FileFacts {
            path: path.to_string(),
            hash: blake3::hash(source.as_bytes()).to_hex().to_string(),
            language: Some(language.name().to_string()),
            symbols: x.symbols,
            imports: x.imports.into_iter().map(|e| (e.name, e.line)).collect(),
            calls: x
                .calls
                .into_iter()
                .map(|e| (e.name, e.receiver.unwrap_or_default(), e.line))
                .collect(),
            aliases: x
                .aliases
                .into_iter()
                .map(|a| (a.name, a.local, a.line))
                .collect(),
            types: x.types,
        }
    }
}

impl Index {
    /// A number that changes whenever any other connection (this process's writer or another
    /// process) commits to the catalogue's database: equal values mean nothing the analysis
    /// layer reads can have changed, so its graphs need no re-check.
    pub fn catalog_version(&self) -> HostResult<i64> {
        self.reader()
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(|e| store_error(e.into()))
    }

    /// Every catalogued code file with its content hash.
    pub fn code_files(&self) -> HostResult<Vec<CodeFile>> {
        catalog::code_files(&self.reader()).map_err(store_error)
    }

    /// Every catalogued code file, and the facts of those `wanted` selects, read in one
    /// transaction: a pass committing between the two reads would give a file's new id
    /// (its rows were replaced) and find no facts under it.
    pub fn code_files_and_facts(
        &self,
        wanted: impl Fn(&CodeFile) -> bool,
    ) -> HostResult<(Vec<CodeFile>, Vec<FileFacts>)> {
        let conn = self.bulk_reader();
        let read = conn
            .unchecked_transaction()
            .map_err(|e| store_error(e.into()))?;
        let files = catalog::code_files(&read).map_err(store_error)?;
        let chosen: Vec<CodeFile> = files.iter().filter(|f| wanted(f)).cloned().collect();
        let facts = facts_in(&read, &chosen)?;
        Ok((files, facts))
    }

    /// The facts of `files` (from [`Index::code_files`]), in the same order.
    pub fn file_facts(&self, files: &[CodeFile]) -> HostResult<Vec<FileFacts>> {
        facts_in(&self.reader(), files)
    }
}

/// The facts of `files` as `conn` sees the catalogue, in the same order.
fn facts_in(conn: &rusqlite::Connection, files: &[CodeFile]) -> HostResult<Vec<FileFacts>> {
    let ids: Vec<i64> = files.iter().map(|f| f.id).collect();
    let mut rows = catalog::facts_of(conn, &ids).map_err(store_error)?;
    Ok(files
        .iter()
        .map(|f| {
            let (symbols, edges) = rows.remove(&f.id).unwrap_or_default();
            let mut facts = FileFacts {
                path: f.path.clone(),
                hash: f.hash.clone(),
                language: f.language.clone(),
                symbols,
                ..FileFacts::default()
            };
            for (kind, name, key, line) in edges {
                match kind.as_str() {
                    "import" => facts.imports.push((name, line)),
                    "call" => facts.calls.push((name, key, line)),
                    "type" | "field" => {
                        // See `indexer`: `Foo 42` holds to line 42.
                        let until = key
                            .rsplit_once(' ')
                            .and_then(|(t, u)| Some((t, u.parse().ok()?)));
                        let (type_name, until) = match until {
                            Some((t, until)) => (t.to_string(), Some(until)),
                            None => (key, None),
                        };
                        facts.types.push(super::code::Typed {
                            field: kind == "field",
                            name,
                            type_name,
                            line,
                            until,
                        })
                    }
                    _ => facts.aliases.push((name, key, line)),
                }
            }
            facts
        })
        .collect())
}

/// The last segment of a module path or an imported name (`a.b.c`, `a::b::C`, `./x/y`):
/// the name an import binds.
pub fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '/'])
        .find(|s| !s.is_empty())
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::FileFacts;
    use crate::index::code::{Language, syntax};

    #[test]
    fn a_planned_text_s_facts_from_the_kept_tree_are_the_parsed_ones() {
        let lang = Language::from_extension("py").unwrap();
        let path = "planned/facts_reuse.py";
        let first = "import os\n\n\ndef f(x):\n    return g(x)\n";
        // The change pillar's order: the syntax check, then the facts of the same text.
        assert!(syntax::problems(path, lang, first).is_empty());
        let same = |text: &str| {
            format!("{:?}", FileFacts::from_planned(path, lang, text))
                == format!("{:?}", FileFacts::from_source(path, lang, text))
        };
        assert!(same(first));
        // A later plan of the same file: the kept tree is reparsed, not trusted as it is.
        let second = "import os\nimport re\n\n\ndef f(x):\n    return h(re.sub(x))\n\n\ndef h(y):\n    return y\n";
        assert!(same(second));
        let facts = FileFacts::from_planned(path, lang, second);
        assert_eq!(facts.symbols.len(), 2);
        assert!(facts.calls.iter().any(|(name, _, _)| name == "h"));
    }
}
