; Definitions: what a schema creates (tables and their columns, views, indexes, functions,
; triggers, types, schemas, sequences).
(create_table (object_reference name: (identifier) @name)) @definition.table
(column_definition name: (identifier) @name) @definition.field
(create_view (object_reference name: (identifier) @name)) @definition.view
(create_materialized_view (object_reference name: (identifier) @name)) @definition.view
(create_index (identifier) @name) @definition.index
(create_function (keyword_function) . (object_reference name: (identifier) @name)) @definition.function
(create_trigger (keyword_trigger) . (object_reference name: (identifier) @name)) @definition.trigger
(create_type (object_reference name: (identifier) @name)) @definition.type
(create_schema (identifier) @name) @definition.schema
(create_sequence (object_reference name: (identifier) @name)) @definition.sequence

; Calls: functions invoked, and the tables a statement reads or writes (as references).
(invocation (object_reference name: (identifier) @call))
(relation (object_reference name: (identifier) @call))
