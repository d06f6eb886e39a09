(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(function_signature name: (_) @name) @definition.function
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method

(variable_declarator name: (identifier) @bind.name type: (type_annotation (_) @bind.type))
(required_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))
(required_parameter pattern: (this) @bind.name type: (type_annotation (_) @bind.type))
(optional_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))
(required_parameter (accessibility_modifier) pattern: (identifier) @bind.field type: (type_annotation (_) @bind.type))
(optional_parameter (accessibility_modifier) pattern: (identifier) @bind.field type: (type_annotation (_) @bind.type))
(public_field_definition name: [(property_identifier) (private_property_identifier)] @bind.field type: (type_annotation (_) @bind.type))
(public_field_definition name: [(property_identifier) (private_property_identifier)] @bind.field value: (new_expression constructor: (_) @bind.type))
