use super::Functional;
use sdk::code::Structure;

fn parse(path: &str, source: &str) -> Structure {
    Functional::parse(source.as_bytes(), path).unwrap()
}

fn defs(s: &Structure) -> Vec<String> {
    s.definitions
        .iter()
        .map(|d| {
            let name = sdk::qualified_name(&d.name, d.container.as_deref());
            format!("{name} {}", d.kind)
        })
        .collect()
}

fn calls(s: &Structure) -> Vec<String> {
    s.calls
        .iter()
        .map(|c| match &c.receiver {
            Some(r) => format!("{r}.{}", c.name),
            None => c.name.clone(),
        })
        .collect()
}

fn imports(s: &Structure) -> Vec<&str> {
    s.imports.iter().map(|i| i.name.as_str()).collect()
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
        defs(&s),
        ["Shop.Cart module", "Cart.add method", "Cart.total method"]
    );
    assert_eq!(imports(&s), ["Shop.Item", "Enum"]);
    let calls = calls(&s);
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
        defs(&s),
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
    assert_eq!(imports(&s), ["gen_server", "lists"]);
    let calls = calls(&s);
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
    let defs = defs(&s);
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
    assert_eq!(imports(&s), ["Data.Map", "Shop.Item"]);
    let calls = calls(&s);
    for call in ["sum", "map", "Map.size"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}
