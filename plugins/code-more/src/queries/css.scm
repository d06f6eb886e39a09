; Definitions: each selector of a rule (`.btn, .btn-primary` are two), custom properties,
; keyframes and media blocks' rules alike.
(rule_set (selectors (_) @name)) @definition.selector
(declaration (property_name) @name (#match? @name "^--")) @definition.variable
(keyframes_statement (keyframes_name) @name) @definition.keyframes

; Calls: the custom properties a value reads (`var(--brand)`).
(call_expression (function_name) @_fn (arguments . (plain_value) @call) (#eq? @_fn "var"))

; Imports: `@import "x.css"` and `@import url(x.css)`.
(import_statement (string_value) @import)
(import_statement (call_expression (arguments (string_value) @import)))
(import_statement (call_expression (arguments (plain_value) @import)))
