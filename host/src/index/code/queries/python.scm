(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

(call function: (identifier) @call)
(call function: (attribute object: (_) @receiver attribute: (identifier) @call))

(import_statement) @import
(import_from_statement) @import

(assignment left: (identifier) @bind.name type: (type) @bind.type)
(assignment left: (identifier) @bind.name !type right: (call function: [(identifier) @bind.type (attribute) @bind.call]))
(assignment left: (identifier) @bind.name !type right: (await (call function: [(identifier) @bind.type (attribute) @bind.call])))
(assignment left: [(pattern_list) (tuple_pattern)] @bind.unpack right: [(call function: [(identifier) @bind.type (attribute) @bind.call]) (await (call function: [(identifier) @bind.type (attribute) @bind.call]))])
(assignment left: (identifier) @bind.name !type right: [(attribute) (identifier)] @bind.path)
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) type: (type) @bind.type)
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) !type right: (call function: [(identifier) @bind.type (attribute attribute: (identifier) @bind.type)]))
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) !type right: (await (call function: [(identifier) @bind.type (attribute attribute: (identifier) @bind.type)])))
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) !type right: (identifier) @bind.from)
(assignment left: (identifier) @bind.name !type right: [(boolean_operator operator: "or" right: (call function: [(identifier) @bind.type (attribute) @bind.call])) (conditional_expression (call function: [(identifier) @bind.type (attribute) @bind.call]) .)])
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) !type right: [(boolean_operator operator: "or" right: (call function: [(identifier) @bind.type (attribute attribute: (identifier) @bind.type)])) (conditional_expression (call function: [(identifier) @bind.type (attribute attribute: (identifier) @bind.type)]) .)])
(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.field) !type right: [(boolean_operator left: (identifier) @bind.from operator: "or") (conditional_expression . (identifier) @bind.from)])
(with_item value: (as_pattern (call function: [(identifier) @bind.type (attribute) @bind.call]) alias: (as_pattern_target (identifier) @bind.name)))
(typed_parameter (identifier) @bind.name type: (type) @bind.type)
(typed_default_parameter name: (identifier) @bind.name type: (type) @bind.type)

(decorator (identifier) @call)
(decorator (attribute object: (_) @receiver attribute: (identifier) @call))
(for_statement left: (identifier) @bind.name right: [(identifier) (attribute)] @bind.elem)
(for_statement left: [(pattern_list) (tuple_pattern)] @bind.pairs right: (call) @bind.elem)
