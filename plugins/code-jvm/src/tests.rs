use super::Jvm;

#[test]
fn kotlin_classes_objects_functions_and_imports() {
    let s = Jvm::parse(
        br#"package shop.cart

import kotlin.math.max
import shop.items.Item

/** A customer's cart. */
class Cart(private val owner: String) {
    val items = mutableListOf<Item>()

    fun add(item: Item): Int {
        items.add(item)
        return max(items.size, LIMIT)
    }

    companion object Factory {
        const val LIMIT = 10
        fun empty() = Cart("nobody")
    }
}

object Registry {
    fun lookup(id: Int) = println(id)
}

enum class Size { SMALL, LARGE }

interface Priced {
    fun price(): Int
}

typealias Carts = List<Cart>

fun topLevel() {}
"#,
        "src/main/kotlin/shop/Cart.kt",
    )
    .unwrap();
    assert_eq!(s.language, "kotlin");
    assert_eq!(
        s.outline(),
        [
            "shop.cart package",
            "Cart class",
            "Cart.owner property",
            "Cart.items property",
            "Cart.add method",
            "Cart.Factory object",
            "Factory.LIMIT property",
            "Factory.empty method",
            "Registry object",
            "Registry.lookup method",
            "Size class",
            "Size.SMALL enumerator",
            "Size.LARGE enumerator",
            "Priced class",
            "Priced.price method",
            "Carts type",
            "topLevel function",
        ]
    );
    assert_eq!(
        s.definitions[1].doc.as_ref().unwrap().text,
        "A customer's cart."
    );
    let imports = s.import_names();
    assert_eq!(imports, ["kotlin.math.max", "shop.items.Item"]);
    let calls = s.call_names();
    for call in ["items.add", "max", "Cart", "println", "mutableListOf"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn scala_classes_objects_traits_and_imports() {
    let s = Jvm::parse(
        br#"package shop

import scala.collection.mutable
import shop.items.{Item, Price}

/** A customer's cart. */
class Cart(owner: String) extends Base {
  val items = mutable.ListBuffer[Item]()
  def add(item: Item): Int = {
    items.append(item)
    compute(items.size)
  }
}

object Cart {
  def empty: Cart = new Cart("nobody")
}

trait Priced { def price: Int }
case class Point(x: Int, y: Int)
enum Size { case Small, Large }
type Carts = List[Cart]
"#,
        "src/main/scala/shop/Cart.scala",
    )
    .unwrap();
    assert_eq!(s.language, "scala");
    let defs = s.outline();
    for def in [
        "shop package",
        "Cart class",
        "Cart.items value",
        "Cart.add method",
        "Cart object",
        "Cart.empty method",
        "Priced trait",
        "Priced.price method",
        "Point class",
        "Size enum",
        "Carts type",
    ] {
        assert!(defs.contains(&def.to_string()), "{def} in {defs:?}");
    }
    assert_eq!(
        s.definitions
            .iter()
            .find(|d| d.kind == "class")
            .and_then(|d| d.doc.as_ref())
            .map(|d| d.text.as_str()),
        Some("A customer's cart.")
    );
    let imports = s.import_names();
    assert_eq!(
        imports,
        ["scala.collection.mutable", "shop.items.{Item, Price}"]
    );
    let calls = s.call_names();
    for call in ["items.append", "compute", "Cart"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn groovy_classes_methods_fields_closures_and_calls() {
    let s = Jvm::parse(
        br#"package build

import groovy.transform.CompileStatic

/** A person. */
@CompileStatic
class Person {
    String name
    private List<String> tags = []

    def greet(String other) {
        helper.doWork(1)
        return compute(other)
    }

    static int compute(String s) { s.size() }
}

interface Shape { double area() }
enum Color { RED, GREEN }

def topLevel(x) {
    x.each { println it }
}

def twice = { x -> x * 2 }
"#,
        "src/main/groovy/build/Person.groovy",
    )
    .unwrap();
    assert_eq!(s.language, "groovy");
    assert_eq!(
        s.outline(),
        [
            "Person class",
            "Person.name field",
            "Person.tags field",
            "Person.greet method",
            "Person.compute method",
            "Shape interface",
            "Shape.area method",
            "Color enum",
            "Color.RED enumerator",
            "Color.GREEN enumerator",
            "topLevel function",
            "twice function",
        ]
    );
    assert_eq!(
        s.definitions[0].doc.as_ref().map(|d| d.text.as_str()),
        Some("A person.")
    );
    assert_eq!(s.import_names(), ["groovy.transform.CompileStatic"]);
    let calls = s.call_names();
    for call in ["helper.doWork", "compute", "x.each", "println", "s.size"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn a_kotlin_signature_is_the_declaration_not_its_annotations() {
    let s = Jvm::parse(
        b"package shop\n\n@Serializable\nclass Cart : Base() {\n    @Test\n    @Suppress(\"x\")\n    fun adds(): Int = 1\n}\n",
        "src/test/kotlin/shop/CartTest.kt",
    )
    .unwrap();
    let signature = |name: &str| {
        s.definitions
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.signature.clone())
    };
    assert_eq!(signature("Cart").as_deref(), Some("class Cart : Base()"));
    assert_eq!(signature("adds").as_deref(), Some("fun adds(): Int = 1"));
}
