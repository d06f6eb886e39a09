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
        Operation::new("Td", vec![0.into(), (-14).into()]),
        // Letters placed one by one (their advance moves the position, nothing more) are one
        // word; a ligature is spelled out.
        Operation::new("Tj", vec![s("F")]),
        Operation::new("Td", vec![Object::Real(6.0), 0.into()]),
        Operation::new("Tj", vec![s("ee")]),
        Operation::new("Td", vec![Object::Real(12.5), 0.into()]),
        // 0xAE is the fi ligature in the standard encoding.
        Operation::new(
            "Tj",
            vec![Object::String(vec![0xAE], lopdf::StringFormat::Literal)],
        ),
        Operation::new("ET", vec![]),
    ];
    let doc = Pdf::parse(&pdf_of(vec![ops], &[]), "x.pdf").unwrap();
    assert_eq!(
        doc.sections[0].text,
        "Hello world\nNext line\nFooter\nFeefi"
    );
}

/// `doc` saved with `page` as its only page, under the page tree `pages_id`.
fn save_one_page(
    mut doc: lopdf::Document,
    pages_id: lopdf::ObjectId,
    page: lopdf::ObjectId,
) -> Vec<u8> {
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

/// A stream of content operations.
fn content_stream(dict: lopdf::Dictionary, operations: Vec<Operation>) -> Stream {
    Stream::new(dict, Content { operations }.encode().unwrap())
}

#[test]
fn forms_annotations_and_tounicode_maps_are_read() {
    let s = |t: &str| Object::string_literal(t);
    let show = |font: &str, text: Object| {
        vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec![font.into(), 12.into()]),
            Operation::new("Tj", vec![text]),
            Operation::new("ET", vec![]),
        ]
    };
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let helvetica = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    // A subset font whose codes 1 and 2 are its own glyph order: its ToUnicode map says they
    // are "O" and "K"; code 0x41 has no entry and falls back to the encoding ("A").
    let cmap = b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /Custom def\n/CMapType 2 def\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n2 beginbfchar\n<01> <004F>\n<02> <004B>\nendbfchar\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    let to_unicode = doc.add_object(Stream::new(dictionary! {}, cmap.to_vec()));
    let subset = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "ABCDEF+Custom",
        "Encoding" => "WinAnsiEncoding", "ToUnicode" => to_unicode,
    });
    let fonts = dictionary! { "F1" => helvetica, "F2" => subset };
    // A form XObject showing `text` in F1.
    let mut form_of = |text: &str| {
        doc.add_object(content_stream(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 100.into(), 20.into()],
                "Resources" => dictionary! { "Font" => fonts.clone() },
            },
            show("F1", s(text)),
        ))
    };
    let form = form_of("Inside a form");
    let field = form_of("2025-07-01");
    let hidden = form_of("never shown");
    let annotation = |appearance: lopdf::ObjectId, flags: i64| {
        dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "F" => flags,
            "Rect" => vec![0.into(), 0.into(), 100.into(), 20.into()],
            "AP" => dictionary! { "N" => appearance },
        }
    };
    let annots = vec![
        doc.add_object(annotation(field, 4)).into(),
        doc.add_object(annotation(hidden, 2)).into(),
    ];
    let mut ops = show(
        "F2",
        Object::String(vec![1, 2, 0x41], lopdf::StringFormat::Literal),
    );
    // The form drawn a line below.
    ops.extend([
        Operation::new("q", vec![]),
        Operation::new(
            "cm",
            vec![
                1.into(),
                0.into(),
                0.into(),
                1.into(),
                0.into(),
                (-20).into(),
            ],
        ),
        Operation::new("Do", vec!["X1".into()]),
        Operation::new("Q", vec![]),
    ]);
    let page_content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => page_content,
        "Resources" => dictionary! { "Font" => fonts, "XObject" => dictionary! { "X1" => form } },
        "Annots" => annots,
    });
    let bytes = save_one_page(doc, pages_id, page);

    let parsed = Pdf::parse(&bytes, "form.pdf").unwrap();
    let text = &parsed.sections[0].text;
    assert_eq!(text, "OKA\nInside a form\n2025-07-01", "{parsed:?}");
}

