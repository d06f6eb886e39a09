; Definitions: functions (rules' implementations, macros), targets (`name = "x"` of a call at
; the top of a BUILD file) and top-level assignments.
(function_definition name: (identifier) @name) @definition.function
(module (expression_statement
  (call arguments: (argument_list
    (keyword_argument name: (identifier) @_key value: (string (string_content) @name)))
    (#eq? @_key "name")) @definition.target))
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))

; Calls: the rules and functions called.
(call function: (identifier) @call)
(call function: (attribute object: (_) @receiver attribute: (identifier) @call))
; Imports: `load("//path:file.bzl", ...)`.
(call function: (identifier) @_load
  arguments: (argument_list . (string (string_content) @import))
  (#eq? @_load "load"))
