//! The spreadsheet format parser (calamine): one section per sheet and one per defined table.
//! A section starts with what it holds (`Sheet1!A1:D20, 20 rows x 4 columns`), then a line of
//! column letters and the rows as tab-separated cells prefixed with their row number, so a
//! preview shows the header row and any cell can be named by reference. Cells inside a table
//! appear in the table's section, not again in the sheet's.

use calamine::{Data, Range, Reader, Xlsx};
use sdk::archive::{Archive, Caps};
use sdk::doc::{Document, OutlineBuilder, ParserSpec};
use sdk::{ToolError, ToolResult, codes};
use std::io::Cursor;

/// Text kept per document; the rest is dropped with a warning.
const MAX_CHARS: usize = 16 << 20;
/// Rows rendered per sheet or table.
const MAX_ROWS: usize = 20_000;
/// A cell's text is cut to this many characters.
const CELL_CHARS: usize = 200;

pub struct Spreadsheet;

/// A defined table: name, where it is (0-based rows and columns, header row included) and its
/// column names.
struct TableInfo {
    name: String,
    top: u32,
    left: u32,
    bottom: u32,
    right: u32,
    columns: Vec<String>,
}

impl Spreadsheet {
    pub fn describe() -> ParserSpec {
        ParserSpec {
            format: "xlsx",
            extensions: &["xlsx", "xlsm"],
            signatures: &[],
            text_fallback: false,
        }
    }

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Document> {
        Archive::open(bytes, "xlsx", Caps::default())?;
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(malformed)?;
        let mut warnings = Vec::new();
        let tables_loaded = match book.load_tables() {
            Ok(()) => true,
            Err(e) => {
                warnings.push(format!("tables could not be read ({e}); sheets only"));
                false
            }
        };
        let sheets = book.sheet_names();
        let mut out = OutlineBuilder::new(MAX_CHARS);
        let mut failed = 0;
        for sheet in &sheets {
            let range = match book.worksheet_range(sheet) {
                Ok(range) => range,
                Err(e) => {
                    failed += 1;
                    warnings.push(format!("sheet {sheet} could not be read: {e}"));
                    continue;
                }
            };
            let tables: Vec<TableInfo> = if tables_loaded {
                let names: Vec<String> = book
                    .table_names_in_sheet(sheet)
                    .into_iter()
                    .cloned()
                    .collect();
                names
                    .iter()
                    .filter_map(|n| table_info(&mut book, n))
                    .collect()
            } else {
                Vec::new()
            };
            out.section(&sdk::doc::slug(sheet), vec![sheet.clone()], 1);
            let within_tables = |r: u32, c: u32| {
                tables
                    .iter()
                    .any(|t| (t.top..=t.bottom).contains(&r) && (t.left..=t.right).contains(&c))
            };
            let mut full = !render(&mut out, sheet, &range, None, &within_tables, &mut warnings);
            for t in &tables {
                if !out.line(&format!(
                    "table {} at {}",
                    t.name,
                    area(t.top, t.left, t.bottom, t.right)
                )) {
                    full = true;
                }
            }
            for t in &tables {
                if full {
                    break;
                }
                out.section(
                    &format!("{}/{}", sdk::doc::slug(sheet), sdk::doc::slug(&t.name)),
                    vec![sheet.clone(), t.name.clone()],
                    2,
                );
                full = !out.line(&format!("columns: {}", t.columns.join(", ")))
                    || !render(
                        &mut out,
                        sheet,
                        &range,
                        Some(t),
                        &|_, _| false,
                        &mut warnings,
                    );
            }
            if full {
                break;
            }
        }
        if !sheets.is_empty() && failed == sheets.len() {
            return Err(malformed("no sheet could be read"));
        }
        let mut doc = out.finish("xlsx");
        doc.warnings.extend(warnings);
        doc.metadata.push(("sheets".into(), sheets.join(", ")));
        doc.title = sheets.first().cloned();
        Ok(doc)
    }
}

/// Writes the cells of `range` (only those of `table` when given, leaving out those `skip`
/// says another section holds). False once the document's text cap is reached.
fn render(
    out: &mut OutlineBuilder,
    sheet: &str,
    range: &Range<Data>,
    table: Option<&TableInfo>,
    skip: &dyn Fn(u32, u32) -> bool,
    warnings: &mut Vec<String>,
) -> bool {
    let (Some((r0, c0)), Some((r1, c1))) = (range.start(), range.end()) else {
        return out.line(&format!("{sheet}: empty sheet"));
    };
    let (top, left, bottom, right) = match table {
        Some(t) => (t.top, t.left, t.bottom, t.right),
        None => (r0, c0, r1, c1),
    };
    let rows = bottom - top + 1;
    let columns = right - left + 1;
    if !out.line(&format!(
        "{sheet}!{}, {rows} rows x {columns} columns",
        area(top, left, bottom, right)
    )) {
        return false;
    }
    let letters: Vec<String> = (left..=right).map(column_name).collect();
    if !out.line(&format!("\t{}", letters.join("\t"))) {
        return false;
    }
    let mut shown = 0;
    for r in top..=bottom {
        let cells: Vec<String> = (left..=right)
            .map(|c| {
                if skip(r, c) {
                    return String::new();
                }
                range.get_value((r, c)).map(cell_text).unwrap_or_default()
            })
            .collect();
        if cells.iter().all(String::is_empty) {
            continue;
        }
        if shown == MAX_ROWS {
            warnings.push(format!(
                "{sheet}: only the first {MAX_ROWS} rows of {} are indexed",
                area(top, left, bottom, right)
            ));
            break;
        }
        shown += 1;
        let line = format!("{}\t{}", r + 1, cells.join("\t"));
        if !out.line(line.trim_end()) {
            return false;
        }
    }
    true
}

fn table_info<RS: std::io::Read + std::io::Seek>(
    book: &mut Xlsx<RS>,
    name: &str,
) -> Option<TableInfo> {
    let table = book.table_by_name(name).ok()?;
    let data = table.data();
    let columns = table.columns().to_vec();
    let (top, left) = data.start()?;
    let (bottom, right) = data.end()?;
    Some(TableInfo {
        name: name.to_string(),
        // The header row sits above the data.
        top: top.saturating_sub(1),
        left,
        bottom,
        right,
        columns,
    })
}

fn cell_text(value: &Data) -> String {
    let text = match value {
        Data::Empty => return String::new(),
        other => other.to_string(),
    };
    let flat = text.replace(['\t', '\n', '\r'], " ");
    if flat.chars().count() <= CELL_CHARS {
        flat
    } else {
        let mut cut: String = flat.chars().take(CELL_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

/// 0 -> A, 25 -> Z, 26 -> AA.
fn column_name(mut column: u32) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'A' + (column % 26) as u8);
        if column < 26 {
            break;
        }
        column = column / 26 - 1;
    }
    name.reverse();
    String::from_utf8(name).expect("ASCII letters")
}

fn area(top: u32, left: u32, bottom: u32, right: u32) -> String {
    format!(
        "{}{}:{}{}",
        column_name(left),
        top + 1,
        column_name(right),
        bottom + 1
    )
}

fn malformed(err: impl std::fmt::Display) -> ToolError {
    ToolError::new(
        codes::MALFORMED,
        format!("this spreadsheet cannot be read: {err}"),
    )
    .suggest("open and re-save it in Excel or LibreOffice, or read another copy")
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "format-parser" });
    sdk::export_parser!(crate::Spreadsheet);
}

#[cfg(test)]
mod tests;
