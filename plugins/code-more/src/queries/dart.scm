; Definitions: types, their members, top-level functions and variables.
(class_declaration name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.mixin
(extension_declaration name: (identifier) @name) @definition.extension
(extension_type_declaration name: (extension_type_name (identifier) @name)) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(enum_entry name: (identifier) @name) @definition.enumerator
(type_alias (type_identifier) @name) @definition.type

(function_declaration signature: (function_signature name: (identifier) @name)) @definition.function
(getter_declaration signature: (getter_signature name: (identifier) @name)) @definition.function
(setter_declaration signature: (setter_signature name: (identifier) @name)) @definition.function

(method_declaration (method_signature (function_signature name: (identifier) @name))) @definition.method
(method_declaration (method_signature (getter_signature name: (identifier) @name))) @definition.property
(method_declaration (method_signature (setter_signature name: (identifier) @name))) @definition.property
(method_declaration (method_signature (operator_signature operator: _ @name))) @definition.method
(method_declaration (method_signature (factory_constructor_signature . (identifier) . (identifier) @name))) @definition.constructor
(method_declaration (method_signature (factory_constructor_signature . (identifier) @name .  (formal_parameter_list)))) @definition.constructor
(method_declaration (method_signature (constructor_signature . (identifier) @name . (formal_parameter_list)))) @definition.constructor
(method_declaration (method_signature (constructor_signature . (identifier) . (identifier) @name))) @definition.constructor

; A member without a body: an abstract method, a constructor or a field.
(member_declaration (declaration (function_signature name: (identifier) @name))) @definition.method
(member_declaration (declaration (getter_signature name: (identifier) @name))) @definition.property
(member_declaration (declaration (constructor_signature . (identifier) @name . (formal_parameter_list)))) @definition.constructor
(member_declaration (declaration (constructor_signature . (identifier) . (identifier) @name))) @definition.constructor
(member_declaration (declaration (constant_constructor_signature . (identifier) @name . (formal_parameter_list)))) @definition.constructor
(member_declaration (declaration (constant_constructor_signature . (identifier) . (identifier) @name))) @definition.constructor
(member_declaration (declaration (redirecting_factory_constructor_signature . (identifier) . (identifier) @name))) @definition.constructor
(member_declaration (declaration (factory_constructor_signature . (identifier) . (identifier) @name))) @definition.constructor
(member_declaration (declaration (factory_constructor_signature . (identifier) @name . (formal_parameter_list)))) @definition.constructor
(member_declaration (declaration (initialized_identifier_list (initialized_identifier name: (identifier) @name)))) @definition.field
(member_declaration (declaration (static_final_declaration_list (static_final_declaration name: (identifier) @name)))) @definition.field

(top_level_variable_declaration (static_final_declaration_list (static_final_declaration name: (identifier) @name))) @definition.variable
(top_level_variable_declaration (initialized_identifier_list (initialized_identifier name: (identifier) @name))) @definition.variable

; Calls: `f(x)`, `a.f(x)`, `a?.f(x)`, `a..f(x)`.
(call_expression function: (identifier) @call)
(call_expression function: (member_expression object: (_) @receiver property: (identifier) @call))
(call_expression function: (null_aware_member_expression object: (_) @receiver property: (identifier) @call))
(cascade_call_expression property: (identifier) @call)

; Imports: import, export and part directives.
(library_import (import_specification (configurable_uri (uri (string_literal) @import))))
(library_export (configurable_uri (uri (string_literal) @import)))
(part_directive (uri (string_literal) @import))
