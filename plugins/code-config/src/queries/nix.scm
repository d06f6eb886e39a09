; Definitions: bindings, as functions when they bind one (`mkThing = name: ...`).
(binding attrpath: (attrpath) @name expression: (function_expression)) @definition.function
(binding attrpath: (attrpath) @name expression: [
  (attrset_expression) (rec_attrset_expression) (let_expression) (apply_expression)
  (select_expression) (variable_expression) (string_expression) (indented_string_expression)
  (list_expression) (path_expression) (integer_expression) (float_expression)
  (if_expression) (with_expression) (parenthesized_expression) (binary_expression)
  (unary_expression) (has_attr_expression) (spath_expression) (uri_expression)
  (assert_expression) (hpath_expression)]) @definition.attribute

; Calls: `f x`, `a.b.f x` (the innermost function of a curried application).
(apply_expression function: (variable_expression name: (identifier) @call))
(apply_expression function: (select_expression expression: (_) @receiver attrpath: (attrpath attr: (identifier) @call .)))

; Imports: `import ./path.nix`, `callPackage ./path.nix { }`.
(apply_expression
  function: (variable_expression name: (identifier) @_fn)
  argument: (path_expression) @import
  (#eq? @_fn "import"))
(apply_expression
  function: (apply_expression
    function: [(variable_expression name: (identifier) @_fn)
               (select_expression attrpath: (attrpath attr: (identifier) @_fn .))]
    argument: (path_expression) @import)
  (#eq? @_fn "callPackage"))
