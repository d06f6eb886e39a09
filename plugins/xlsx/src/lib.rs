//! The spreadsheet format parser (calamine): one section per sheet and one per defined table.
//! A section starts with what it holds (`Sheet1!A1:D20, 20 rows x 4 columns`), then a line of
//! column letters and the rows as tab-separated cells prefixed with their row number, so a
//! preview shows the header row and any cell can be named by reference. Cells inside a table
//! appear in the table's section, not again in the sheet's.

use calamine::{Data, Range, Reader, StyleRange, Xlsx};
use sdk::archive::{Archive, Caps};
use sdk::doc::{Document, OutlineBuilder, ParserSpec};
use sdk::opc;
use sdk::{ToolError, ToolResult, codes};
use std::io::Cursor;

/// Text kept per document; the rest is dropped with a warning.
const MAX_CHARS: usize = 16 << 20;
/// Rows rendered per sheet or table.
const MAX_ROWS: usize = 20_000;

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
    /// What the host's registry knows it by (declared in the component too).
    pub const SPEC: ParserSpec = ParserSpec {
        format: "xlsx",
        extensions: &["xlsx", "xlsm"],
        signatures: &[],
        text_fallback: false,
    };

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Document> {
        let mut zip = Archive::open(bytes, "xlsx", Caps::default())?;
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(malformed)?;
        let mut warnings = Vec::new();
        let tables_loaded = if !tables_readable(&mut zip)? {
            warnings.push(
                "tables were not read: the package keeps its sheets outside the usual folders; sheets only"
                    .to_string(),
            );
            false
        } else {
            match book.load_tables() {
                Ok(()) => true,
                Err(e) => {
                    warnings.push(format!("tables could not be read ({e}); sheets only"));
                    false
                }
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
            // Number formats matter only for numbers (dates calamine already tells apart);
            // reading them parses the sheet a second time.
            let numeric = range
                .used_cells()
                .any(|(_, _, v)| matches!(v, Data::Float(_) | Data::Int(_)));
            let styles = if numeric {
                match book.worksheet_style(sheet) {
                    Ok(styles) => Some(styles),
                    Err(e) => {
                        warnings.push(format!(
                            "sheet {sheet}: number formats could not be read ({e}); numbers as stored"
                        ));
                        None
                    }
                }
            } else {
                None
            };
            let styles = styles.as_ref();
            out.section(&sdk::doc::slug(sheet), vec![sheet.clone()], 1);
            let within_tables = |r: u32, c: u32| {
                tables
                    .iter()
                    .any(|t| (t.top..=t.bottom).contains(&r) && (t.left..=t.right).contains(&c))
            };
            let mut full = !render(
                &mut out,
                sheet,
                (&range, styles),
                None,
                &within_tables,
                &mut warnings,
            );
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
                        (&range, styles),
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
    (range, styles): (&Range<Data>, Option<&StyleRange>),
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
                let format = styles
                    .and_then(|st| st.get((r, c)))
                    .and_then(|st| st.number_format.as_ref())
                    .map(|f| f.format_code.as_str());
                range
                    .get_value((r, c))
                    .map(|v| cell_text(v, format))
                    .unwrap_or_default()
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

/// A cell as its workbook shows it: dates and times by the calendar (calamine gives their
/// serial numbers), percentages scaled, text whole (tabs and newlines flattened, so a row
/// stays one line). `format` is the cell's number format code, when the sheet's styles were
/// read.
fn cell_text(value: &Data, format: Option<&str>) -> String {
    let text = match value {
        Data::Empty => return String::new(),
        Data::DateTime(at) => date_time(at, format),
        Data::Float(f) if format.is_some_and(is_percent) => percent(*f, format.unwrap_or("")),
        Data::Int(i) if format.is_some_and(is_percent) => percent(*i as f64, format.unwrap_or("")),
        other => other.to_string(),
    };
    text.replace(['\t', '\n', '\r'], " ")
}

/// `2006-09-11`, `13:30:00`, `2006-09-11 13:30:00`, or a duration as `[h]:mm:ss`: which parts
/// by the value (a whole number is a date, under one a time of day) unless the format
/// code names only a time.
fn date_time(at: &calamine::ExcelDateTime, format: Option<&str>) -> String {
    let serial = at.as_f64();
    if at.is_duration() {
        let seconds = (serial * 86_400.0).round() as i64;
        let sign = if seconds < 0 { "-" } else { "" };
        let s = seconds.abs();
        return format!("{sign}{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    }
    let (y, mo, d, h, mi, se, _) = at.to_ymd_hms_milli();
    let date = format!("{y:04}-{mo:02}-{d:02}");
    let time = format!("{h:02}:{mi:02}:{se:02}");
    let code = format.map(|f| f.to_ascii_lowercase()).unwrap_or_default();
    let time_only = !code.is_empty() && !code.contains(['y', 'd']);
    // Excel has no day 0 (it shows 1900-01-00): a serial under one is a time of day.
    if time_only || serial.trunc() == 0.0 {
        time
    } else if serial.fract() == 0.0 {
        date
    } else {
        format!("{date} {time}")
    }
}

/// A number format that shows a percentage: a `%` outside quoted text and escapes.
fn is_percent(code: &str) -> bool {
    let mut quoted = false;
    let mut escaped = false;
    for c in code.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            '%' if !quoted => return true,
            _ => {}
        }
    }
    false
}

/// `0.256` under `0.0%` is `25.6%`: as many decimals as the code has zeros after its point.
fn percent(value: f64, code: &str) -> String {
    let decimals = code.split_once('.').map_or(0, |(_, rest)| {
        rest.chars().take_while(|c| *c == '0').count()
    });
    format!("{:.*}%", decimals, value * 100.0)
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

/// Whether calamine's table loader can read this package. It takes every worksheet to sit in
/// a folder, and a `../` table target to have a parent folder to climb to; a valid package laid
/// out otherwise (parts at its root) makes it panic, which in a component is a trap. The paths
/// are worked out as calamine does.
fn tables_readable(zip: &mut Archive) -> ToolResult<bool> {
    let Some(book) = zip.read("_rels/.rels")?.as_deref().and_then(opc::main_part) else {
        return Ok(true);
    };
    let (dir, name) = match book.rfind('/') {
        Some(i) => book.split_at(i + 1),
        None => ("", book.as_str()),
    };
    let Some(rels) = zip.read(&format!("{dir}_rels/{name}.rels"))? else {
        return Ok(true);
    };
    for sheet in opc::relationships(&rels)
        .into_iter()
        .filter(|r| r.kind.ends_with("sheet"))
    {
        let path = match sheet.target.strip_prefix('/') {
            Some(absolute) => absolute.to_string(),
            None => format!("{dir}{}", sheet.target),
        };
        let Some(i) = path.rfind('/') else {
            return Ok(false);
        };
        let (folder, file) = path.split_at(i);
        if folder.contains('/') {
            continue;
        }
        if let Some(xml) = zip.read(&format!("{folder}/_rels{file}.rels"))?
            && opc::relationships(&xml)
                .iter()
                .any(|r| r.kind == "table" && r.target.starts_with("../"))
        {
            return Ok(false);
        }
    }
    Ok(true)
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
