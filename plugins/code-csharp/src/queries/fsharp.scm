; Definitions: modules and namespaces, types (records, unions, classes, interfaces) with their
; fields, cases and members, and let-bound functions and values.
; A file's `module A.B` holds its functions as a namespace would.
(named_module name: (long_identifier) @name) @definition.namespace
(namespace name: (long_identifier) @name) @definition.namespace
(module_defn (identifier) @name) @definition.module
(type_definition (_ (type_name type_name: (identifier) @name))) @definition.type
(record_field (identifier) @name) @definition.field
(union_type_case (identifier) @name) @definition.enumerator
(member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.method
(member_defn (property_or_ident (identifier) @name .)) @definition.property
(declaration_expression (function_or_value_defn (function_declaration_left . (identifier) @name))) @definition.function
(declaration_expression (function_or_value_defn (value_declaration_left (identifier_pattern (long_identifier_or_op (identifier) @name))))) @definition.value

; Calls: `f x`, `M.f x`, `x |> f`.
(application_expression . (long_identifier_or_op (identifier) @call))
(application_expression . (long_identifier_or_op (long_identifier (identifier) @receiver . (identifier) @call .)))
(infix_expression (infix_op) @_op . (long_identifier_or_op (identifier) @call) (#eq? @_op "|>"))

; Imports: `open A.B`.
(import_decl (long_identifier) @import)
