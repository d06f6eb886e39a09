use super::Swift;

#[test]
fn types_members_calls_and_imports() {
    let s = Swift::parse(
        br#"import Foundation
import UIKit

/// A customer's cart.
final class Cart: Base {
    var items: [Item] = []
    init(owner: String) { self.owner = owner }

    func add(_ item: Item) -> Int {
        guard item.price > 0 else { return 0 }
        items.append(item)
        return compute(items.count)
    }
}

struct Point { let x: Int }
enum Size { case small, large }
protocol Priced { func price() -> Int }
extension Cart: Priced { func price() -> Int { Logger.log("p"); return 1 } }
typealias Carts = [Cart]
func topLevel() { let c = Cart(owner: "x") }
"#,
        "Sources/Shop/Cart.swift",
    )
    .unwrap();
    assert_eq!(s.language, "swift");
    let defs = s.outline();
    for def in [
        "Cart class",
        "Cart.items property",
        "Cart.init constructor",
        "Cart.add method",
        "Point struct",
        "Point.x property",
        "Size enum",
        "Size.small enumerator",
        "Size.large enumerator",
        "Priced interface",
        "Priced.price method",
        "Cart extension",
        "Carts type",
        "topLevel function",
        "Cart.price method",
    ] {
        assert!(defs.contains(&def.to_string()), "{def} in {defs:?}");
    }
    assert!(
        !defs.iter().any(|d| d.starts_with("topLevel.")),
        "a local is no member: {defs:?}"
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().unwrap().text,
        "A customer's cart."
    );
    let imports = s.import_names();
    assert_eq!(imports, ["Foundation", "UIKit"]);
    let calls = s.call_names();
    for call in ["items.append", "compute", "Logger.log", "Cart"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}
