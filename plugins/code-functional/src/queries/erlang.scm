; Definitions: the module, functions (each a fun_decl of clauses), records, types, macros.
(module_attribute name: (_) @name) @definition.module
(fun_decl clause: (function_clause name: (_) @name)) @definition.function
(record_decl name: (_) @name) @definition.record
(type_alias name: (type_name name: (_) @name)) @definition.type
(opaque name: (type_name name: (_) @name)) @definition.type
(pp_define lhs: (macro_lhs name: (_) @name)) @definition.macro

; Calls: `f(X)`, `mod:f(X)`.
(call expr: (atom) @call)
(remote module: (remote_module module: (_) @receiver) fun: (call expr: (atom) @call))

; Imports: -import(mod, [...]) and -behaviour(mod).
(import_attribute module: (_) @import)
(behaviour_attribute name: (_) @import)
