; Definitions: classes and modules (by their constant or Outer::Inner path), methods
; (`def self.x` too: nesting names the class), constants, and attr_* accessors.
(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(assignment left: (constant) @name) @definition.constant
(call
  method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name)
  (#match? @_attr "^attr_(reader|writer|accessor)$")) @definition.accessor
(alias name: (_) @name) @definition.alias
(call
  method: (identifier) @_alias
  arguments: (argument_list . (simple_symbol) @name)
  (#eq? @_alias "alias_method")) @definition.alias

; Calls: `recv.m(...)`, `m(...)`, and a bare identifier with arguments.
(call receiver: (_) @receiver method: (identifier) @call)
(call !receiver method: (identifier) @call)

; Imports: require, require_relative, load.
(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import))
  (#match? @_require "^(require|require_relative|load)$"))
