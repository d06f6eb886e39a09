; Definitions: functions (`f() { }` and `function f { }`).
(function_definition name: (word) @name) @definition.function

; Calls: every command by its name.
(command name: (command_name (word) @call))

; Imports: `source file` and `. file`.
(command
  name: (command_name (word) @_source)
  argument: [(word) (string (string_content)) (raw_string)] @import
  (#match? @_source "^(source|\\.)$"))
