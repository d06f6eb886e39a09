; Definitions: the module, types and their variants, type aliases, ports and functions (a
; function's doc comment sits above its type annotation).
(module_declaration (upper_case_qid) @name) @definition.module
(type_declaration (upper_case_identifier) @name) @definition.type
(union_variant (upper_case_identifier) @name) @definition.enumerator
(type_alias_declaration (upper_case_identifier) @name) @definition.type
(port_annotation (lower_case_identifier) @name) @definition.function
(file (block_comment) @doc . (type_annotation) .
  (value_declaration (function_declaration_left . (lower_case_identifier) @name)) @definition.function)
(value_declaration (function_declaration_left . (lower_case_identifier) @name)) @definition.function

; Calls: `f x`, `Module.f x`.
(function_call_expr target: (value_expr (value_qid . (lower_case_identifier) @call .)))
(function_call_expr target: (value_expr (value_qid (upper_case_identifier) @receiver (lower_case_identifier) @call .)))

; Imports.
(import_clause moduleName: (upper_case_qid) @import)
