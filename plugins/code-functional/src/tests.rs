use super::Functional;
use sdk::code::Structure;

fn parse(path: &str, source: &str) -> Structure {
    Functional::parse(source.as_bytes(), path).unwrap()
}

#[test]
fn elixir_modules_functions_and_aliases() {
    let s = parse(
        "lib/shop/cart.ex",
        r#"defmodule Shop.Cart do
  alias Shop.Item
  import Enum, only: [map: 2]

  def add(cart, %Item{} = item) do
    Logger.info("adding")
    [item | cart]
  end

  defp total(cart) when is_list(cart), do: sum(cart)
end
"#,
    );
    assert_eq!(s.language, "elixir");
    assert_eq!(
        s.outline(),
        ["Shop.Cart module", "Cart.add method", "Cart.total method"]
    );
    assert_eq!(s.import_names(), ["Shop.Item", "Enum"]);
    let calls = s.call_names();
    for call in ["Logger.info", "sum"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn erlang_modules_functions_records_and_calls() {
    let s = parse(
        "src/cart.erl",
        r#"-module(cart).
-behaviour(gen_server).
-import(lists, [map/2]).
-record(item, {name, price}).
-type price() :: integer().
-define(LIMIT, 10).

%% Adds an item.
add(Cart, Item) ->
    io:format("adding~n"),
    total([Item | Cart]).

total(Items) -> lists:sum(Items).
"#,
    );
    assert_eq!(s.language, "erlang");
    assert_eq!(
        s.outline(),
        [
            "cart module",
            "item record",
            "price type",
            "LIMIT macro",
            "add function",
            "total function"
        ]
    );
    assert_eq!(
        s.definitions[4].doc.as_ref().map(|d| d.text.as_str()),
        Some("Adds an item.")
    );
    assert_eq!(s.import_names(), ["gen_server", "lists"]);
    let calls = s.call_names();
    for call in ["io.format", "total", "lists.sum"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn haskell_modules_functions_types_and_imports() {
    let s = parse(
        "src/Shop/Cart.hs",
        r#"module Shop.Cart (Cart, add) where

import qualified Data.Map as Map
import Shop.Item (Item(..))

-- | A customer's cart.
data Cart = Cart { items :: [Item], owner :: String }

newtype Price = Price Int

class Priced a where
  price :: a -> Int

type Carts = [Cart]

-- | Adds an item.
add :: Item -> Cart -> Cart
add item cart = cart { items = item : items cart }

total :: Cart -> Int
total cart = sum (map price (items cart)) + Map.size Map.empty
"#,
    );
    assert_eq!(s.language, "haskell");
    let defs = s.outline();
    for def in [
        "Shop.Cart module",
        "Cart type",
        "Cart.Cart variant",
        "Cart.items field",
        "Cart.owner field",
        "Price type",
        "Priced class",
        "Priced.price method",
        "Carts type",
        "add function",
        "total function",
    ] {
        assert!(defs.contains(&def.to_string()), "{def} in {defs:?}");
    }
    assert_eq!(s.import_names(), ["Data.Map", "Shop.Item"]);
    let calls = s.call_names();
    for call in ["sum", "map", "Map.size"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}