#[test]
fn cjk_fonts_in_predefined_cmaps_decode_without_a_tounicode_map() {
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let descendant = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "MS-Mincho",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Japan1"),
            "Supplement" => 2,
        },
    });
    // Not embedded, no ToUnicode: the codes are Shift JIS bytes, as the CMap's name says.
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "MS-Mincho",
        "Encoding" => "90ms-RKSJ-H", "DescendantFonts" => vec![descendant.into()],
    });
    // "日本語のPDF" in Shift JIS.
    let sjis = vec![
        0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, b'P', b'D', b'F',
    ];
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 12.into()]),
        Operation::new("Td", vec![72.into(), 700.into()]),
        Operation::new(
            "Tj",
            vec![Object::String(sjis, lopdf::StringFormat::Hexadecimal)],
        ),
        Operation::new("ET", vec![]),
    ];
    let content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    let bytes = save_one_page(doc, pages_id, page);

    let parsed = Pdf::parse(&bytes, "sjis.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "日本語のPDF", "{parsed:?}");
    // The `H` CMap (noembed-jis7.pdf): JIS X 0208 row and cell, "あい".
    let jis = |doc: &mut lopdf::Document| {
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "Ryumin-Light",
        });
        dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "Ryumin-Light",
            "Encoding" => "H", "DescendantFonts" => vec![descendant.into()],
        }
    };
    let parsed = Pdf::parse(&font_page(jis, &[0x24, 0x22, 0x24, 0x24]), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "あい", "{parsed:?}");
}

/// `bytes` with `from` replaced by `to` padded with spaces to the same length, so the file's
/// cross-reference offsets still hold.
fn patched(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert!(to.len() <= from.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("in the file");
    let mut out = bytes.to_vec();
    out[at..at + from.len()].fill(b' ');
    out[at..at + to.len()].copy_from_slice(to);
    out
}

#[test]
fn damaged_streams_are_read_as_viewers_read_them() {
    let clean = make_pdf(&["PLACEHOLDER TEXT"], &[]);
    // An operator inside a TJ array: lopdf's decode stopped there and lost the page.
    let bytes = patched(&clean, b"(PLACEHOLDER TEXT) Tj", b"[(Grand) 0 Tc(es)] TJ");
    let doc = Pdf::parse(&bytes, "x.pdf").unwrap();
    assert_eq!(doc.sections[0].text, "Grandes");
    // And the content stream without its /Length: read up to `endstream`, and said so.
    let length = format!("/Length {}", {
        let from = clean.windows(6).position(|w| w == b"stream").unwrap();
        let start = clean[from..].iter().position(|&b| b == b'\n').unwrap() + from + 1;
        let end = clean[start..]
            .windows(9)
            .position(|w| w == b"endstream")
            .unwrap();
        end - usize::from(clean[start + end - 1] == b'\n')
    });
    let bytes = patched(&bytes, length.as_bytes(), b"");
    let doc = Pdf::parse(&bytes, "x.pdf").unwrap();
    assert_eq!(doc.sections[0].text, "Grandes");
    assert!(
        doc.warnings
            .iter()
            .any(|w| w.contains("without a valid /Length")),
        "{:?}",
        doc.warnings
    );
}

/// A page showing the 2-byte codes `codes` in an Identity-H font with the ToUnicode map
/// `cmap`.
fn identity_font_page(cmap: &[u8], codes: &[u8]) -> Vec<u8> {
    let add = |doc: &mut lopdf::Document| {
        let to_unicode = doc.add_object(Stream::new(dictionary! {}, cmap.to_vec()));
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "MyriadPro-Regular",
            "CIDSystemInfo" => dictionary! {
                "Registry" => Object::string_literal("X"),
                "Ordering" => Object::string_literal("Y"),
                "Supplement" => 0,
            },
        });
        dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "MyriadPro-Regular",
            "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
            "ToUnicode" => to_unicode,
        }
    };
    font_page(add, codes)
}

