; Definitions: namespaces, types, members, enum members and local functions.
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(record_declaration name: (identifier) @name) @definition.record
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.delegate
(enum_member_declaration name: (identifier) @name) @definition.enumerator
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.destructor
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.event
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.event
(local_function_statement name: (identifier) @name) @definition.function

; Calls: `F()`, `x.F()`, `F<T>()`, `x.F<T>()`, `new T()`.
(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name (identifier) @call))
(invocation_expression
  function: (member_access_expression expression: (_) @receiver name: (identifier) @call))
(invocation_expression
  function: (member_access_expression expression: (_) @receiver name: (generic_name (identifier) @call)))
(object_creation_expression type: (identifier) @call)
(object_creation_expression type: (generic_name (identifier) @call))
(object_creation_expression type: (qualified_name name: (identifier) @call))

; Imports: `using A.B;`, `using static A.B;`, `using X = A.B;`.
(using_directive (qualified_name) @import)
(using_directive . (identifier) @import .)
