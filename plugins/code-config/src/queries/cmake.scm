; Definitions: the project, functions, macros, variables (`set`, `option`) and build targets.
(normal_command (identifier) @_command (argument_list . (argument) @name)
  (#match? @_command "^(project|PROJECT)$")) @definition.project
(function_def (function_command (argument_list . (argument) @name))) @definition.function
(macro_def (macro_command (argument_list . (argument) @name))) @definition.macro
(normal_command (identifier) @_command (argument_list . (argument) @name)
  (#match? @_command "^([sS][eE][tT]|option|OPTION)$")) @definition.variable
(normal_command (identifier) @_command (argument_list . (argument) @name)
  (#match? @_command "^(add_library|add_executable|add_custom_target|ADD_LIBRARY|ADD_EXECUTABLE|ADD_CUSTOM_TARGET)$")) @definition.target

; Calls: every command (a project's own functions and macros among them).
(normal_command (identifier) @call)

; Imports: `include(file)` and `add_subdirectory(dir)`.
(normal_command (identifier) @_command (argument_list . (argument) @import)
  (#match? @_command "^(include|add_subdirectory|INCLUDE|ADD_SUBDIRECTORY)$"))
