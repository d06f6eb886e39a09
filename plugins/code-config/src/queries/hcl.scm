; Definitions: Terraform's blocks by type and labels (`resource "aws_s3_bucket" "logs"` is
; `logs` in `aws_s3_bucket`), locals, and any other labelled block of an HCL file.
(block (identifier) @_type . (string_lit (template_literal) @container) . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "resource")) @definition.resource
(block (identifier) @_type . (string_lit (template_literal) @container) . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "data")) @definition.data
(block (identifier) @_type . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "variable")) @definition.variable
(block (identifier) @_type . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "output")) @definition.output
(block (identifier) @_type . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "module")) @definition.module
(block (identifier) @_type . (string_lit (template_literal) @name) . (block_start)
  (#eq? @_type "provider")) @definition.provider
(block (identifier) @_type (body (attribute (identifier) @name) @definition.constant)
  (#eq? @_type "locals"))
(block (identifier) @_type . (string_lit (template_literal) @name) . (block_start)
  (#not-any-of? @_type "resource" "data" "variable" "output" "module" "provider")) @definition.block
(block (identifier) @_type . (string_lit (template_literal) @container) . (string_lit (template_literal) @name) . (block_start)
  (#not-any-of? @_type "resource" "data")) @definition.block

; Calls: built-in functions (`merge(...)`).
(function_call (identifier) @call)

; Imports: a module's local source.
(block (identifier) @_type
  (body (attribute (identifier) @_attr (expression (literal_value (string_lit (template_literal) @import)))))
  (#eq? @_type "module") (#eq? @_attr "source"))
