; Definitions: the keys of mappings three levels deep (sections, then their entries), and
; anchors; an alias is a reference to its anchor.
(document (block_node (block_mapping (block_mapping_pair key: (flow_node) @name) @definition.key)))
(document (block_node (block_mapping (block_mapping_pair value: (block_node (block_mapping (block_mapping_pair key: (flow_node) @name) @definition.key))))))
(document (block_node (block_mapping (block_mapping_pair value: (block_node (block_mapping (block_mapping_pair value: (block_node (block_mapping (block_mapping_pair key: (flow_node) @name) @definition.key)))))))))
(anchor (anchor_name) @name) @definition.anchor
(alias (alias_name) @call)
