//! Single-file components (Vue, Svelte) and HTML pages: TypeScript or JavaScript in `<script>`
//! blocks inside markup. The index reads them with the TypeScript (pages: JavaScript) grammar
//! over a view of the file in which everything outside the script blocks is blanked: the
//! same length, lines and byte offsets, so every position and text taken from the tree holds
//! for the file itself, and the markup stays in the file's chunks for search. A block whose
//! `type` names something else (a template, JSON data, an import map) is markup too.

/// Whether `source` has a script block with code in it: an HTML page without one is text to
/// the index, as it was before pages were read for their scripts.
pub fn has_script(source: &str) -> bool {
    !script_view(source).trim().is_empty()
}

/// Whether a `<script ...>` tag (lower-cased) holds code: no `type`, or a JavaScript one.
fn holds_code(tag: &str) -> bool {
    let Some(at) = tag.find("type=") else {
        return true;
    };
    // `data-type=` or `x-type=` is another attribute.
    if tag[..at].ends_with(|c: char| c == '-' || c.is_ascii_alphanumeric()) {
        return holds_code(&tag[at + 5..]);
    }
    let value = tag[at + 5..].trim_start_matches(['"', '\'']);
    let value = value
        .split(['"', '\'', ' ', '>', '\t', '\n', '\r'])
        .next()
        .unwrap_or("");
    matches!(
        value,
        "" | "module"
            | "text/javascript"
            | "application/javascript"
            | "text/ecmascript"
            | "application/ecmascript"
            | "text/typescript"
            | "text/babel"
            | "text/jsx"
    )
}

/// `source` with every byte outside its `<script>` blocks a space (line breaks kept).
pub fn script_view(source: &str) -> String {
    let bytes = source.as_bytes();
    // ASCII lower-casing keeps every byte where it was.
    let lower = source.to_ascii_lowercase();
    let mut view: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b } else { b' ' })
        .collect();
    let mut at = 0;
    while let Some(found) = lower[at..].find("<script") {
        let open = at + found;
        let after = open + "<script".len();
        // `<scripts>` or `<script-x>` is another element.
        if !lower[after..].starts_with(|c: char| c == '>' || c.is_ascii_whitespace()) {
            at = after;
            continue;
        }
        let Some(close) = lower[open..].find('>') else {
            break;
        };
        let body = open + close + 1;
        if lower[..body].ends_with("/>") {
            at = body;
            continue;
        }
        let end = lower[body..]
            .find("</script")
            .map_or(bytes.len(), |e| body + e);
        if !holds_code(&lower[open..body]) {
            at = end;
            continue;
        }
        // Both ends sit at ASCII bytes (`>` and `<`), so no character is cut.
        view[body..end].copy_from_slice(&bytes[body..end]);
        at = end;
    }
    String::from_utf8(view).expect("spaces, line breaks and whole script blocks are UTF-8")
}

#[cfg(test)]
mod tests {
    use super::{has_script, script_view};

    #[test]
    fn only_script_blocks_remain_where_they_were() {
        let vue = "<template>\n  <p>{{ ü }}</p>\n</template>\n<script setup lang=\"ts\">\nconst a = 1\n</script>\n<style>p{}</style>\n";
        let view = script_view(vue);
        assert_eq!(view.len(), vue.len());
        assert_eq!(view.lines().count(), vue.lines().count());
        let start = vue.find("const").unwrap();
        assert_eq!(&view[start..start + 11], "const a = 1");
        assert!(!view.contains("template") && !view.contains("style") && !view.contains('p'));
        assert_eq!(view.trim(), "const a = 1");
    }

    #[test]
    fn several_blocks_self_closing_tags_and_lookalikes() {
        let svelte = "<script context=\"module\">export const x = 1</script>\n<scripts>no</scripts><script src=\"a.js\" />\n<SCRIPT>let y = 2</SCRIPT>";
        let view = script_view(svelte);
        assert_eq!(view.len(), svelte.len());
        let kept: Vec<&str> = view.split_whitespace().collect();
        assert_eq!(
            kept,
            ["export", "const", "x", "=", "1", "let", "y", "=", "2"]
        );
        // An unclosed block runs to the end of the file.
        assert_eq!(script_view("<script>let z").trim(), "let z");
        assert_eq!(script_view("<script").trim(), "");
    }

    #[test]
    fn a_page_s_scripts_but_not_its_templates_data_or_import_maps() {
        let page = "<html><head>\n<script type=\"application/ld+json\">{\"a\": 1}</script>\n<script type=\"text/x-template\" id=\"row\"><li>{{ x }}</li></script>\n<script data-type=\"x\" type='module'>import { a } from './a.js'</script>\n<script type=importmap>{}</script>\n<script src=\"app.js\"></script>\n<script>function boot() {}</script>\n</head></html>\n";
        let view = script_view(page);
        assert_eq!(view.len(), page.len());
        let kept: Vec<&str> = view.split_whitespace().collect();
        assert_eq!(
            kept,
            [
                "import", "{", "a", "}", "from", "'./a.js'", "function", "boot()", "{}"
            ]
        );
        assert!(has_script(page));
        assert!(!has_script(
            "<html><script src=\"a.js\"></script><script type=\"text/template\">x</script></html>"
        ));
        assert!(!has_script("<p>no scripts</p>"));
    }
}