#[test]
fn tounicode_maps_lopdf_misreads_are_read_here() {
    let test = [0, 0x55, 0, 0x46, 0, 0x54, 0, 0x55];
    // bug921409.pdf's map, cut down: comments before `/CIDInit` and `endcmap ... end end` on
    // one line, which lopdf's parser refuses (it then decodes 2-byte codes as Standard-
    // Encoding bytes: "UFTU" for "test").
    let refused = b"%% Custom\n%% CMap\n%%\n/CIDInit /ProcSet findresource begin\n\
        12 dict begin begincmap\n/CIDSystemInfo <<\n   /Registry (X)\n   /Ordering (Y)\n\
        /Supplement 0\n>> def\n/CMapName /pdfapi2-X+0 def\n\
        1 begincodespacerange <0000> <02B6> endcodespacerange\n\
        1 beginbfrange\n<0001> <00ff> <0020>\nendbfrange\n\
        endcmap CMapName currendict /CMap defineresource pop end end";
    let parsed = Pdf::parse(&identity_font_page(refused, &test), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "test", "{parsed:?}");
    // bug898853.pdf's: a map lopdf reads, with a 1-byte codespace for an Identity-H font
    // (lopdf read each code as two: "\u{FFFD}t\u{FFFD}e...").
    let one_byte = b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
        /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
        1 begincodespacerange\n<00> <ff>\nendcodespacerange\n\
        1 beginbfrange\n<01> <ff> <0020>\nendbfrange\n\
        endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    let parsed = Pdf::parse(&identity_font_page(one_byte, &test), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "test", "{parsed:?}");
    // outlines_se.pdf's, whole: a 1-byte range beside the 2-byte one. lopdf read each byte of
    // a code as a code of its own: a page of U+FFFD.
    let mixed = b"/CIDInit /ProcSet findresource begin\r\n12 dict begin\r\nbegincmap\r\n\
        /CIDSystemInfo <<\r\n/Registry (Adobe)\r\n/Ordering (SI-ADAAAA+MinionPro-Regular)\r\n\
        /Supplement 0\r\n>> def\r\n/CMapName /Adobe-SI-ADAAAA+MinionPro-Regular-0 def\r\n\
        /CMapType 2 def\r\n2 begincodespacerange\r\n<00> <FF>\r\n<0100> <FFFF>\r\n\
        endcodespacerange\r\n5 beginbfchar\r\n<0000> <FFFD>\r\n<0029> <0048>\r\n\
        <0046> <0065>\r\n<004D> <006C>\r\n<0050> <006F>\r\nendbfchar\r\nendcmap\r\n\
        CMapName currentdict /CMap defineresource pop\r\nend\r\nend";
    let hello = [0, 0x29, 0, 0x46, 0, 0x4D, 0, 0x4D, 0, 0x50];
    let parsed = Pdf::parse(&identity_font_page(mixed, &hello), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "Hello", "{parsed:?}");
    // issue4061.pdf's, cut down: a 2-byte codespace whose second bytes run backwards
    // (<02e3> <70bb>). lopdf checks codes byte by byte, so most codes were none.
    let backwards =
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo <<\n\
        /Registry (OBENLO+TT3+0) /Ordering (T42UV) /Supplement 0 >> def\n\
        /CMapName /OBENLO+TT3+0 def\n/CMapType 2 def\n\
        1 begincodespacerange <02e3> <70bb> endcodespacerange\n\
        2 beginbfchar\n<5ef1> <8F49>\n<2b6c> <91DD>\nendbfchar\n\
        endcmap CMapName currentdict /CMap defineresource pop end end\n";
    let parsed = Pdf::parse(
        &identity_font_page(backwards, &[0x5E, 0xF1, 0x2B, 0x6C]),
        "x.pdf",
    )
    .unwrap();
    assert_eq!(parsed.sections[0].text, "轉針", "{parsed:?}");
}

