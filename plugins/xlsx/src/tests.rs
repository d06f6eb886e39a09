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
    let data = [
        row(1, &["Name", "Age", "City", "", "note"]),
        row(2, &["Bob", "42", "Oslo"]),
        row(3, &["Eve", "37", "Rome"]),
    ]
    .concat();
    let summary = [row(1, &["Total", "79"])].concat();
    let parts: Vec<(&str, String)> = vec![
        ("[Content_Types].xml", r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/tables/table1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/></Types>"#.into()),
        ("_rels/.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.into()),
        ("xl/workbook.xml", format!(r#"<workbook {NS}><sheets><sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="Summary" sheetId="2" r:id="rId2"/></sheets></workbook>"#)),
        ("xl/_rels/workbook.xml.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>"#.into()),
        ("xl/worksheets/sheet1.xml", format!(r#"<worksheet {NS}><sheetData>{data}</sheetData><tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>"#)),
        ("xl/worksheets/_rels/sheet1.xml.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table1.xml"/></Relationships>"#.into()),
        ("xl/tables/table1.xml", format!(r#"<table {NS} id="1" name="People" displayName="People" ref="A1:C3"><tableColumns count="3"><tableColumn id="1" name="Name"/><tableColumn id="2" name="Age"/><tableColumn id="3" name="City"/></tableColumns></table>"#)),
        ("xl/worksheets/sheet2.xml", format!(r#"<worksheet {NS}><sheetData>{summary}</sheetData></worksheet>"#)),
    ];
    let parts: Vec<(&str, &[u8])> = parts.iter().map(|(n, d)| (*n, d.as_bytes())).collect();
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
