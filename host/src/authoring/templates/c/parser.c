/*
 * {{name}}: a smart-context format parser for `.{{name}}` files, in C. Each block of lines
 * separated by a blank line becomes a section, titled by its first line. Replace sc_parse
 * with your format's reading; the host indexes the sections and explore finds them. The
 * plugin gets no files, network or environment: only the bytes it is given.
 */
#include <stdio.h>

#include "smart_context_parser.h"

static sc_str EXTENSIONS[] = {{"{{name}}", sizeof "{{name}}" - 1}};

void sc_describe(sc_parser_spec *spec) {
  spec->format = sc_cstr("{{name}}");
  spec->extensions = (sc_str_list){EXTENSIONS, 1};
  spec->text_fallback = false;
}

/* Adds the block of lines [start, end) of `text` (first line number `line`) as a section. */
static void add_block(sc_document *doc, const char *text, size_t start, size_t end, uint32_t first,
                      uint32_t last) {
  sc_section *s = sc_push((void **)&doc->sections.ptr, &doc->sections.len, sizeof *s);
  size_t title_end = start;
  while (title_end < end && text[title_end] != '\n') title_end++;
  size_t title_start = start;
  while (title_start < title_end && (text[title_start] == '#' || text[title_start] == ' ')) title_start++;
  char id[32];
  int id_len = snprintf(id, sizeof id, "block-%zu", doc->sections.len);
  s->id = sc_copy(id, (size_t)id_len);
  sc_str *heading = sc_push((void **)&s->heading_path.ptr, &s->heading_path.len, sizeof *heading);
  *heading = sc_copy(text + title_start, title_end - title_start);
  s->level = 1;
  s->text = sc_copy(text + start, end - start);
  s->start_line = first;
  s->end_line = last;
}

bool sc_parse(const uint8_t *bytes, size_t len, sc_str path, sc_document *doc, sc_error *err) {
  const char *text = (const char *)bytes;
  if (memchr(bytes, 0, len) != NULL) {
    err->code = sc_cstr("MALFORMED");
    err->message = sc_copy(path.ptr, path.len);
    err->suggestion = (sc_opt_str){1, sc_cstr("a text file holds no NUL bytes")};
    return false;
  }
  doc->kind = sc_cstr("{{name}}");
  size_t pos = 0, block_start = 0, block_end = 0;
  uint32_t line = 1, first = 0, last = 0;
  while (pos <= len) {
    size_t eol = pos;
    while (eol < len && text[eol] != '\n') eol++;
    bool blank = true;
    for (size_t i = pos; i < eol; i++) {
      if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') blank = false;
    }
    if (!blank) {
      if (first == 0) { first = line; block_start = pos; }
      last = line;
      block_end = eol;
    } else if (first != 0) {
      add_block(doc, text, block_start, block_end, first, last);
      first = 0;
    }
    pos = eol + 1;
    line++;
  }
  if (first != 0) add_block(doc, text, block_start, block_end, first, last);
  if (doc->sections.len > 0) {
    doc->title = (sc_opt_str){1, doc->sections.ptr[0].heading_path.ptr[0]};
  }
  return true;
}
