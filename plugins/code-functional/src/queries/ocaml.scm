; An implementation's own definitions (after ocaml_common.scm): classes, methods and
; let-bound values, functions when they take parameters or are a `fun`/`function`.
(class_definition (class_binding (class_name) @name)) @definition.class
(class_type_definition (class_type_binding (class_type_name) @name)) @definition.class
(method_definition (method_name) @name) @definition.method
(instance_variable_definition (instance_variable_name) @name) @definition.field
(value_definition (let_binding pattern: (value_name) @name (parameter))) @definition.function
(value_definition (let_binding pattern: (parenthesized_operator) @name)) @definition.operator
(value_definition (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)])) @definition.function
(compilation_unit (value_definition (let_binding pattern: (value_name) @name . type: (_)? . body: (_) @_body)) @definition.value
  (#not-match? @_body "^(fun|function)[^a-zA-Z0-9_']"))
(structure (value_definition (let_binding pattern: (value_name) @name . type: (_)? . body: (_) @_body)) @definition.value
  (#not-match? @_body "^(fun|function)[^a-zA-Z0-9_']"))

; Calls: `f x`, `M.f x`, `obj#m`.
(application_expression function: (value_path (value_name) @call))
(application_expression function: (value_path (module_path) @receiver (value_name) @call))
(method_invocation (_) @receiver (method_name) @call)