#[test]
fn glyph_names_lopdf_lacks_keep_their_font_readable() {
    // issue15516.pdf's: names from an OpenType font (`f_t`, `a.sc`, `uni00E9`) in the
    // /Differences. lopdf read the whole font as StandardEncoding for one such name: the
    // codes below 32 as nothing, the rest as other letters.
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let name = |n: &str| Object::Name(n.as_bytes().to_vec());
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "MinionPro-Regular",
        "Encoding" => dictionary! {
            "Type" => "Encoding",
            "Differences" => vec![
                1.into(), name("f_t"), name("a.sc"), name("uni00E9"), name("r"), name("s"),
            ],
        },
    });
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 20.into()]),
        Operation::new(
            "Tj",
            vec![Object::string_literal(b"so\x01 \x04\x02\x03".to_vec())],
        ),
        Operation::new("ET", vec![]),
    ];
    let content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    let parsed = Pdf::parse(&save_one_page(doc, pages_id, page), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "soft raé", "{parsed:?}");
}

#[test]
fn a_free_text_comment_without_an_appearance_is_read_from_its_contents() {
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let comment = |text: &str, flags: i64| {
        dictionary! {
            "Type" => "Annot", "Subtype" => "FreeText", "F" => flags,
            "Rect" => vec![0.into(), 0.into(), 100.into(), 20.into()],
            "DA" => Object::string_literal("/Helv 10 Tf 0 g"),
            "Contents" => Object::string_literal(text),
        }
    };
    let annots = vec![
        doc.add_object(comment("Hello World", 4)).into(),
        doc.add_object(comment("hidden", 2)).into(),
    ];
    // No content stream at all: the page is its comments.
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Resources" => dictionary! {},
        "Annots" => annots,
    });
    let parsed = Pdf::parse(&save_one_page(doc, pages_id, page), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "Hello World", "{parsed:?}");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
}

#[test]
fn a_standard_font_s_own_widths_join_pieces_placed_side_by_side() {
    // issue14755.pdf: three pieces of Helvetica (no /Widths), each placed where the last
    // ended; then a piece placed a space's width further on.
    let piece = |x: i64, text: &str| {
        vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 10.into()]),
            Operation::new("Td", vec![x.into(), 100.into()]),
            Operation::new("Tj", vec![Object::string_literal(text)]),
            Operation::new("ET", vec![]),
        ]
    };
    let ops: Vec<Operation> = [(100, "ABC"), (120, "DEF"), (140, "GHI"), (164, "JKL")]
        .into_iter()
        .flat_map(|(x, t)| piece(x, t))
        .collect();
    let doc = Pdf::parse(&pdf_of(vec![ops], &[]), "x.pdf").unwrap();
    assert_eq!(doc.sections[0].text, "ABCDEFGHI JKL");
}

#[test]
fn the_symbol_font_s_letters_read_as_greek() {
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let symbol = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Symbol",
    });
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 12.into()]),
        Operation::new("Tj", vec![Object::string_literal("q = 2p")]),
        Operation::new("ET", vec![]),
    ];
    let content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => symbol } },
    });
    let parsed = Pdf::parse(&save_one_page(doc, pages_id, page), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "θ = 2π", "{parsed:?}");
}

#[test]
fn a_string_drawn_over_itself_is_read_once() {
    // issue11150.pdf's fake bold: each glyph shown, moved back by its width, shown again.
    let theta = || Object::string_literal("q");
    let back = || Object::Integer(521);
    let twice = Operation::new(
        "TJ",
        vec![Object::Array(vec![
            theta(),
            back(),
            theta(),
            theta(),
            back(),
            theta(),
        ])],
    );
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 20.into()]),
        twice,
        Operation::new("ET", vec![]),
        // The same word again, elsewhere: read again.
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 20.into()]),
        Operation::new("Td", vec![0.into(), (-40).into()]),
        Operation::new("Tj", vec![Object::string_literal("q")]),
        Operation::new("ET", vec![]),
    ];
    let doc = Pdf::parse(&pdf_of(vec![ops], &[]), "x.pdf").unwrap();
    // Helvetica here: `q` is 556 wide, so moving back 521 lands within a tenth of an em.
    assert_eq!(doc.sections[0].text, "qq\nq");
}

