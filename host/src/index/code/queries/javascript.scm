(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function
; A constructor function's methods (`Runner.prototype.run = function () {..}`) and a CommonJS
; module's functions (`exports.lookupFiles = function ..`, `module.exports.f = ..`).
(assignment_expression left: (member_expression object: (member_expression object: (identifier) @container property: (property_identifier) @_prototype) property: (property_identifier) @name) right: [(function_expression) (arrow_function)] (#eq? @_prototype "prototype")) @definition.method
(assignment_expression left: (member_expression object: (identifier) @_exports property: (property_identifier) @name) right: [(function_expression) (arrow_function)] (#eq? @_exports "exports")) @definition.function
(assignment_expression left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name) right: [(function_expression) (arrow_function)] (#eq? @_module "module") (#eq? @_exports "exports")) @definition.function

(call_expression function: (identifier) @call)
(call_expression function: (super) @call)
(call_expression function: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @call))
(new_expression constructor: (identifier) @call)
; `f.call(this, ..)`, `this.m.apply(this, args)`, `this.close.bind(this)`: Function's own
; methods call (or bind) the function they are read off.
(call_expression function: (member_expression object: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @call) property: (property_identifier) @_invoke) (#match? @_invoke "^(call|apply|bind)$"))
(call_expression function: (member_expression object: (identifier) @call property: (property_identifier) @_invoke) (#match? @_invoke "^(call|apply|bind)$"))
; `this[kClose]()`: a method named by a constant's symbol (`[kClose] () {..}`).
(call_expression function: (subscript_expression object: (_) @receiver index: (identifier) @call.computed))

(import_statement source: (string) @import)
(export_statement source: (string) @import)
(call_expression function: (identifier) @_require arguments: (arguments . (string) @import) (#eq? @_require "require"))

(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (_) @bind.type))
(assignment_expression left: (member_expression object: (this) @bind.self property: [(property_identifier) (private_property_identifier)] @bind.field) right: (new_expression constructor: (_) @bind.type))
(assignment_expression left: (member_expression object: (this) @bind.self property: [(property_identifier) (private_property_identifier)] @bind.field) right: (identifier) @bind.from)
(assignment_expression left: (subscript_expression object: (this) @bind.self index: (identifier) @bind.field.computed) right: (new_expression constructor: (_) @bind.type))
(assignment_expression left: (subscript_expression object: (this) @bind.self index: (identifier) @bind.field.computed) right: (identifier) @bind.from)
(variable_declarator name: (identifier) @bind.name value: (call_expression function: [(identifier) @bind.type (member_expression) @bind.call]))
(variable_declarator name: (identifier) @bind.name value: (await_expression (call_expression function: [(identifier) @bind.type (member_expression) @bind.call])))
(variable_declarator name: (identifier) @bind.name value: (member_expression) @bind.path)
(variable_declarator name: (identifier) @bind.name value: (this) @bind.path)
; `const { socket, request } = this`: each name holds that field of the value.
(variable_declarator name: (object_pattern) @bind.destructure value: [(identifier) (this) (member_expression)] @bind.path)
(arguments [(arrow_function) (function_expression)] @bind.callback)
(for_in_statement left: (identifier) @bind.name operator: "of" right: [(identifier) (member_expression)] @bind.elem)
; `inherits(NyanCat, Base)`, `util.inherits(..)`: Node's way to give a constructor function a
; base (its prototype's prototype is the base's).
(call_expression function: [(identifier) @_inherits (member_expression property: (property_identifier) @_inherits)] arguments: (arguments . (identifier) @bind.subclass . [(identifier) (member_expression)] @bind.base) (#eq? @_inherits "inherits"))
; `Dot.prototype = Object.create(Base.prototype)`, `Object.setPrototypeOf(Dot.prototype,
; Base.prototype)`: the same, written out.
(assignment_expression left: (member_expression object: (identifier) @bind.subclass property: (property_identifier) @_prototype) right: (call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_create) arguments: (arguments . (member_expression object: [(identifier) (member_expression)] @bind.base property: (property_identifier) @_base_prototype))) (#eq? @_prototype "prototype") (#eq? @_object "Object") (#eq? @_create "create") (#eq? @_base_prototype "prototype"))
(call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_set) arguments: (arguments . (member_expression object: (identifier) @bind.subclass property: (property_identifier) @_prototype) . (member_expression object: [(identifier) (member_expression)] @bind.base property: (property_identifier) @_base_prototype)) (#eq? @_object "Object") (#eq? @_set "setPrototypeOf") (#eq? @_prototype "prototype") (#eq? @_base_prototype "prototype"))
; `module.exports = Request`: what the module's value is.
(assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: (identifier) @bind.exported (#eq? @_module "module") (#eq? @_exports "exports"))
