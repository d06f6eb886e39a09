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

#[test]
fn objective_c_classes_methods_properties_and_messages() {
    let s = Swift::parse(
        br#"#import <Foundation/Foundation.h>
#import "Cart.h"

/// A cart.
@interface Cart : NSObject <NSCopying>
@property (nonatomic, strong) NSArray *items;
- (void)addItem:(id)item withCount:(NSInteger)count;
+ (instancetype)cartWithOwner:(NSString *)owner;
@end

@protocol Payable
- (BOOL)pay;
@end

@implementation Cart
/// Adds one.
- (void)addItem:(id)item withCount:(NSInteger)count {
    [self.items addObject:item];
    NSLog(@"%@", item);
    [Helper roundValue:count];
}
@end

enum Color { Red, Green };
static int helper(int a) { return a + 1; }
"#,
        "Sources/Cart.m",
    )
    .unwrap();
    assert_eq!(s.language, "objc");
    assert_eq!(
        s.outline(),
        [
            "Cart class",
            "Cart.items property",
            "Cart.addItem method",
            "Cart.cartWithOwner method",
            "Payable protocol",
            "Payable.pay method",
            "Cart class",
            "Cart.addItem method",
            "Color enum",
            "Color.Red enumerator",
            "Color.Green enumerator",
            "helper function",
        ]
    );
    let add = s.definitions.iter().rfind(|d| d.name == "addItem").unwrap();
    assert_eq!(add.doc.as_ref().map(|d| d.text.as_str()), Some("Adds one."));
    assert_eq!(s.import_names(), ["Foundation/Foundation.h", "Cart.h"]);
    let calls = s.call_names();
    for call in ["self.items.addObject", "NSLog", "Helper.roundValue"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}
