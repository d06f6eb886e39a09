; Definitions: rule targets (not special ones like `.PHONY`, nor patterns), variables and
; `define` macros.
(rule (targets (word) @name) (#not-match? @name "^[.]|%")) @definition.target
(variable_assignment name: (word) @name) @definition.variable
(define_directive name: (word) @name) @definition.macro

; Calls: a rule's prerequisites (the targets it runs first).
(rule (prerequisites (word) @call) (#not-match? @call "%|/|[.][a-zA-Z0-9]+$"))

; Imports: `include other.mk`.
(include_directive filenames: (list (word) @import))
