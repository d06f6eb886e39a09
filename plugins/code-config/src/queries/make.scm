; Definitions: rule targets (`$(BUILD)/%.o` as written; not special ones like `.PHONY`),
; variables and `define` macros.
(rule (targets (_) @name) (#not-match? @name "^[.][A-Z]")) @definition.target
(variable_assignment name: (word) @name) @definition.variable
(define_directive name: (word) @name) @definition.macro

; Calls: a rule's prerequisites (the targets it runs first).
(rule (prerequisites (word) @call) (#not-match? @call "%|/|[.][a-zA-Z0-9]+$"))

; Imports: `include other.mk`.
(include_directive filenames: (list (word) @import))
