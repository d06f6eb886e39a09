; Everything is a call in Elixir's grammar: `defmodule Name do`, `def name(args)`.
(call
  target: (identifier) @_kw
  (arguments . (alias) @name)
  (#match? @_kw "^(defmodule|defprotocol|defimpl)$")) @definition.module
(call
  target: (identifier) @_kw
  (arguments .
    [(identifier) @name
     (call target: (identifier) @name)
     (binary_operator left: (call target: (identifier) @name))
     (binary_operator left: (identifier) @name)])
  (#match? @_kw "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$")) @definition.function

; Calls: `f(x)`, `Mod.f(x)`, `x |> f()`.
(call target: (identifier) @call)
(call target: (dot left: (_) @receiver right: (identifier) @call))

; Imports: alias, import, require, use of a module.
(call
  target: (identifier) @_kw
  (arguments . (alias) @import)
  (#match? @_kw "^(alias|import|require|use)$"))
