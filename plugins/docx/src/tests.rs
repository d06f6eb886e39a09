use super::*;

const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

fn para(style: Option<&str>, inner: &str) -> String {
    let props = style.map_or(String::new(), |s| {
        format!(r#"<w:pPr><w:pStyle w:val="{s}"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>"#)
    });
    format!("<w:p>{props}{inner}</w:p>")
}

fn run(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{text}</w:t></w:r>"#)
}

/// A Word document made here, the parts a real one has.
fn make_docx(body: &str) -> Vec<u8> {
    let parts = [
        (
            "_rels/.rels",
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.to_string(),
        ),
        (
            "word/document.xml",
            format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}<w:sectPr/></w:body></w:document>"#),
        ),
        (
            "word/styles.xml",
            format!(r#"<w:styles {W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/></w:style><w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>"#),
        ),
        (
            "word/_rels/document.xml.rels",
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/api" TargetMode="External"/></Relationships>"#.to_string(),
        ),
        (
            "word/comments.xml",
            format!(r#"<w:comments {W}><w:comment w:id="0" w:author="Ann"><w:p><w:r><w:t>check this number</w:t></w:r></w:p></w:comment></w:comments>"#),
        ),
        (
            "word/footnotes.xml",
            format!(r#"<w:footnotes {W}><w:footnote w:id="1"><w:p><w:r><w:t>Measured in 2025.</w:t></w:r></w:p></w:footnote></w:footnotes>"#),
        ),
        (
            "docProps/core.xml",
            r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Design Notes</dc:title><dc:creator>Ann</dc:creator></cp:coreProperties>"#.to_string(),
        ),
    ];
    let parts: Vec<(&str, &[u8])> = parts.iter().map(|(n, d)| (*n, d.as_bytes())).collect();
    sdk::archive::write_zip(&parts)
}

fn sample() -> Vec<u8> {
    let body = [
        para(None, &run("Front matter &amp; intro.")),
        para(Some("Heading1"), &run("Overview")),
        para(
            None,
            &format!(
                r#"{}<w:hyperlink r:id="rId9">{}</w:hyperlink>{}<w:r><w:commentReference w:id="0"/></w:r>"#,
                run("See the "),
                run("API reference"),
                run(" for details.")
            ),
        ),
        para(Some("berschrift2"), &run("Limits")),
        format!(
            "<w:tbl><w:tr><w:tc>{}</w:tc><w:tc>{}</w:tc></w:tr><w:tr><w:tc>{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>",
            para(None, &run("Name")),
            para(None, &run("Value")),
            para(None, &run("timeout")),
            para(None, &run("30 s")),
        ),
        para(
            None,
            &format!(
                r#"{}<w:r><w:footnoteReference w:id="1"/></w:r>"#,
                run("Throughput is 40 MB/s.")
            ),
        ),
        para(
            None,
            &format!(
                "<mc:AlternateContent xmlns:mc=\"m\"><mc:Choice>{}</mc:Choice><mc:Fallback>{}</mc:Fallback></mc:AlternateContent>",
                run("box text"),
                run("box text")
            ),
        ),
        para(Some("Heading1"), &run("Appendix")),
    ]
    .concat();
    make_docx(&body)
}

#[test]
fn headings_tables_links_and_notes() {
    let doc = Docx::parse(&sample(), "notes.docx").unwrap();
    assert_eq!(doc.kind, "docx");
    assert_eq!(doc.title.as_deref(), Some("Design Notes"));
    let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["preamble", "overview", "overview/limits", "appendix"]);
    assert_eq!(doc.sections[0].text, "Front matter & intro.");
    let overview = &doc.sections[1];
    assert_eq!(overview.heading_path, ["Overview"]);
    assert!(
        overview
            .text
            .contains("See the API reference for details. [comment by Ann: check this number]"),
        "{}",
        overview.text
    );
    assert_eq!(overview.end_line, doc.sections[2].end_line);
    let limits = &doc.sections[2];
    assert_eq!(limits.heading_path, ["Overview", "Limits"]);
    assert!(
        limits.text.contains("Name | Value\ntimeout | 30 s"),
        "{}",
        limits.text
    );
    assert!(
        limits
            .text
            .contains("Throughput is 40 MB/s. [footnote 1: Measured in 2025.]")
    );
    assert_eq!(limits.text.matches("box text").count(), 1);
    assert_eq!(doc.links.len(), 1);
    assert_eq!(doc.links[0].target, "https://example.com/api");
    assert_eq!(doc.links[0].text, "API reference");
    assert_eq!(doc.links[0].section_id, "overview");
    assert!(doc.metadata.contains(&("creator".into(), "Ann".into())));
}

#[test]
fn damaged_files_get_clean_codes() {
    let bytes = sample();
    let err = Docx::parse(&bytes[..bytes.len() - 40], "x.docx")
        .err()
        .unwrap();
    assert_eq!(err.code, codes::MALFORMED);
    let err = Docx::parse(b"not a zip at all", "x.docx").err().unwrap();
    assert_eq!(err.code, codes::MALFORMED);
    let other = make_docx("<w:p>");
    let doc = Docx::parse(&other, "x.docx");
    assert!(doc.is_ok() || doc.err().unwrap().code == codes::MALFORMED);
}

#[test]
fn non_breaking_hyphens_are_kept_and_optional_ones_dropped() {
    let body = para(
        None,
        r#"<w:r><w:t>26</w:t><w:noBreakHyphen/><w:t>jährige Ver</w:t><w:softHyphen/><w:t>suche</w:t></w:r>"#,
    );
    let doc = Docx::parse(&make_docx(&body), "x.docx").unwrap();
    assert_eq!(doc.sections[0].text, "26-jährige Versuche");
}
