use super::*;
use lopdf::content::{Content, Operation};
use lopdf::{Bookmark, Stream, dictionary};

/// A PDF made here: one page per entry of `pages`, an outline entry per `(title, page)`, a
/// link annotation on page 1 and an info title.
fn make_pdf(pages: &[&str], outline: &[(&str, usize)]) -> Vec<u8> {
    let pages: Vec<Vec<Operation>> = pages
        .iter()
        .map(|text| {
            let mut operations = vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 12.into()]),
                Operation::new("Td", vec![72.into(), 700.into()]),
            ];
            for line in text.lines() {
                operations.push(Operation::new("Tj", vec![Object::string_literal(line)]));
                operations.push(Operation::new("T*", vec![]));
            }
            operations.push(Operation::new("ET", vec![]));
            operations
        })
        .collect();
    pdf_of(pages, outline)
}

/// A PDF whose pages carry these content operations.
fn pdf_of(pages: Vec<Vec<Operation>>, outline: &[(&str, usize)]) -> Vec<u8> {
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
    });
    let resources_id = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids = Vec::new();
    let mut page_ids = Vec::new();
    for (i, operations) in pages.into_iter().enumerate() {
        let content = Content { operations };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let mut page = dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        };
        if i == 0 {
            let link = doc.add_object(dictionary! {
                "Type" => "Annot",
                "Subtype" => "Link",
                "Rect" => vec![0.into(), 0.into(), 10.into(), 10.into()],
                "A" => dictionary! { "S" => "URI", "URI" => Object::string_literal("https://example.com/spec") },
            });
            page.set("Annots", vec![link.into()]);
        }
        let page_id = doc.add_object(page);
        kids.push(page_id.into());
        page_ids.push(page_id);
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => count,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let mut parent = None;
    for (title, page) in outline {
        let id = doc.add_bookmark(
            Bookmark::new(title.to_string(), [0.0; 3], 0, page_ids[page - 1]),
            parent,
        );
        parent.get_or_insert(id);
    }
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    if let Some(outline_id) = doc.build_outline() {
        doc.get_dictionary_mut(catalog_id)
            .unwrap()
            .set("Outlines", outline_id);
    }
    let info_id = doc.add_object(dictionary! { "Title" => Object::string_literal("Field Guide") });
    doc.trailer.set("Root", catalog_id);
    doc.trailer.set("Info", info_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[test]
fn a_section_per_page_with_outline_paths() {
    let bytes = make_pdf(
        &[
            "Welcome to the guide",
            "Installing on Linux\nrun apt",
            "Usage notes",
        ],
        &[("Guide", 1), ("Install", 2), ("Usage", 3)],
    );
    let doc = Pdf::parse(&bytes, "guide.pdf").unwrap();
    assert_eq!(doc.kind, "pdf");
    assert_eq!(doc.title.as_deref(), Some("Field Guide"));
    let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["page-1", "page-2", "page-3"]);
    let pages: Vec<_> = doc.sections.iter().map(|s| s.page).collect();
    assert_eq!(pages, [Some(1), Some(2), Some(3)]);
    assert_eq!(doc.sections[0].heading_path, ["Guide"]);
    assert_eq!(doc.sections[1].heading_path, ["Guide", "Install"]);
    assert_eq!(doc.sections[2].heading_path, ["Guide", "Usage"]);
    assert!(doc.sections[1].text.contains("Installing on Linux"));
    assert!(doc.sections[1].text.contains("run apt"));
    assert_eq!(doc.sections[1].start_line, doc.sections[0].end_line + 1);
    assert_eq!(doc.links.len(), 1);
    assert_eq!(doc.links[0].target, "https://example.com/spec");
    assert_eq!(doc.links[0].section_id, "page-1");
    assert!(doc.metadata.contains(&("pages".into(), "3".into())));
}

#[test]
fn no_outline_still_gives_pages() {
    let bytes = make_pdf(&["one", ""], &[]);
    let doc = Pdf::parse(&bytes, "x.pdf").unwrap();
    assert_eq!(doc.sections.len(), 2);
    assert!(doc.sections[0].heading_path.is_empty());
    assert_eq!(doc.sections[1].text, NO_TEXT);
}

#[test]
fn damage_gives_clean_errors() {
    let err = Pdf::parse(b"hello", "x.pdf").err().unwrap();
    assert_eq!(err.code, codes::MALFORMED);
    let bytes = make_pdf(&["one"], &[]);
    let err = Pdf::parse(&bytes[..bytes.len() / 3], "x.pdf")
        .err()
        .unwrap();
    assert!(
        [codes::MALFORMED, codes::TOO_LARGE].contains(&err.code.as_str()),
        "{err:?}"
    );
    assert_eq!(
        load_error(lopdf::Error::InvalidPassword).code,
        codes::ENCRYPTED
    );
}

#[test]
fn positioned_text_keeps_its_lines_and_words() {
    let s = |t: &str| Object::string_literal(t);
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 12.into()]),
        Operation::new("Td", vec![72.into(), 700.into()]),
        Operation::new("Tj", vec![s("Hello")]),
        Operation::new("Td", vec![40.into(), 0.into()]),
        Operation::new("Tj", vec![s("world")]),
        Operation::new("Td", vec![(-40).into(), (-14).into()]),
        Operation::new(
            "TJ",
            vec![Object::Array(vec![
                s("Next"),
                (-300).into(),
                s("li"),
                (-20).into(),
                s("ne"),
            ])],
        ),
        Operation::new("ET", vec![]),
        Operation::new("BT", vec![]),
        Operation::new(
            "Tm",
            vec![
                1.into(),
                0.into(),
                0.into(),
                1.into(),
                72.into(),
                600.into(),
            ],
        ),
        Operation::new("Tj", vec![s("Footer")]),
        Operation::new("ET", vec![]),
    ];
    let doc = Pdf::parse(&pdf_of(vec![ops], &[]), "x.pdf").unwrap();
    assert_eq!(doc.sections[0].text, "Hello world\nNext line\nFooter");
}
