(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.union
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.trait
(impl_item type: (_) @name) @definition.impl
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.const
(static_item name: (identifier) @name) @definition.static

(call_expression function: (identifier) @call)
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @call))
(call_expression function: (scoped_identifier path: (_)? @receiver name: (identifier) @call))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @call)))
(call_expression function: (generic_function function: (scoped_identifier path: (_)? @receiver name: (identifier) @call)))
(macro_invocation macro: (identifier) @call)
(macro_invocation (token_tree) @macro.arguments)

(use_declaration argument: (_) @import)
(extern_crate_declaration name: (identifier) @import)

(let_declaration pattern: (identifier) @bind.name type: (_) @bind.type)
(let_declaration pattern: (identifier) @bind.name value: (call_expression function: [(scoped_identifier) @bind.ctor (generic_function function: (scoped_identifier) @bind.ctor)]))
(let_declaration pattern: (identifier) @bind.name value: (struct_expression name: (_) @bind.type))
(let_declaration pattern: (identifier) @bind.name !type value: [(field_expression) @bind.path (reference_expression value: (field_expression) @bind.path)])
(parameter pattern: (identifier) @bind.name type: (_) @bind.type)
(field_declaration name: (field_identifier) @bind.field type: (_) @bind.type)
(let_declaration pattern: (identifier) @bind.name value: (call_expression function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call (generic_function function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call])]))
(let_declaration pattern: (identifier) @bind.name value: (unary_expression "*" (call_expression function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call])))
(enum_variant name: (identifier) @bind.field body: (ordered_field_declaration_list . type: (_) @bind.type .))
(tuple_struct_pattern type: (_) @bind.variant . [(identifier) @bind.name (ref_pattern (identifier) @bind.name) (mut_pattern (identifier) @bind.name)] .)
(let_declaration pattern: (identifier) @bind.name value: (try_expression (call_expression function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call])) @bind.tried)
(let_declaration pattern: (identifier) @bind.name value: [(await_expression (call_expression function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call])) (try_expression (await_expression (call_expression function: [(identifier) @bind.type (scoped_identifier name: (identifier) @bind.type) (field_expression) @bind.call])))])
(type_parameter name: (type_identifier) @bind.name bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type))
(where_predicate left: (type_identifier) @bind.name bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type))
(let_declaration pattern: (tuple_pattern) @bind.unpack value: (call_expression function: [(identifier) @bind.type (field_expression) @bind.call]))
(let_declaration pattern: (tuple_pattern) @bind.unpack value: (tuple_expression) @bind.tuple)
(for_expression pattern: (identifier) @bind.name value: (_) @bind.elem)
(for_expression pattern: (tuple_pattern) @bind.pairs value: (call_expression) @bind.elem)
(closure_expression) @bind.closure
(associated_type name: (type_identifier) @bind.name bounds: (trait_bounds . [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type))
(let_condition pattern: (tuple_struct_pattern type: (identifier) @bind.wrapper . [(identifier) @bind.name (ref_pattern (identifier) @bind.name) (ref_pattern (mut_pattern (identifier) @bind.name)) (mut_pattern (identifier) @bind.name)] .) value: [(call_expression function: [(identifier) @bind.type (field_expression) @bind.call]) (field_expression) @bind.path (identifier) @bind.path (reference_expression value: (field_expression) @bind.path)])
(match_expression value: [(call_expression function: [(identifier) @bind.type (field_expression) @bind.call]) (field_expression) @bind.path (identifier) @bind.path (reference_expression value: (field_expression) @bind.path)] body: (match_block (match_arm pattern: (match_pattern (tuple_struct_pattern type: (identifier) @bind.wrapper . [(identifier) @bind.name (ref_pattern (identifier) @bind.name) (ref_pattern (mut_pattern (identifier) @bind.name)) (mut_pattern (identifier) @bind.name)] .)))))
