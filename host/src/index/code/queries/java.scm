(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
; An annotation's elements are its methods: `expose.serialize()` calls one.
(annotation_type_element_declaration name: (identifier) @name) @definition.method
; An enum's constants are what a language server's outline lists under it; a constant's own
; body overrides the enum's methods, which stay the enum's (a `const` contains nothing).
(enum_constant name: (identifier) @name) @definition.const
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor

(method_invocation object: (_)? @receiver name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(object_creation_expression type: (scoped_type_identifier (type_identifier) @call .))
(object_creation_expression type: (generic_type (scoped_type_identifier (type_identifier) @call .)))
; `parser::hasNext` calls hasNext where it is applied: the language's tools count it a call.
(method_reference . (_) @receiver . (identifier) @call .)

(import_declaration) @import

(local_variable_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @bind.name value: (object_creation_expression type: (_) @bind.type)))
(formal_parameter type: (_) @bind.type name: (identifier) @bind.name)
(enhanced_for_statement type: (_) @bind.type name: (identifier) @bind.name)
(resource type: (_) @bind.type name: (identifier) @bind.name)
(field_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.field))
