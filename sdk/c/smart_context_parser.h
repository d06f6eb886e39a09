/*
 * smart_context_parser.h: the format-parser world of smart-context's plugin contract
 * (wit/plugin.wit, package smart-context:plugin@0.2.3) for C, with no generator.
 *
 * The structs below are laid out exactly as the component model's canonical ABI lays out
 * the WIT records on wasm32 (natural alignment, 32-bit pointers and sizes), so the exports
 * hand the host pointers to them as they are. Implement the two functions at the end:
 *
 *   void sc_describe(sc_parser_spec *spec);
 *   bool sc_parse(const uint8_t *bytes, size_t len, sc_str path, sc_document *doc, sc_error *err);
 *
 * Build (clang and wasi-libc from Debian, jco from npm):
 *   clang --target=wasm32-wasi -mexec-model=reactor -O2 -o core.wasm parser.c
 *   npx jco embed core.wasm --wit "$PWD/wit" -o embedded.wasm   (wit/: the format-parser world only)
 *   npx jco new embedded.wasm --wasi-reactor -o NAME.wasm
 *
 * Every call runs in a fresh instance that is dropped afterwards: allocate with malloc and
 * never free; the host copies the answer out before the instance goes. sc_parse's `doc` and
 * `err` share one result: fill `doc` and return true, or fill `err` and return false, never
 * both. Include this header in one translation unit only (it defines the exports).
 */
#ifndef SMART_CONTEXT_PARSER_H
#define SMART_CONTEXT_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *ptr; size_t len; } sc_str;
typedef struct { sc_str *ptr; size_t len; } sc_str_list;
typedef struct { const uint8_t *ptr; size_t len; } sc_bytes;
typedef struct { uint8_t is_some; sc_str value; } sc_opt_str;
typedef struct { uint8_t is_some; uint32_t value; } sc_opt_u32;

typedef struct {
  /* Stable within the document: derived from the heading path and an ordinal. */
  sc_str id;
  sc_str_list heading_path;
  /* 1 for a top-level heading; 0 for text before the first heading. */
  uint8_t level;
  /* The section's own text, without its subsections. */
  sc_str text;
  /* 1-based; end_line is the last line including subsections. */
  uint32_t start_line;
  uint32_t end_line;
  sc_opt_u32 page;
} sc_section;

typedef struct { sc_str section_id, target, text; } sc_link;
typedef struct { sc_str key, value; } sc_pair;

typedef struct {
  sc_opt_str title;
  /* The format, as the parser names it. */
  sc_str kind;
  struct { sc_section *ptr; size_t len; } sections;
  struct { sc_link *ptr; size_t len; } links;
  struct { sc_pair *ptr; size_t len; } metadata;
  /* What was lost or guessed. */
  sc_str_list warnings;
} sc_document;

/* A failure the agent can act on: MALFORMED, ENCRYPTED, TOO_LARGE, UNSUPPORTED, ... */
typedef struct { sc_str code, message; sc_opt_str suggestion, details_json; } sc_error;

typedef struct {
  sc_str format;
  /* Lower-case file extensions without the dot. */
  sc_str_list extensions;
  /* Leading bytes that identify the format whatever the file's name. */
  struct { sc_bytes *ptr; size_t len; } signatures;
  /* Reads text files no other parser claims. */
  bool text_fallback;
} sc_parser_spec;

typedef struct {
  uint8_t is_err;
  union { sc_document ok; sc_error err; } val;
} sc_parse_result;

/* A string of a NUL-terminated literal (not copied). */
static inline sc_str sc_cstr(const char *s) { return (sc_str){s, strlen(s)}; }

/* A copy of len bytes of s, kept until the call ends. */
static inline sc_str sc_copy(const char *s, size_t len) {
  char *p = malloc(len ? len : 1);
  memcpy(p, s, len);
  return (sc_str){p, len};
}

/* Appends one element to a growing array (ptr, len) of elements of size `size`. */
static inline void *sc_push(void **ptr, size_t *len, size_t size) {
  *ptr = realloc(*ptr, (*len + 1) * size);
  void *slot = (char *)*ptr + *len * size;
  memset(slot, 0, size);
  *len += 1;
  return slot;
}

enum sc_level { SC_TRACE, SC_DEBUG, SC_INFO, SC_WARN, SC_ERROR };

__attribute__((import_module("smart-context:plugin/log@0.2.3"), import_name("log")))
extern void sc__log(int32_t level, const char *ptr, size_t len);

/* A line in the host's log, tagged with the plugin's name (needs the "log" grant). */
static inline void sc_log(enum sc_level level, const char *message) {
  sc__log((int32_t)level, message, strlen(message));
}

/* What you implement. */
void sc_describe(sc_parser_spec *spec);
bool sc_parse(const uint8_t *bytes, size_t len, sc_str path, sc_document *doc, sc_error *err);

/* The exports the host calls: the canonical ABI's names and shapes. */
__attribute__((export_name("smart-context:plugin/parser@0.2.3#describe")))
sc_parser_spec *sc__export_describe(void) {
  static sc_parser_spec spec;
  memset(&spec, 0, sizeof spec);
  sc_describe(&spec);
  return &spec;
}

__attribute__((export_name("smart-context:plugin/parser@0.2.3#parse")))
sc_parse_result *sc__export_parse(uint8_t *bytes, size_t len, char *path, size_t path_len) {
  static sc_parse_result result;
  memset(&result, 0, sizeof result);
  sc_str p = {path, path_len};
  if (!sc_parse(bytes, len, p, &result.val.ok, &result.val.err)) {
    result.is_err = 1;
  }
  return &result;
}

/* How the host allocates the arguments it passes in. */
__attribute__((export_name("cabi_realloc")))
void *cabi_realloc(void *old, size_t old_size, size_t align, size_t new_size) {
  (void)old_size;
  if (new_size == 0) return (void *)align;
  return realloc(old, new_size);
}

#endif
