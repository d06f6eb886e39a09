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

#[test]
fn ocaml_modules_types_values_and_calls() {
    let s = parse(
        "src/cart.ml",
        r#"open Printf

(** A cart. *)
type cart = { items : int list; owner : string }

type shape = Circle of float | Square of float

exception Empty_cart

(** Adds an item. *)
let add_item cart item = { cart with items = item :: cart.items }

let total cart =
  let sum = List.fold_left ( + ) 0 cart.items in
  printf "%d" sum;
  Helpers.round sum

let version = "1.0"
let double = fun x -> x * 2

module Checkout = struct
  let pay c = total c
end

module type PRINTABLE = sig
  val print : cart -> unit
end

class counter = object
  method incr = 1
end
"#,
    );
    assert_eq!(s.language, "ocaml");
    assert_eq!(
        s.outline(),
        [
            "cart type",
            "cart.items field",
            "cart.owner field",
            "shape type",
            "shape.Circle enumerator",
            "shape.Square enumerator",
            "Empty_cart exception",
            "add_item function",
            "total function",
            "version value",
            "double function",
            "Checkout module",
            "Checkout.pay method",
            "PRINTABLE interface",
            "PRINTABLE.print method",
            "counter class",
            "counter.incr method",
        ]
    );
    assert_eq!(s.doc_of("cart"), Some("A cart."));
    assert_eq!(s.doc_of("add_item"), Some("Adds an item."));
    assert_eq!(s.import_names(), ["Printf"]);
    let calls = s.call_names();
    for call in ["List.fold_left", "printf", "Helpers.round", "total"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn ocaml_interfaces_declare_values_types_and_modules() {
    let s = parse(
        "src/cart.mli",
        "(** Carts. *)\ntype cart\n\n(** Adds one. *)\nval add_item : cart -> int -> cart\nmodule Checkout : sig\n  val pay : cart -> int\nend\nexception Empty\n",
    );
    assert_eq!(s.language, "ocaml");
    assert_eq!(
        s.outline(),
        [
            "cart type",
            "add_item function",
            "Checkout module",
            "Checkout.pay method",
            "Empty exception",
        ]
    );
}

#[test]
fn clojure_namespaces_def_forms_calls_and_requires() {
    let s = parse(
        "src/shop/cart.clj",
        r#"(ns shop.cart
  (:require [clojure.string :as str]
            [shop.item :refer [price]]))

(def ^:private tax-rate 0.2)

(defn add-item
  "Adds an item."
  [cart item]
  (conj cart item))

(defn- total [cart]
  (reduce + (map price cart))
  (str/join "," cart))

(defmacro with-cart [& body] `(do ~@body))
(defprotocol Payable (pay [this]))
(defrecord Order [id items])
(defmulti area :shape)
(defmethod area :circle [c] (* 3 (:r c)))
"#,
    );
    assert_eq!(s.language, "clojure");
    assert_eq!(
        s.outline(),
        [
            "shop.cart namespace",
            "tax-rate variable",
            "add-item function",
            "total function",
            "with-cart function",
            "Payable interface",
            "Order class",
            "area function",
            "area method",
        ]
    );
    assert_eq!(
        s.definitions[2].doc.as_ref().map(|d| d.text.as_str()),
        Some("Adds an item.")
    );
    assert_eq!(s.import_names(), ["clojure.string", "shop.item"]);
    let calls = s.call_names();
    for call in ["conj", "reduce", "map", "str.join"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn elm_modules_types_functions_and_imports() {
    let s = parse(
        "src/Main.elm",
        r#"module Main exposing (main, update)

import Html exposing (Html, div)
import Shop.Cart as Cart

{-| The model. -}
type alias Model = { count : Int }

type Msg = Increment | Decrement

{-| Updates the model. -}
update : Msg -> Model -> Model
update msg model =
    case msg of
        Increment -> { model | count = Cart.add model.count 1 }
        Decrement -> model

port send : String -> Cmd msg

main = div [] []
"#,
    );
    assert_eq!(s.language, "elm");
    assert_eq!(
        s.outline(),
        [
            "Main module",
            "Model type",
            "Msg type",
            "Msg.Increment enumerator",
            "Msg.Decrement enumerator",
            "update function",
            "send function",
            "main function",
        ]
    );
    assert_eq!(s.doc_of("Model"), Some("The model."));
    assert_eq!(s.doc_of("update"), Some("Updates the model."));
    assert_eq!(s.import_names(), ["Html", "Shop.Cart"]);
    let calls = s.call_names();
    for call in ["Cart.add", "div"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}