#[test]
fn a_form_that_needs_new_appearances_shows_its_text_fields_values() {
    // bug1844583.pdf: the field's value is "Hello World"; its stale appearance still draws
    // an older text, and the form asks viewers to regenerate appearances.
    let page_of = |need_appearances: bool| {
        let mut doc = lopdf::Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let helvetica = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let stale = doc.add_object(content_stream(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 150.into(), 22.into()],
                "Resources" => dictionary! { "Font" => dictionary! { "Helv" => helvetica } },
            },
            vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["Helv".into(), 12.into()]),
                Operation::new("Tj", vec![Object::string_literal("Dlrow Olleh")]),
                Operation::new("ET", vec![]),
            ],
        ));
        // The field's kind and value on its parent, the widget its kid.
        let field = doc.add_object(dictionary! {
            "FT" => "Tx", "T" => Object::string_literal("Texte2"),
            "V" => Object::string_literal("Hello World"),
        });
        let widget = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "F" => 4, "Parent" => field,
            "Rect" => vec![0.into(), 0.into(), 150.into(), 22.into()],
            "AP" => dictionary! { "N" => stale },
        });
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Annots" => vec![widget.into()],
            "Resources" => dictionary! {},
        });
        doc.objects.insert(
            pages_id,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
                "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            }),
        );
        let form = dictionary! {
            "Fields" => vec![field.into()], "NeedAppearances" => need_appearances,
        };
        let catalog = doc.add_object(
            dictionary! { "Type" => "Catalog", "Pages" => pages_id, "AcroForm" => form },
        );
        doc.trailer.set("Root", catalog);
        let mut bytes = Vec::new();
        doc.save_to(&mut bytes).unwrap();
        Pdf::parse(&bytes, "form.pdf").unwrap().sections[0]
            .text
            .clone()
    };
    assert_eq!(page_of(true), "Hello World");
    assert_eq!(page_of(false), "Dlrow Olleh", "its appearance, as drawn");
}

/// A page showing `codes` in the font `font` (its objects added by `add` to the document).
fn font_page(add: impl FnOnce(&mut lopdf::Document) -> Dictionary, codes: &[u8]) -> Vec<u8> {
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = add(&mut doc);
    let font = doc.add_object(font);
    let text = Object::String(codes.to_vec(), lopdf::StringFormat::Hexadecimal);
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 20.into()]),
        Operation::new("Tj", vec![text]),
        Operation::new("ET", vec![]),
    ];
    let content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    save_one_page(doc, pages_id, page)
}

#[test]
fn fonts_without_an_encoding_are_read_through_their_program() {
    // A Type 1 program's own encoding (bug859204.pdf, TeX's fonts: issue12504.pdf). lopdf
    // read the codes as StandardEncoding.
    let type1 = |doc: &mut lopdf::Document| {
        let program = b"%!PS-AdobeFont-1.0: X\n/Encoding 256 array\n\
            0 1 255 {1 index exch /.notdef put} for\ndup 11 /ff put\ndup 1 /eacute put\n\
            dup 97 /a put\nreadonly def\ncurrentfile eexec\n";
        let file = doc.add_object(Stream::new(dictionary! {}, program.to_vec()));
        dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "CMR10",
            "FontDescriptor" => dictionary! { "Type" => "FontDescriptor", "FontFile" => file },
        }
    };
    let parsed = Pdf::parse(&font_page(type1, b"\x0ba\x01"), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "ffaé", "{parsed:?}");
    // A CFF program's (issue3566.pdf: "difierent" for "different").
    let cff = |doc: &mut lopdf::Document| {
        let file = doc.add_object(Stream::new(
            dictionary! { "Subtype" => "Type1C" },
            crate::program::fixtures::cff(),
        ));
        dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "CMR9",
            "FontDescriptor" => dictionary! { "Type" => "FontDescriptor", "FontFile3" => file },
        }
    };
    let parsed = Pdf::parse(&font_page(cff, b"\x0bA"), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "ffA", "{parsed:?}");
}

