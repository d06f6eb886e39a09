; Definitions: class_declaration is a class, struct, enum, actor or extension by its keyword.
(class_declaration declaration_kind: "class" name: (_) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (_) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (_) @name) @definition.enum
(class_declaration declaration_kind: "actor" name: (_) @name) @definition.class
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.extension
(protocol_declaration name: (_) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.constructor
(property_declaration name: (pattern (simple_identifier) @name)) @definition.property
(protocol_property_declaration name: (pattern (simple_identifier) @name)) @definition.property
(enum_entry name: (simple_identifier) @name) @definition.enumerator
(typealias_declaration name: (_) @name) @definition.type
(subscript_declaration) @definition.subscript

; Calls: `f()`, `x.f()`, `T()`.
(call_expression . (simple_identifier) @call)
(call_expression
  . (navigation_expression
      target: (_) @receiver
      suffix: (navigation_suffix suffix: (simple_identifier) @call)))

; Imports.
(import_declaration (identifier) @import)
