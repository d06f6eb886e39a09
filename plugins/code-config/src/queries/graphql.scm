; Definitions: types and their fields, enum values, operations, fragments, directives.
(object_type_definition (description)? @doc (name) @name) @definition.type
(interface_type_definition (description)? @doc (name) @name) @definition.interface
(enum_type_definition (description)? @doc (name) @name) @definition.enum
(input_object_type_definition (description)? @doc (name) @name) @definition.input
(union_type_definition (description)? @doc (name) @name) @definition.union
(scalar_type_definition (description)? @doc (name) @name) @definition.scalar
(object_type_extension (name) @name) @definition.extension
(interface_type_extension (name) @name) @definition.extension
(field_definition (description)? @doc (name) @name) @definition.field
(input_fields_definition (input_value_definition (description)? @doc (name) @name) @definition.field)
(enum_value_definition (description)? @doc (enum_value (name) @name)) @definition.enumerator
(operation_definition (name) @name) @definition.operation
(fragment_definition (fragment_name (name) @name)) @definition.fragment
(directive_definition (description)? @doc (name) @name) @definition.directive

; References: the types a definition uses and the fragments an operation spreads, as calls.
(named_type (name) @call)
(fragment_spread (fragment_name (name) @call))
