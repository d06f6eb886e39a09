; Definitions: classes, interfaces, enums, traits, methods, constructors, fields, and
; top-level `def` functions and closures bound to variables.
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_constant name: (identifier) @name) @definition.enumerator
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(function_definition name: (identifier) @name) @definition.function
(program (local_variable_declaration declarator: (variable_declarator name: (identifier) @name value: (closure))) @definition.function)

; Calls: `f(x)`, `a.f(x)`, `f x` (a command call), `new C(...)`.
(method_invocation object: (_) @receiver name: (identifier) @call)
(method_invocation !object name: (identifier) @call)
(juxt_function_call name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)

; Imports.
(import_declaration (scoped_identifier) @import)
