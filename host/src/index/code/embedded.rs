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

/// Whether a `<script ...>` tag (lower-cased) holds code: no `type` attribute, or a
/// JavaScript one (parameters such as `; charset=utf-8` aside).
fn holds_code(tag: &str) -> bool {
    let mut rest = tag.strip_prefix("<script").unwrap_or(tag);
    let mut value = None;
    // Attribute by attribute: a quoted value may hold anything, `type=` included.
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic()) {
        rest = &rest[start..];
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':' || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let Some(after) = rest.strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start();
        let (found, tail) = match after.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = &after[1..];
                let end = body.find(q).unwrap_or(body.len());
                (&body[..end], &body[(end + 1).min(body.len())..])
            }
            _ => {
                let end = after
                    .find(|c: char| c.is_ascii_whitespace() || c == '>')
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        if name == "type" {
            value = Some(found);
        }
        rest = tail;
    }
    let Some(value) = value else {
        return true;
    };
    let value = value.split(';').next().unwrap_or("").trim();
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
        // Spaces around `=`, parameters, and a `type=` inside another attribute's value.
        assert!(!has_script("<script type = \"text/template\">x</script>"));
        assert!(has_script(
            "<script type=\"text/javascript; charset=utf-8\">let a</script>"
        ));
        assert!(has_script("<script src=\"a.js?type=x\">let b</script>"));
        // Thousands of look-alike attributes cost a loop, not a stack.
        let many = format!("<script {}>let c</script>", "x-type=x ".repeat(100_000));
        assert!(has_script(&many));
    }
}
