; Definitions: the keys of objects two levels deep (a manifest's sections and their entries).
(document (object (pair key: (string (string_content) @name)) @definition.key))
(document (object (pair value: (object (pair key: (string (string_content) @name)) @definition.key))))
