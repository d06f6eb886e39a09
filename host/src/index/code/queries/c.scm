(function_definition declarator: (function_declarator declarator: (_) @name)) @definition.function
(function_definition declarator: (_ declarator: (function_declarator declarator: (_) @name))) @definition.function
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.prototype
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro

(call_expression function: (identifier) @call)
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @call))

(preproc_include path: (_) @import)
