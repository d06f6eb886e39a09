; Definitions.
(namespace_definition name: (namespace_name) @name) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.enumerator
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(const_declaration (const_element (name) @name)) @definition.constant
(property_declaration (property_element name: (variable_name (name) @name))) @definition.property
(program
  (expression_statement
    (assignment_expression left: (variable_name (name) @name)) @definition.variable))

; Calls.
(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (name) @call))
(member_call_expression object: (_) @receiver name: (name) @call)
(nullsafe_member_call_expression object: (_) @receiver name: (name) @call)
(scoped_call_expression scope: (_) @receiver name: (name) @call)
(object_creation_expression (name) @call)
(object_creation_expression (qualified_name (name) @call))

; Imports: `use A\B\C;` and include/require of a literal path.
(namespace_use_clause (qualified_name) @import)
(namespace_use_clause (name) @import)
(include_expression (string (string_content) @import))
(include_once_expression (string (string_content) @import))
(require_expression (string (string_content) @import))
(require_once_expression (string (string_content) @import))
