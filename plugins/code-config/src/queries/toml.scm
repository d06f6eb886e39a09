; Definitions: tables (`[profile.release]`, `[[bin]]`) and their keys; top-level keys.
(table [(bare_key) (quoted_key) (dotted_key)] @name) @definition.table
(table_array_element [(bare_key) (quoted_key) (dotted_key)] @name) @definition.table
(table (pair [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key)
(table_array_element (pair [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key)
(document (pair [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key)
