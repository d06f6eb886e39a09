; The package.
(package_header (qualified_identifier) @name) @definition.package

; Definitions: classes, interfaces and enums (class_declaration), objects, companion objects,
; functions, properties, enum entries and type aliases.
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.object
(companion_object name: (identifier) @name) @definition.object
(function_declaration name: (identifier) @name) @definition.function
(property_declaration (variable_declaration (identifier) @name)) @definition.property
(class_parameter ["val" "var"] (identifier) @name) @definition.property
(enum_entry (identifier) @name) @definition.enumerator
(type_alias type: (identifier) @name) @definition.type

; Calls: `f()`, `x.f()`, `X.f()`.
(call_expression . (identifier) @call)
(call_expression . (navigation_expression (_) @receiver . (identifier) @call .))

; Imports and the package.
(import (qualified_identifier) @import)
