; Definitions: classes (interface and implementation), categories, protocols, methods by
; their first selector part, properties, block typedefs, and the C definitions around them.
(class_interface !category . (identifier) @name) @definition.class
(class_implementation !category . (identifier) @name) @definition.class
(class_interface category: (identifier) @name) @definition.category
(class_implementation category: (identifier) @name) @definition.category
(protocol_declaration . (identifier) @name) @definition.protocol
(method_declaration (method_type) . (identifier) @name) @definition.method
(method_declaration . (identifier) @name) @definition.method
(method_definition (method_type) . (identifier) @name) @definition.method
(method_definition . (identifier) @name) @definition.method
(property_declaration (struct_declaration (struct_declarator [(identifier) @name (pointer_declarator (identifier) @name)]))) @definition.property
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name) @definition.enum
(enumerator name: (identifier) @name) @definition.enumerator
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (block_pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro

; Calls: `[receiver selector:...]` and C calls.
(message_expression receiver: (_) @receiver method: (identifier) @call)
(call_expression function: (identifier) @call)

; Imports: `#import "x.h"` / `#include`.
(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)
