use super::More;
use sdk::code::Structure;

fn parse(path: &str, source: &str) -> Structure {
    More::parse(source.as_bytes(), path).unwrap()
}

#[test]
fn zig_functions_types_fields_and_imports() {
    let s = parse(
        "src/cart.zig",
        r#"const std = @import("std");
const item = @import("item.zig");

/// A customer's cart.
pub const Cart = struct {
    items: std.ArrayList(u32),
    owner: []const u8,

    pub fn add(self: *Cart, price: u32) !void {
        try self.items.append(price);
        total(self);
    }
};

pub const Size = enum { small, large };

fn total(cart: *Cart) u32 {
    return std.math.max(1, 2);
}
"#,
    );
    assert_eq!(s.language, "zig");
    assert_eq!(
        s.outline(),
        [
            "Cart struct",
            "Cart.items field",
            "Cart.owner field",
            "Cart.add method",
            "Size enum",
            "Size.small field",
            "Size.large field",
            "total function",
        ]
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().map(|d| d.text.as_str()),
        Some("A customer's cart.")
    );
    let imports = s.import_names();
    assert_eq!(imports, ["std", "item.zig"]);
    let calls = s.call_names();
    for call in ["self.items.append", "total", "std.math.max"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn r_functions_calls_and_libraries() {
    let s = parse(
        "R/cart.R",
        r#"library(dplyr)
source("helpers.R")

#' Adds an item to a cart.
add_item <- function(cart, item) {
  if (is.null(item)) stop("no item")
  dplyr::bind_rows(cart, item)
}

total = function(cart) sum(cart$price)
"#,
    );
    assert_eq!(s.language, "r");
    assert_eq!(s.outline(), ["add_item function", "total function"]);
    assert_eq!(
        s.definitions[0].doc.as_ref().map(|d| d.text.as_str()),
        Some("Adds an item to a cart.")
    );
    let imports = s.import_names();
    assert_eq!(imports, ["dplyr", "helpers.R"]);
    let calls = s.call_names();
    for call in ["stop", "dplyr.bind_rows", "sum"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn dart_classes_members_constructors_and_imports() {
    let s = parse(
        "lib/src/cart.dart",
        r#"library cart;

import 'package:flutter/material.dart';
import 'src/item.dart' as item;
export 'src/util.dart';
part 'cart_part.dart';

/// A shopping cart.
class Cart extends Base with Mixin implements Api {
  final List<int> items = [];
  int _count = 0;

  Cart(this._count);
  Cart.named() : _count = 1;
  factory Cart.empty() => Cart(0);

  /// Adds a price.
  void add(int price) {
    var local = 1;
    items.add(price);
    total(price);
    helper.doWork(1, 2)?.finish();
  }

  int get count => _count;
  set count(int v) { _count = v; }
}

mixin Mixin on Base { void mix() {} }
extension StringX on String { bool get isBlank => trim().isEmpty; }
enum Color { red, green }
typedef Callback = void Function(int);

int total(int n) => n * 2;
final version = '1';
"#,
    );
    assert_eq!(s.language, "dart");
    assert_eq!(
        s.outline(),
        [
            "Cart class",
            "Cart.items field",
            "Cart._count field",
            "Cart.Cart constructor",
            "Cart.named constructor",
            "Cart.empty constructor",
            "Cart.add method",
            "Cart.count property",
            "Cart.count property",
            "Mixin mixin",
            "Mixin.mix method",
            "StringX extension",
            "StringX.isBlank property",
            "Color enum",
            "Color.red enumerator",
            "Color.green enumerator",
            "Callback type",
            "total function",
            "version variable",
        ]
    );
    let add = s.definitions.iter().find(|d| d.name == "add").unwrap();
    assert_eq!(
        add.doc.as_ref().map(|d| d.text.as_str()),
        Some("Adds a price.")
    );
    assert_eq!(
        s.import_names(),
        [
            "package:flutter/material.dart",
            "src/item.dart",
            "src/util.dart",
            "cart_part.dart"
        ]
    );
    let calls = s.call_names();
    for call in ["items.add", "total", "helper.doWork", "trim"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn solidity_contracts_members_events_and_imports() {
    let s = parse(
        "contracts/Token.sol",
        r#"// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import "./IERC20.sol";
import {SafeMath} from "../utils/SafeMath.sol";

/// @title A token.
contract Token is IERC20 {
    uint256 public totalSupply;
    event Transfer(address indexed from, address indexed to, uint256 value);
    error Insufficient(uint256 have);
    struct Account { uint256 balance; }
    enum State { Active, Paused }

    modifier onlyOwner() { require(msg.sender == owner, "no"); _; }

    constructor(uint256 supply) { totalSupply = supply; }

    /// @notice Moves tokens.
    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 left = balances[msg.sender].sub(amount);
        _move(msg.sender, to);
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    function _move(address a, address b) internal {}
}

interface IThing { function thing() external; }
library Lib { function helper() internal pure returns (uint) { return 1; } }
function free(uint x) pure returns (uint) { return x; }
"#,
    );
    assert_eq!(s.language, "solidity");
    assert_eq!(
        s.outline(),
        [
            "Token class",
            "Token.totalSupply field",
            "Token.Transfer event",
            "Token.Insufficient error",
            "Token.Account struct",
            "Account.balance field",
            "Token.State enum",
            "State.Active enumerator",
            "State.Paused enumerator",
            "Token.onlyOwner modifier",
            "Token.constructor constructor",
            "Token.transfer method",
            "Token._move method",
            "IThing interface",
            "IThing.thing method",
            "Lib module",
            "Lib.helper method",
            "free function",
        ]
    );
    let transfer = s.definitions.iter().find(|d| d.name == "transfer").unwrap();
    assert_eq!(
        transfer.doc.as_ref().map(|d| d.text.as_str()),
        Some("@notice Moves tokens.")
    );
    assert_eq!(s.import_names(), ["./IERC20.sol", "../utils/SafeMath.sol"]);
    let calls = s.call_names();
    for call in ["require", "?.sub", "_move", "Transfer"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn sql_schema_objects_columns_and_references() {
    let s = parse(
        "db/schema.sql",
        r#"-- Users of the shop.
CREATE TABLE IF NOT EXISTS users (
  id SERIAL PRIMARY KEY,
  email TEXT NOT NULL
);
CREATE INDEX users_email_idx ON users (email);
CREATE VIEW active_users AS SELECT * FROM users WHERE id > 0;
CREATE OR REPLACE FUNCTION touch_user(uid INT) RETURNS void AS $$
BEGIN
  UPDATE users SET email = lower(email) WHERE id = uid;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER users_touch AFTER UPDATE ON users FOR EACH ROW EXECUTE FUNCTION touch_user();
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE SCHEMA billing;
SELECT count(*) FROM users;
"#,
    );
    assert_eq!(s.language, "sql");
    assert_eq!(
        s.outline(),
        [
            "users table",
            "users.id field",
            "users.email field",
            "users_email_idx index",
            "active_users view",
            "touch_user function",
            "users_touch trigger",
            "mood type",
            "billing schema",
        ]
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().map(|d| d.text.as_str()),
        Some("Users of the shop.")
    );
    let calls = s.call_names();
    for call in ["users", "lower", "count"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn css_selectors_custom_properties_keyframes_and_imports() {
    let s = parse(
        "web/app.css",
        r#"@import url("base.css");
/* Buttons. */
:root { --brand: #f00; }
.btn, .btn-primary { color: var(--brand); }
#header > a:hover { color: red; }
@media (max-width: 600px) { .btn { display: none; } }
@keyframes spin { from { transform: rotate(0); } }
"#,
    );
    assert_eq!(s.language, "css");
    assert_eq!(
        s.outline(),
        [
            ":root selector",
            ":root.--brand variable",
            ".btn selector",
            ".btn-primary selector",
            "#header > a:hover selector",
            ".btn selector",
            "spin keyframes",
        ]
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().map(|d| d.text.as_str()),
        Some("Buttons.")
    );
    assert_eq!(s.import_names(), ["base.css"]);
    assert_eq!(s.call_names(), ["--brand"]);
}
