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
