; Definitions: contracts, interfaces, libraries and their members, free functions.
(contract_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(library_declaration name: (identifier) @name) @definition.module
(struct_declaration name: (identifier) @name) @definition.struct
(struct_member name: (identifier) @name) @definition.field
(enum_declaration name: (identifier) @name) @definition.enum
(enum_value) @name @definition.enumerator
(event_definition name: (identifier) @name) @definition.event
(error_declaration name: (identifier) @name) @definition.error
(function_definition name: (identifier) @name) @definition.function
(modifier_definition name: (identifier) @name) @definition.modifier
(constructor_definition "constructor" @name) @definition.constructor
(fallback_receive_definition ["receive" "fallback"] @name) @definition.function
(state_variable_declaration name: (identifier) @name) @definition.field
(constant_variable_declaration name: (identifier) @name) @definition.constant
(user_defined_type_definition name: (identifier) @name) @definition.type

; Calls: `f(x)`, `a.f(x)`, `emit E(x)`, `new C(x)`.
(call_expression function: (expression (identifier) @call))
(call_expression function: (expression (member_expression object: (_) @receiver property: (identifier) @call)))
(emit_statement name: (expression (identifier) @call))

; Imports.
(import_directive source: (string) @import)
