; Definitions: the module, functions and bindings (one per equation), signatures' names,
; data types, newtypes, type classes, type synonyms and families, record fields.
(header module: (module) @name) @definition.module
(declarations (function name: (_) @name) @definition.function)
(declarations (bind name: (_) @name) @definition.function)
(class_declarations (signature name: (_) @name) @definition.method)
(data_type name: (_) @name) @definition.type
(newtype name: (_) @name) @definition.type
(class name: (_) @name) @definition.class
(type_synomym name: (_) @name) @definition.type
(type_family name: (_) @name) @definition.type
(field name: (field_name) @name) @definition.field
(data_constructor constructor: (prefix name: (constructor) @name)) @definition.variant
(data_constructor constructor: (record name: (constructor) @name)) @definition.variant

; Calls: function applications by name, plain or qualified.
(apply function: (variable) @call)
(apply function: (qualified module: (module) @receiver id: (variable) @call))

; Imports.
(import module: (module) @import)
