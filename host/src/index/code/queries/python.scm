(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

(call function: (identifier) @call)
(call function: (attribute object: (_) @receiver attribute: (identifier) @call))

(import_statement) @import
(import_from_statement) @import
