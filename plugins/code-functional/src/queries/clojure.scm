; Definitions: `(ns name)`, and the def forms by their head symbol (a form's docstring is its
; doc).
(source (list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name)
  (#eq? @_head "ns")) @definition.namespace)
(list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name) . (str_lit)? @doc
  (#any-of? @_head "defn" "defn-" "defmacro" "defmulti" "definline")) @definition.function
(list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name)
  (#any-of? @_head "def" "defonce")) @definition.variable
(list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name)
  (#any-of? @_head "defprotocol" "definterface")) @definition.interface
(list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name)
  (#any-of? @_head "defrecord" "deftype" "defstruct")) @definition.class
(list_lit . (sym_lit (sym_name) @_head) . (sym_lit (sym_name) @name)
  (#eq? @_head "defmethod")) @definition.method

; Calls: the head symbol of a list that is no definition form (`(str/join ...)` is `join`
; on `str`).
(list_lit . (sym_lit (sym_ns) @receiver (sym_name) @call))
(list_lit . (sym_lit !namespace (sym_name) @call)
  (#not-match? @call "^(def|ns$|fn$|let$|if$|do$|when|cond|loop$|recur$|quote$|var$|try$|catch$|finally$|throw$|new$|set!$|case$|and$|or$|not$|->)"))

; Imports: the namespaces `(:require ...)` names.
(list_lit . (kwd_lit (kwd_name) @_kw) (vec_lit . (sym_lit (sym_name) @import))
  (#eq? @_kw "require"))
(list_lit . (kwd_lit (kwd_name) @_kw) (sym_lit (sym_name) @import)
  (#eq? @_kw "require"))