#[test]
fn truetype_cid_fonts_without_a_map_are_read_through_their_cmap() {
    let font = |to_gid: Option<Vec<u8>>, to_unicode: Option<Object>| {
        move |doc: &mut lopdf::Document| {
            let file = doc.add_object(Stream::new(
                dictionary! {},
                crate::program::fixtures::truetype('A', 'C', 1),
            ));
            let mut descendant = dictionary! {
                "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "X",
                "CIDSystemInfo" => dictionary! {
                    "Registry" => Object::string_literal("Adobe"),
                    "Ordering" => Object::string_literal("Identity"),
                    "Supplement" => 0,
                },
                "FontDescriptor" => dictionary! { "Type" => "FontDescriptor", "FontFile2" => file },
            };
            if let Some(map) = to_gid {
                let map = doc.add_object(Stream::new(dictionary! {}, map));
                descendant.set("CIDToGIDMap", map);
            }
            let descendant = doc.add_object(descendant);
            let mut font = dictionary! {
                "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "X",
                "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
            };
            if let Some(to_unicode) = to_unicode {
                font.set("ToUnicode", to_unicode);
            }
            font
        }
    };
    let parsed = Pdf::parse(&font_page(font(None, None), &[0, 3, 0, 1]), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "CA", "{parsed:?}");
    // CIDs 0 and 1 drawn by glyphs 2 and 1.
    let to_gid = Some(vec![0, 2, 0, 1]);
    let parsed = Pdf::parse(&font_page(font(to_gid, None), &[0, 0, 0, 1]), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "BA", "{parsed:?}");
    // No program and no map: glyph ids, not letters (pdftotext reads "6XPPD" for "Summa"
    // in PDFJS-7562-reduced.pdf; lopdf read them as StandardEncoding bytes just the same).
    let bare = |doc: &mut lopdf::Document| {
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "Arial",
        });
        dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "Arial",
            "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
        }
    };
    let parsed = Pdf::parse(&font_page(bare, &[0, 0x36, 0, 0x58, 0, 0x50]), "x.pdf").unwrap();
    assert!(
        parsed.sections[0].text.contains("could not be decoded"),
        "{parsed:?}"
    );
    // `/ToUnicode /Identity-H`, a name (bug1650302.pdf): each code is its character.
    let named = Some(Object::Name(b"Identity-H".to_vec()));
    let parsed = Pdf::parse(
        &font_page(font(None, named), &[0, 0xFD, 0x01, 0x59]),
        "x.pdf",
    )
    .unwrap();
    assert_eq!(parsed.sections[0].text, "ýř", "{parsed:?}");
}

