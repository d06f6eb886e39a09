; Definitions: `function f`, `function M.f`, `function M:f`, `local function f`, and a
; function assigned to a name (`f = function ... end`, `M.f = function ... end`).
(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @container field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @container method: (identifier) @name)) @definition.method
(assignment_statement
  (variable_list . name: (identifier) @name)
  (expression_list . value: (function_definition))) @definition.function
(assignment_statement
  (variable_list . name: (dot_index_expression table: (_) @container field: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.function

; Calls.
(function_call name: (identifier) @call)
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @call))
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @call))

; Imports: require "a.b".
(function_call
  name: (identifier) @_require
  arguments: (arguments . (string content: (string_content) @import))
  (#eq? @_require "require"))
