; Definitions: functions, and constants bound to a struct, enum or union (Zig's types).
(function_declaration name: (identifier) @name) @definition.function
(variable_declaration (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration (identifier) @name (union_declaration)) @definition.union
(container_field name: (identifier) @name) @definition.field

; Calls: `f(x)`, `a.f(x)`.
(call_expression function: (identifier) @call)
(call_expression function: (field_expression object: (_) @receiver member: (identifier) @call))

; Imports: @import("path").
(builtin_function
  (builtin_identifier) @_builtin
  (arguments (string (string_content) @import))
  (#eq? @_builtin "@import"))
