use super::Scripting;
use sdk::code::Structure;

fn parse(path: &str, source: &str) -> Structure {
    Scripting::parse(source.as_bytes(), path).unwrap()
}

#[test]
fn ruby_classes_methods_accessors_and_requires() {
    let s = parse(
        "lib/shop/cart.rb",
        r#"require "json"
require_relative "./item"

module Shop
  # A customer's cart.
  # Holds items.
  class Cart < Base
    attr_reader :items, :owner
    LIMIT = 10

    def initialize(owner)
      @owner = owner
      @items = []
    end

    def self.empty
      new(nil)
    end

    def add(item)
      return if @items.size >= LIMIT
      @items << item
      Logger.info("added")
    end
  end
end
"#,
    );
    assert_eq!(s.language, "ruby");
    assert_eq!(
        s.outline(),
        [
            "Shop module",
            "Shop.Cart class",
            "Cart.items accessor",
            "Cart.owner accessor",
            "Cart.LIMIT constant",
            "Cart.initialize method",
            "Cart.empty method",
            "Cart.add method",
        ]
    );
    let cart = &s.definitions[1];
    assert_eq!((cart.start_line, cart.end_line), (7, 25));
    assert_eq!(
        cart.doc.as_ref().unwrap().text,
        "A customer's cart.\nHolds items."
    );
    assert_eq!(cart.signature, "class Cart < Base");
    let add = s.definitions.iter().find(|d| d.name == "add").unwrap();
    assert!(add.branches >= 1, "{add:?}");
    assert_eq!(s.import_names(), ["json", "./item"]);
    let calls = s.call_names();
    for call in ["new", "Logger.info", "@items.size"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn php_namespaces_classes_and_uses() {
    let s = parse(
        "src/Http/Kernel.php",
        r#"<?php
namespace App\Http;

use App\Models\User;
use Illuminate\Support\Facades\Log;
require_once 'helpers.php';

/**
 * The HTTP kernel.
 */
final class Kernel extends Base implements Handler
{
    const VERSION = '1.0';
    private ?User $user = null;

    public function handle(Request $request): Response
    {
        if ($request->isJson()) {
            Log::info('json');
        }
        return $this->dispatch(new Response($request));
    }
}

function helper(): void { strlen("x"); }

interface Handler { public function handle(Request $r): Response; }
trait Greets { function hi() {} }
enum Suit: string { case Hearts = 'H'; }
"#,
    );
    assert_eq!(s.language, "php");
    assert_eq!(
        s.outline(),
        [
            "App\\Http namespace",
            "Kernel class",
            "Kernel.VERSION constant",
            "Kernel.user property",
            "Kernel.handle method",
            "helper function",
            "Handler interface",
            "Handler.handle method",
            "Greets trait",
            "Greets.hi method",
            "Suit enum",
            "Suit.Hearts enumerator",
        ]
    );
    assert_eq!(
        s.definitions[1].doc.as_ref().unwrap().text,
        "The HTTP kernel."
    );
    assert_eq!(
        s.import_names(),
        [
            "App\\Models\\User",
            "Illuminate\\Support\\Facades\\Log",
            "helpers.php"
        ]
    );
    let calls = s.call_names();
    for call in [
        "$request.isJson",
        "Log.info",
        "$this.dispatch",
        "Response",
        "strlen",
    ] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn bash_functions_commands_and_sources() {
    let s = parse(
        "scripts/deploy.sh",
        r#"#!/usr/bin/env bash
source ./lib/common.sh
. "$HOME/.env.sh"

# Builds the release.
build() {
  if [ -z "$1" ]; then
    log "no target"
  fi
  cargo build --release
}

function deploy {
  build prod
}

deploy
"#,
    );
    assert_eq!(s.language, "bash");
    assert_eq!(s.outline(), ["build function", "deploy function"]);
    assert_eq!(
        s.definitions[0].doc.as_ref().unwrap().text,
        "Builds the release."
    );
    assert!(
        s.import_names().contains(&"./lib/common.sh"),
        "{:?}",
        s.import_names()
    );
    let calls = s.call_names();
    for call in ["log", "cargo", "build", "deploy"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn lua_functions_methods_and_requires() {
    let s = parse(
        "src/game/player.lua",
        r#"local vector = require("game.vector")
local M = {}

--- Makes a player.
function M.new(name)
  return setmetatable({ name = name }, M)
end

function M:move(dx)
  self.pos = vector.add(self.pos, dx)
end

local function clamp(x) return math.max(0, x) end

M.reset = function(self) self:move(0) end

return M
"#,
    );
    assert_eq!(s.language, "lua");
    assert_eq!(
        s.outline(),
        [
            "M.new function",
            "M.move method",
            "clamp function",
            "M.reset function"
        ]
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().unwrap().text,
        "- Makes a player."
    );
    assert_eq!(s.import_names(), ["game.vector"]);
    let calls = s.call_names();
    for call in ["setmetatable", "vector.add", "math.max", "self.move"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn a_file_of_another_language_is_refused_and_garbage_yields_what_parses() {
    let err = Scripting::parse(b"x", "a.py").unwrap_err();
    assert_eq!(err.code, sdk::codes::UNSUPPORTED);
    let s = parse(
        "broken.rb",
        "class A\n  def ok; end\n  def (((\nend\n\u{0}\u{1}",
    );
    assert!(
        s.outline().iter().any(|d| d.contains("ok")),
        "{:?}",
        s.outline()
    );
    let s = Scripting::parse(&[0xff, 0xfe, b'd', b'e', b'f'], "x.rb").unwrap();
    assert!(s.definitions.len() <= 1);
}
