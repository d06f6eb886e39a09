; Definitions: a function assigned to a name (`f <- function(x)`, `f = function(x)`).
(binary_operator
  lhs: (identifier) @name
  rhs: (function_definition)) @definition.function
(binary_operator
  lhs: (string (string_content) @name)
  rhs: (function_definition)) @definition.function

; Calls: `f(x)`, `pkg::f(x)`.
(call function: (identifier) @call)
(call function: (namespace_operator lhs: (identifier) @receiver rhs: (identifier) @call))

; Imports: library(pkg), require(pkg), source("file.R").
(call
  function: (identifier) @_load
  arguments: (arguments . (argument value: (identifier) @import))
  (#match? @_load "^(library|require|requireNamespace)$"))
(call
  function: (identifier) @_source
  arguments: (arguments . (argument value: (string (string_content) @import)))
  (#eq? @_source "source"))
