; Definitions: build stages (`FROM image AS name`), build arguments and environment variables.
(from_instruction (image_alias) @name) @definition.stage
(arg_instruction . (unquoted_string) @name) @definition.variable
(env_instruction (env_pair . (unquoted_string) @name)) @definition.variable
