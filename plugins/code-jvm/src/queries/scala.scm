; Definitions.
(package_clause name: (package_identifier) @name) @definition.package
(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.object
(package_object name: (_) @name) @definition.object
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
(simple_enum_case name: (_) @name) @definition.enumerator
(full_enum_case name: (_) @name) @definition.enumerator
(function_definition name: (_) @name) @definition.method
(function_declaration name: (_) @name) @definition.method
(given_definition name: (_) @name) @definition.given
(type_definition name: (_) @name) @definition.type
(val_definition pattern: (identifier) @name) @definition.value
(var_definition pattern: (identifier) @name) @definition.variable
(val_declaration name: (_) @name) @definition.value
(var_declaration name: (_) @name) @definition.variable

; Calls: `f(x)`, `a.f(x)`, `new T(...)`.
(call_expression function: (identifier) @call)
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @call))
(instance_expression [
  (type_identifier) @call
  (applied_constructor_type (type_identifier) @call)
  (generic_type (type_identifier) @call)
])

; Imports: the whole path as written (`import a.b.{C, D}`).
(import_declaration) @import
