//! A literal, line-oriented scan of the workspace, ripgrep-style: .gitignore respected,
//! sensitive, binary and oversized files skipped. ASCII case folding keeps byte offsets exact.

use crate::error::{HostError, HostResult, codes};
use crate::workspace::{ReadOptions, Workspace, policy};

/// Files larger than this are not scanned.
const MAX_SCAN_BYTES: u64 = 4 << 20;
/// Characters of a matching line kept as its preview.
const PREVIEW_CHARS: usize = 160;

#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub case_sensitive: bool,
    pub max_results: u32,
    pub path_prefix: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub preview: String,
}

#[derive(Debug, Default)]
pub struct SearchResult {
    pub hits: Vec<Hit>,
    pub files_scanned: u32,
    pub truncated: bool,
}

pub fn search(ws: &Workspace, query: &str, options: &SearchOptions) -> HostResult<SearchResult> {
    if query.is_empty() {
        return Err(HostError::new(codes::INVALID_ARGS, "empty search query"));
    }
    let scope = ws.normalize(options.path_prefix.as_deref().unwrap_or("."))?;
    ws.stat(&scope)?;
    let needle = if options.case_sensitive {
        query.to_string()
    } else {
        query.to_ascii_lowercase()
    };
    let read = ReadOptions {
        max_bytes: MAX_SCAN_BYTES,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    let mut result = SearchResult::default();
    let mut paths: Vec<String> = ws
        .walker(&scope)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| ws.relative(e.path()))
        .filter(|p| !policy::is_sensitive(p))
        .collect();
    paths.sort();
    for path in paths {
        // Unreadable, binary, oversized or vanished files are simply not matches.
        let Ok(file) = ws.read(&path, read) else {
            continue;
        };
        result.files_scanned += 1;
        let text = String::from_utf8_lossy(&file.bytes);
        for (index, line) in text.lines().enumerate() {
            let haystack = if options.case_sensitive {
                line.to_string()
            } else {
                line.to_ascii_lowercase()
            };
            let Some(at) = haystack.find(&needle) else {
                continue;
            };
            if result.hits.len() as u32 >= options.max_results {
                result.truncated = true;
                return Ok(result);
            }
            result.hits.push(Hit {
                path: path.clone(),
                line: index as u32 + 1,
                column: line[..at].chars().count() as u32 + 1,
                preview: preview(line),
            });
        }
    }
    Ok(result)
}

fn preview(line: &str) -> String {
    let trimmed = line.trim();
    if trimmed.chars().count() <= PREVIEW_CHARS {
        return trimmed.to_string();
    }
    let mut cut: String = trimmed.chars().take(PREVIEW_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(max: u32) -> SearchOptions {
        SearchOptions {
            case_sensitive: false,
            max_results: max,
            path_prefix: None,
        }
    }

    #[test]
    fn finds_lines_respecting_ignore_and_sensitivity() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("build")).unwrap();
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        std::fs::write(root.join("src/lib.rs"), "fn main() {}\n  let Needle = 1;\n").unwrap();
        std::fs::write(root.join("build/out.rs"), "needle\n").unwrap();
        std::fs::write(root.join(".env"), "NEEDLE=secret\n").unwrap();
        std::fs::write(root.join("bin.dat"), b"needle\0").unwrap();
        let ws = Workspace::open(root).unwrap();
        let result = search(&ws, "needle", &options(10)).unwrap();
        assert_eq!(
            result.hits,
            [Hit {
                path: "src/lib.rs".into(),
                line: 2,
                column: 7,
                preview: "let Needle = 1;".into()
            }]
        );
        let exact = SearchOptions {
            case_sensitive: true,
            ..options(10)
        };
        assert!(search(&ws, "needle", &exact).unwrap().hits.is_empty());
    }

    #[test]
    fn caps_results_and_scopes_to_prefix() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/x.txt"), "hit\nhit\nhit\n").unwrap();
        std::fs::write(dir.path().join("y.txt"), "hit\n").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let capped = search(&ws, "hit", &options(2)).unwrap();
        assert_eq!((capped.hits.len(), capped.truncated), (2, true));
        let scoped = SearchOptions {
            path_prefix: Some("a".into()),
            ..options(10)
        };
        assert!(
            search(&ws, "hit", &scoped)
                .unwrap()
                .hits
                .iter()
                .all(|h| h.path == "a/x.txt")
        );
        let escape = SearchOptions {
            path_prefix: Some("..".into()),
            ..options(10)
        };
        assert_eq!(
            search(&ws, "hit", &escape).unwrap_err().code,
            codes::ACCESS_DENIED
        );
    }
}
