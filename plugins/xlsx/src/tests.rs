use super::*;

const NS: &str = r#"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

fn row(r: u32, cells: &[&str]) -> String {
    let cells: String = cells
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty())
        .map(|(c, v)| {
            let at = format!("{}{r}", column_name(c as u32));
            match v.parse::<f64>() {
                Ok(_) => format!(r#"<c r="{at}"><v>{v}</v></c>"#),
                Err(_) => format!(r#"<c r="{at}" t="inlineStr"><is><t>{v}</t></is></c>"#),
            }
        })
        .collect();
    format!(r#"<row r="{r}">{cells}</row>"#)
}

/// A workbook made here: a "Data" sheet with a table over A1:C3 and a note beside it, and a
/// "Summary" sheet.
fn make_xlsx() -> Vec<u8> {
    make_xlsx_in("xl", "workbook.xml")
}

/// [`make_xlsx`] with its parts in folder `dir` and the workbook part named `book`, as the
/// package's relationships allow.
fn make_xlsx_in(dir: &str, book: &str) -> Vec<u8> {
    let at = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let data = [
        row(1, &["Name", "Age", "City", "", "note"]),
        row(2, &["Bob", "42", "Oslo"]),
        row(3, &["Eve", "37", "Rome"]),
    ]
    .concat();
    let summary = [row(1, &["Total", "79"])].concat();
    let parts: Vec<(String, String)> = vec![
        ("[Content_Types].xml".into(), format!(r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/{at}{book}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/{at}worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/{at}worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/{at}tables/table1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/></Types>"#)),
        ("_rels/.rels".into(), format!(r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="{at}{book}"/></Relationships>"#)),
        (format!("{at}{book}"), format!(r#"<workbook {NS}><sheets><sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="Summary" sheetId="2" r:id="rId2"/></sheets></workbook>"#)),
        (format!("{at}_rels/{book}.rels"), r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>"#.into()),
        (format!("{at}worksheets/sheet1.xml"), format!(r#"<worksheet {NS}><sheetData>{data}</sheetData><tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>"#)),
        (format!("{at}worksheets/_rels/sheet1.xml.rels"), r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table1.xml"/></Relationships>"#.into()),
        (format!("{at}tables/table1.xml"), format!(r#"<table {NS} id="1" name="People" displayName="People" ref="A1:C3"><tableColumns count="3"><tableColumn id="1" name="Name"/><tableColumn id="2" name="Age"/><tableColumn id="3" name="City"/></tableColumns></table>"#)),
        (format!("{at}worksheets/sheet2.xml"), format!(r#"<worksheet {NS}><sheetData>{summary}</sheetData></worksheet>"#)),
    ];
    let parts: Vec<(&str, &[u8])> = parts
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_bytes()))
        .collect();
    sdk::archive::write_zip(&parts)
}

#[test]
fn sheets_and_tables_with_cell_references() {
    let doc = Spreadsheet::parse(&make_xlsx(), "book.xlsx").unwrap();
    assert_eq!(doc.kind, "xlsx");
    let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["data", "data/people", "summary"]);
    let data = &doc.sections[0];
    assert!(
        data.text
            .starts_with("Data!A1:E3, 3 rows x 5 columns\n\tA\tB\tC\tD\tE\n"),
        "{}",
        data.text
    );
    assert!(data.text.contains("1\t\t\t\t\tnote"), "{}", data.text);
    assert!(
        !data.text.contains("Bob"),
        "table cells live in the table's section"
    );
    assert!(data.text.contains("table People at A1:C3"));
    let people = &doc.sections[1];
    assert_eq!(people.heading_path, ["Data", "People"]);
    assert!(people.text.contains("columns: Name, Age, City"));
    assert!(
        people
            .text
            .contains("1\tName\tAge\tCity\n2\tBob\t42\tOslo\n3\tEve\t37\tRome"),
        "{}",
        people.text
    );
    assert!(doc.sections[2].text.contains("1\tTotal\t79"));
    assert_eq!(doc.metadata, [("sheets".into(), "Data, Summary".into())]);
}

#[test]
fn column_names_and_damage() {
    assert_eq!(column_name(0), "A");
    assert_eq!(column_name(25), "Z");
    assert_eq!(column_name(26), "AA");
    assert_eq!(column_name(701), "ZZ");
    assert_eq!(column_name(702), "AAA");
    let bytes = make_xlsx();
    let err = Spreadsheet::parse(&bytes[..bytes.len() / 2], "x.xlsx")
        .err()
        .unwrap();
    assert_eq!(err.code, codes::MALFORMED);
}

#[test]
fn parts_in_unusual_folders_read_without_a_trap() {
    // At the package root calamine's table loader would panic: sheets only, and it is said.
    let doc = Spreadsheet::parse(&make_xlsx_in("", "workbook.xml"), "x.xlsx").unwrap();
    assert!(doc.sections[0].text.contains("2\tBob\t42\tOslo"), "{doc:?}");
    assert!(
        doc.warnings
            .iter()
            .any(|w| w.contains("tables were not read")),
        "{:?}",
        doc.warnings
    );
    // Elsewhere, tables and all.
    for (dir, book) in [("minimal", "workbook.xml"), ("a/b", "book.xml")] {
        let doc = Spreadsheet::parse(&make_xlsx_in(dir, book), "x.xlsx").unwrap();
        let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["data", "data/people", "summary"], "{dir}");
    }
}

/// One sheet whose cells carry number formats: a date, a date and time, a time, a custom
/// `yyyy-mm-dd`, a percentage, a plain number, and a long text.
fn make_formatted_xlsx(long: &str) -> Vec<u8> {
    let styles = format!(
        r#"<styleSheet {NS}><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\-mm\-dd"/><numFmt numFmtId="165" formatCode="0.0%"/></numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellXfs count="7"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="22" applyNumberFormat="1"/><xf numFmtId="21" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="9" applyNumberFormat="1"/></cellXfs></styleSheet>"#
    );
    let cells = format!(
        r#"<row r="1"><c r="A1" s="1"><v>38971</v></c><c r="B1" s="2"><v>38971.5625</v></c><c r="C1" s="3"><v>0.5625</v></c><c r="D1" s="4"><v>44197</v></c><c r="E1" s="5"><v>0.256</v></c><c r="F1" s="6"><v>1</v></c><c r="G1"><v>38971</v></c><c r="H1" t="inlineStr"><is><t>{long}</t></is></c></row>"#
    );
    let parts: Vec<(&str, String)> = vec![
        ("_rels/.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.into()),
        ("xl/workbook.xml", format!(r#"<workbook {NS}><sheets><sheet name="Dates" sheetId="1" r:id="rId1"/></sheets></workbook>"#)),
        ("xl/_rels/workbook.xml.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#.into()),
        ("xl/styles.xml", styles),
        ("xl/worksheets/sheet1.xml", format!(r#"<worksheet {NS}><sheetData>{cells}</sheetData></worksheet>"#)),
    ];
    let parts: Vec<(&str, &[u8])> = parts.iter().map(|(n, d)| (*n, d.as_bytes())).collect();
    sdk::archive::write_zip(&parts)
}

#[test]
fn cells_read_as_their_number_formats_show_them_and_long_text_stays_whole() {
    let long = "word ".repeat(100);
    let doc = Spreadsheet::parse(&make_formatted_xlsx(long.trim()), "x.xlsx").unwrap();
    let row = doc.sections[0].text.lines().nth(2).unwrap().to_string();
    let cells: Vec<&str> = row.split('\t').collect();
    assert_eq!(
        cells[..8],
        [
            "1",
            "2006-09-11",
            "2006-09-11 13:30:00",
            "13:30:00",
            "2021-01-01",
            "25.6%",
            "100%",
            "38971"
        ],
        "{row}"
    );
    assert_eq!(cells[8], long.trim(), "a long cell is kept whole");
    assert!(is_percent("0.00%") && !is_percent(r#"0 "%""#) && !is_percent(r"0\%"));
}