#[test]
fn right_to_left_lines_are_read_in_reading_order() {
    // A space at code 0, Hebrew letters at codes 1 and on.
    let cmap = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
        1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
        1 beginbfchar <0000> <0020> endbfchar\n\
        1 beginbfrange <0001> <0020> <05D0> endbfrange\nendcmap end end\n";
    let mut doc = lopdf::Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let to_unicode = doc.add_object(Stream::new(dictionary! {}, cmap.to_vec()));
    let descendant = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "X", "DW" => 500,
    });
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "X",
        "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
        "ToUnicode" => to_unicode,
    });
    let (shin, lamed, vav, mem) = (0x1A, 0x0D, 0x06, 0x0E);
    let codes = |codes: &[u8]| {
        let bytes: Vec<u8> = codes.iter().flat_map(|c| [0, *c]).collect();
        Object::String(bytes, lopdf::StringFormat::Hexadecimal)
    };
    let mut ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 20.into()]),
        // "שלום" drawn as it stands on the page, its last letter first: one glyph at a time
        // in a TJ array, and then in one string.
        Operation::new("Td", vec![100.into(), 700.into()]),
        Operation::new(
            "TJ",
            vec![
                vec![
                    codes(&[mem]),
                    codes(&[vav]),
                    codes(&[lamed]),
                    codes(&[shin]),
                ]
                .into(),
            ],
        ),
        // A space placed to its left says nothing of the line's direction.
        Operation::new("Td", vec![(-20).into(), 0.into()]),
        Operation::new("Tj", vec![codes(&[0])]),
        // "שלום" letter by letter, each placed left of the one before: in reading order.
        Operation::new("Td", vec![120.into(), (-50).into()]),
        Operation::new("Tj", vec![codes(&[shin])]),
    ];
    for letter in [lamed, vav, mem] {
        ops.push(Operation::new("Td", vec![(-9).into(), 0.into()]));
        ops.push(Operation::new("Tj", vec![codes(&[letter])]));
    }
    ops.push(Operation::new("Td", vec![9.into(), (-50).into()]));
    ops.push(Operation::new("Tj", vec![codes(&[mem, vav, lamed, shin])]));
    // One string in reading order, its glyphs drawn leftwards by a negative character
    // spacing (issue20504.pdf's comment).
    ops.push(Operation::new("Tc", vec![(-15).into()]));
    ops.push(Operation::new("Td", vec![0.into(), (-50).into()]));
    ops.push(Operation::new("Tj", vec![codes(&[shin, lamed, vav, mem])]));
    ops.push(Operation::new("ET", vec![]));
    let content = doc.add_object(content_stream(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    let parsed = Pdf::parse(&save_one_page(doc, pages_id, page), "x.pdf").unwrap();
    let lines: Vec<&str> = parsed.sections[0].text.lines().map(str::trim).collect();
    assert_eq!(lines, ["שלום", "שלום", "שלום", "שלום"], "{parsed:?}");
}

#[test]
fn cids_of_adobe_s_collections_are_their_characters() {
    // issue16538.pdf: an Adobe-Japan1 CIDFont in Identity-H without a ToUnicode map
    // (its CIDs had been read as StandardEncoding bytes: "“j ›¿˜ˆx").
    let font = |ordering: &'static str, to_unicode: Option<&'static [u8]>| {
        move |doc: &mut lopdf::Document| {
            let descendant = doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "HiraMinProN-W3",
                "CIDSystemInfo" => dictionary! {
                    "Registry" => Object::string_literal("Adobe"),
                    "Ordering" => Object::string_literal(ordering),
                    "Supplement" => 6,
                },
            });
            let mut font = dictionary! {
                "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "HiraMinProN-W3",
                "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
            };
            if let Some(map) = to_unicode {
                let map = doc.add_object(Stream::new(dictionary! {}, map.to_vec()));
                font.set("ToUnicode", map);
            }
            font
        }
    };
    // CIDs 843, 845 and 34: あい and A.
    let codes = [0x03, 0x4B, 0x03, 0x4D, 0x00, 0x22];
    let parsed = Pdf::parse(&font_page(font("Japan1", None), &codes), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "あいA", "{parsed:?}");
    // issue5010.pdf: a ToUnicode map that builds on the collection's (`usecmap`) and
    // overrides one code.
    let builds_on = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
        /Adobe-Japan1-UCS2 usecmap\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
        1 beginbfchar <0022> <0042> endbfchar\nendcmap end end\n";
    let parsed = Pdf::parse(&font_page(font("Japan1", Some(builds_on)), &codes), "x.pdf").unwrap();
    assert_eq!(parsed.sections[0].text, "あいB", "{parsed:?}");
    // Another registry's collection says nothing.
    let parsed = Pdf::parse(&font_page(font("Identity", None), &codes), "x.pdf").unwrap();
    assert!(
        parsed.sections[0].text.contains("could not be decoded"),
        "{parsed:?}"
    );
}
