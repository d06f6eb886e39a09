; Plain JavaScript's types in JSDoc: `/** @type {Client} */` above a declaration, a field's
; assignment or a class's field states its type (TypeScript reads its annotations instead).
(_ (comment) @bind.jsdoc . [(lexical_declaration (variable_declarator name: (identifier) @bind.name)) (variable_declaration (variable_declarator name: (identifier) @bind.name))])
(_ (comment) @bind.jsdoc . (expression_statement (assignment_expression left: (member_expression object: (this) @bind.self property: [(property_identifier) (private_property_identifier)] @bind.field))))
(_ (comment) @bind.jsdoc . (expression_statement (assignment_expression left: (subscript_expression object: (this) @bind.self index: (identifier) @bind.field.computed))))
(class_body (comment) @bind.jsdoc . (field_definition property: [(property_identifier) (private_property_identifier)] @bind.field))
