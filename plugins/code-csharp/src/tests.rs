use super::CSharp;
use sdk::code::Structure;

fn parse(source: &str) -> Structure {
    CSharp::parse(source.as_bytes(), "src/Shop/Cart.cs").unwrap()
}

#[test]
fn types_members_calls_and_usings() {
    let s = parse(
        r#"using System;
using System.Collections.Generic;
using static System.Math;

namespace Shop.Carts
{
    /// <summary>A customer's cart.</summary>
    public sealed class Cart : IDisposable
    {
        private readonly List<Item> items = new List<Item>();
        public event EventHandler Changed;
        public int Count => items.Count;

        public Cart(string owner) { Owner = owner; }

        public string Owner { get; }

        public void Add(Item item)
        {
            if (item == null) throw new ArgumentNullException(nameof(item));
            items.Add(item);
            Changed?.Invoke(this, EventArgs.Empty);
            Log<Cart>("added");
            int Twice(int x) => x * 2;
        }

        public void Dispose() => items.Clear();
    }

    public interface IPriced { decimal Price(); }
    public record Item(string Name, decimal Price);
    public enum Size { Small, Large }
    public struct Point { public int X, Y; }
    public delegate void Notify(string message);
}
"#,
    );
    assert_eq!(s.language, "csharp");
    assert_eq!(
        s.outline(),
        [
            "Shop.Carts namespace",
            "Shop.Carts.Cart class",
            "Cart.items field",
            "Cart.Changed event",
            "Cart.Count property",
            "Cart.Cart constructor",
            "Cart.Owner property",
            "Cart.Add method",
            "Add.Twice function",
            "Cart.Dispose method",
            "Shop.Carts.IPriced interface",
            "IPriced.Price method",
            "Shop.Carts.Item record",
            "Shop.Carts.Size enum",
            "Size.Small enumerator",
            "Size.Large enumerator",
            "Shop.Carts.Point struct",
            "Point.X field",
            "Point.Y field",
            "Shop.Carts.Notify delegate",
        ]
    );
    let cart = &s.definitions[1];
    assert_eq!(
        cart.doc.as_ref().unwrap().text,
        "<summary>A customer's cart.</summary>"
    );
    assert_eq!(cart.signature, "public sealed class Cart : IDisposable");
    let imports = s.import_names();
    assert_eq!(
        imports,
        ["System", "System.Collections.Generic", "System.Math"]
    );
    let calls = s.call_names();
    for call in [
        "items.Add",
        "Log",
        "ArgumentNullException",
        "List",
        "items.Clear",
    ] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn fsharp_modules_types_functions_members_and_opens() {
    let s = CSharp::parse(
        br#"module Shop.Cart

open System
open Shop.Items

/// A cart.
type Cart = { Items: int list; Owner: string }

type Shape =
    | Circle of float
    | Square of float

let addItem cart item = { cart with Items = item :: cart.Items }

let total (cart: Cart) =
    List.sum cart.Items |> printfn "%d"

let version = "1.0"

type Counter() =
    member this.Incr() = 1

module Checkout =
    let pay c = total c
"#,
        "src/Cart.fs",
    )
    .unwrap();
    assert_eq!(s.language, "fsharp");
    assert_eq!(
        s.outline(),
        [
            "Shop.Cart namespace",
            "Shop.Cart.Cart type",
            "Cart.Items field",
            "Cart.Owner field",
            "Shop.Cart.Shape type",
            "Shape.Circle enumerator",
            "Shape.Square enumerator",
            "Shop.Cart.addItem function",
            "Shop.Cart.total function",
            "Shop.Cart.version value",
            "Shop.Cart.Counter type",
            "Counter.Incr method",
            "Shop.Cart.Checkout module",
            "Checkout.pay method",
        ]
    );
    let cart = s.definitions.iter().find(|d| d.name == "Cart").unwrap();
    assert_eq!(cart.doc.as_ref().map(|d| d.text.as_str()), Some("A cart."));
    assert_eq!(s.import_names(), ["System", "Shop.Items"]);
    let calls = s.call_names();
    for call in ["List.sum", "printfn", "total"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn a_signature_is_the_declaration_not_its_attributes() {
    let s = parse(
        "namespace Shop\n{\n    [Serializable]\n    public class Cart : Base\n    {\n        [Fact]\n        [Trait(\"a\", \"b\")]\n        public void Adds()\n        {\n        }\n    }\n}\n",
    );
    let signature = |name: &str| {
        s.definitions
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.signature.clone())
    };
    assert_eq!(
        signature("Cart").as_deref(),
        Some("public class Cart : Base")
    );
    assert_eq!(signature("Adds").as_deref(), Some("public void Adds()"));
}
