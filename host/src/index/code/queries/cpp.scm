(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(namespace_definition name: (_) @name) @definition.module
(field_declaration declarator: (function_declarator declarator: (_) @name)) @definition.method

(call_expression function: (qualified_identifier scope: (_)? @receiver name: (identifier) @call))
