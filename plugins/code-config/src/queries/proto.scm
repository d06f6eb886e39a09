; Definitions: the package, messages and their fields, enums and their values, services and
; their methods.
(package (full_ident) @name) @definition.package
(message (message_name (identifier) @name)) @definition.message
(field (identifier) @name) @definition.field
(map_field (identifier) @name) @definition.field
(oneof (identifier) @name) @definition.oneof
(oneof_field (identifier) @name) @definition.field
(enum (enum_name (identifier) @name)) @definition.enum
(enum_field (identifier) @name) @definition.enumerator
(service (service_name (identifier) @name)) @definition.service
(rpc (rpc_name (identifier) @name)) @definition.rpc
(extend (full_ident) @name) @definition.extend

; References: the message and enum types a field or a method uses, as its calls.
(message_or_enum_type (identifier) @call .)

; Imports.
(import path: (string) @import)
