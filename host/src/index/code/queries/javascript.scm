(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function

(call_expression function: (identifier) @call)
(call_expression function: (super) @call)
(call_expression function: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @call))
(new_expression constructor: (identifier) @call)

(import_statement source: (string) @import)
(export_statement source: (string) @import)
(call_expression function: (identifier) @_require arguments: (arguments . (string) @import) (#eq? @_require "require"))

(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (_) @bind.type))
(assignment_expression left: (member_expression object: (this) @bind.self property: [(property_identifier) (private_property_identifier)] @bind.field) right: (new_expression constructor: (_) @bind.type))
(assignment_expression left: (member_expression object: (this) @bind.self property: [(property_identifier) (private_property_identifier)] @bind.field) right: (identifier) @bind.from)
(variable_declarator name: (identifier) @bind.name value: (call_expression function: [(identifier) @bind.type (member_expression) @bind.call]))
(variable_declarator name: (identifier) @bind.name value: (await_expression (call_expression function: [(identifier) @bind.type (member_expression) @bind.call])))
(variable_declarator name: (identifier) @bind.name value: (member_expression) @bind.path)
(variable_declarator name: (identifier) @bind.name value: (this) @bind.path)
(arguments [(arrow_function) (function_expression)] @bind.callback)
(for_in_statement left: (identifier) @bind.name operator: "of" right: [(identifier) (member_expression)] @bind.elem)
