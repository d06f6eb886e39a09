(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) @container (pointer_type (type_identifier) @container) (generic_type type: (type_identifier) @container) (pointer_type (generic_type type: (type_identifier) @container))]))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name) @definition.type
(type_spec name: (type_identifier) @container type: (interface_type (method_elem name: (field_identifier) @name) @definition.method))
(const_spec name: (identifier) @name) @definition.const

(call_expression function: (identifier) @call)
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @call))
;; A function or method named as a value (`getFlagType(name, "int32", int32Conv)`, `fnc:
;; FilterValues`, `Comparer(a.compare)`), which gopls lists among the calls of what it names.
(argument_list (identifier) @call.value)
(argument_list (selector_expression operand: (_) @receiver field: (field_identifier) @call.value))
(keyed_element value: (literal_element (identifier) @call.value))
(keyed_element value: (literal_element (selector_expression operand: (_) @receiver field: (field_identifier) @call.value)))
(literal_value (literal_element (identifier) @call.value))

(import_spec path: (_) @import)

(parameter_declaration name: (identifier) @bind.name type: (_) @bind.type)
(variadic_parameter_declaration name: (identifier) @bind.name type: (_) @bind.variadic)
(var_spec name: (identifier) @bind.name type: (_) @bind.type)
(var_spec . name: (identifier) @bind.name !type value: (expression_list . [(composite_literal type: (_) @bind.type) (unary_expression operand: (composite_literal type: (_) @bind.type))]))
(var_spec . name: (identifier) @bind.name !type value: (expression_list . (call_expression function: [(identifier) @bind.type (selector_expression) @bind.call])))
(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (type_assertion_expression type: (_) @bind.type)))
(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (selector_expression) @bind.path))
(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . [(composite_literal type: (_) @bind.type) (unary_expression operand: (composite_literal type: (_) @bind.type))]))
(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (call_expression function: [(identifier) @bind.type (selector_expression) @bind.call])))
(short_var_declaration left: (expression_list (_) (_)) @bind.unpack right: (expression_list . (call_expression function: [(identifier) @bind.type (selector_expression) @bind.call]) .))
(var_spec name: (identifier) name: (identifier) !type value: (expression_list . (call_expression function: [(identifier) @bind.type (selector_expression) @bind.call]) .)) @bind.unpack
(short_var_declaration left: (expression_list (_) (_)) @bind.unpack right: (expression_list (_) (_)) @bind.tuple)
(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (index_expression operand: [(identifier) (selector_expression) (parenthesized_expression (unary_expression operator: "*" operand: [(identifier) (selector_expression)]))] @bind.elem)))
(field_declaration name: (field_identifier) @bind.field type: (_) @bind.type)
(field_declaration !name type: [(type_identifier) (pointer_type (type_identifier)) (qualified_type) (pointer_type (qualified_type)) (generic_type)] @bind.embed)
(range_clause left: (expression_list (_) (identifier) @bind.name .) right: [(identifier) (selector_expression)] @bind.elem)
