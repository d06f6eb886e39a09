; Definitions an interface (.mli) and an implementation (.ml) share: modules and module
; types, types with their constructors and fields, exceptions, value specifications and
; externals.
(module_definition (module_binding (module_name) @name)) @definition.module
(module_type_definition (module_type_name) @name) @definition.interface
(type_definition (type_binding name: (type_constructor) @name)) @definition.type
(type_definition (type_binding name: (type_constructor_path (type_constructor) @name .))) @definition.type
(variant_declaration (constructor_declaration (constructor_name) @name) @definition.enumerator)
(tag_specification (tag) @name) @definition.enumerator
(field_declaration (field_name) @name) @definition.field
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.exception
(external (value_name) @name) @definition.function
(value_specification (value_name) @name) @definition.function

; Imports: `open M`, `include M`.
(open_module (module_path) @import)
(include_module (module_path) @import)
