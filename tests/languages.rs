//! Languages brought by code-parser components: Ruby, PHP, C#, Bash, Lua, Kotlin, Scala,
//! Swift, Elixir, Erlang, Haskell, Zig and R files indexed through the built-in `code_*`
//! components (real wasm, in the sandbox,
//! over MCP through rmcp's client), found by explore, outlined and linked by understand, and
//! kept right as the files change.

mod common;

use common::{Fixture, call, connect, structured};
use serde_json::{Value, json};

fn fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "lib/shop/cart.rb",
        "require_relative \"item\"\n\nmodule Shop\n  # A customer's cart of items.\n  class Cart\n    def add_item(item)\n      @items << item\n      item.price_in_cents\n    end\n  end\nend\n",
    );
    fx.write(
        "lib/shop/item.rb",
        "module Shop\n  class Item\n    def price_in_cents\n      100\n    end\n  end\nend\n",
    );
    fx.write(
        "src/Models/User.php",
        "<?php\nnamespace App\\Models;\n\nclass User\n{\n    public function greetWarmly(): string { return 'hi'; }\n}\n",
    );
    fx.write(
        "src/Http/Controller.php",
        "<?php\nnamespace App\\Http;\n\nuse App\\Models\\User;\n\nclass Controller\n{\n    public function show(): string\n    {\n        $user = new User();\n        return $user->greetWarmly();\n    }\n}\n",
    );
    fx.write(
        "Services/Billing.cs",
        "namespace Shop.Services\n{\n    /// <summary>Charges customers.</summary>\n    public class BillingService\n    {\n        public decimal ChargeCustomer(decimal amount) => amount;\n    }\n}\n",
    );
    fx.write(
        "scripts/deploy.sh",
        "#!/bin/sh\nsource ./common.sh\n\nrollout_release() {\n  announce \"go\"\n}\n",
    );
    fx.write("scripts/common.sh", "announce() {\n  echo \"$1\"\n}\n");
    fx.write(
        "game/player.lua",
        "local vector = require(\"game.vector\")\nlocal M = {}\nfunction M.walk(dx)\n  return vector.scale(dx, 2)\nend\nreturn M\n",
    );
    fx.write(
        "app/src/main/kotlin/shop/Checkout.kt",
        "package shop\n\nimport shop.items.Item\n\nclass Checkout {\n    fun settleInvoice(item: Item): Int {\n        return item.cost()\n    }\n}\n",
    );
    fx.write(
        "app/src/main/kotlin/shop/items/Item.kt",
        "package shop.items\n\nclass Item {\n    fun cost(): Int = 1\n}\n",
    );
    fx.write(
        "core/src/main/scala/shop/Ledger.scala",
        "package shop\n\nobject Ledger {\n  def reconcileAccounts(n: Int): Int = n\n}\n",
    );
    fx.write(
        "Sources/Shop/Basket.swift",
        "import Foundation\n\n/// A basket of goods.\nstruct Basket {\n    func weighContents() -> Int { return 0 }\n}\n",
    );
    fx.write(
        "lib/plug/router.ex",
        "defmodule Plug.Router do\n  def dispatch_request(conn), do: conn\nend\n",
    );
    fx.write(
        "src/cowboy_req.erl",
        "-module(cowboy_req).\n\nparse_header_value(V) -> V.\n",
    );
    fx.write(
        "src/Hakyll/Rules.hs",
        "module Hakyll.Rules where\n\ncompileTemplates :: Int -> Int\ncompileTemplates n = n\n",
    );
    fx.write(
        "src/alloc.zig",
        "pub fn reserveCapacity(n: usize) usize {\n    return n;\n}\n",
    );
    fx.write("R/glue.R", "interpolate_strings <- function(x) {\n  x\n}\n");
    fx.write(
        "game/vector.lua",
        "local V = {}\nfunction V.scale(v, k)\n  return v * k\nend\nreturn V\n",
    );
    fx
}

/// `(kind, name, container)` of every entry of understand's outline of `path`.
fn outline(r: &Value) -> Vec<(String, String, Value)> {
    r["outline"]
        .as_array()
        .unwrap_or_else(|| panic!("no outline: {r:#}"))
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().into(),
                e["name"].as_str().unwrap().into(),
                e["container"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn component_languages_are_found_outlined_and_linked() {
    let fx = fixture();
    let client = connect(&fx).await;

    // explore finds a definition by its name, in each language.
    for (query, path, title) in [
        ("add_item", "lib/shop/cart.rb", "Cart::add_item"),
        ("greetWarmly", "src/Models/User.php", "User::greetWarmly"),
        (
            "ChargeCustomer",
            "Services/Billing.cs",
            "BillingService::ChargeCustomer",
        ),
        ("rollout_release", "scripts/deploy.sh", "rollout_release"),
        ("walk", "game/player.lua", "M::walk"),
        (
            "settleInvoice",
            "app/src/main/kotlin/shop/Checkout.kt",
            "Checkout::settleInvoice",
        ),
        (
            "reconcileAccounts",
            "core/src/main/scala/shop/Ledger.scala",
            "Ledger::reconcileAccounts",
        ),
        (
            "weighContents",
            "Sources/Shop/Basket.swift",
            "Basket::weighContents",
        ),
        (
            "dispatch_request",
            "lib/plug/router.ex",
            "Router::dispatch_request",
        ),
        (
            "parse_header_value",
            "src/cowboy_req.erl",
            "parse_header_value",
        ),
        (
            "compileTemplates",
            "src/Hakyll/Rules.hs",
            "compileTemplates",
        ),
        ("reserveCapacity", "src/alloc.zig", "reserveCapacity"),
        ("interpolate_strings", "R/glue.R", "interpolate_strings"),
    ] {
        let found = structured(&call(&client, "explore", json!({ "query": query })).await);
        let hit = &found["data"]["code"][0];
        assert_eq!(hit["filePath"], path, "{query}: {found:#}");
        assert_eq!(hit["title"], title, "{query}: {found:#}");
    }

    // understand outlines a file of each.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "cart", "path": "lib/shop/cart.rb" }),
        )
        .await,
    );
    assert_eq!(
        outline(&r),
        [
            ("module".into(), "Shop".into(), Value::Null),
            ("class".into(), "Cart".into(), json!("Shop")),
            ("method".into(), "add_item".into(), json!("Cart")),
        ],
        "{r:#}"
    );
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "billing", "path": "Services/Billing.cs" }),
        )
        .await,
    );
    let names: Vec<String> = outline(&r).into_iter().map(|(_, n, _)| n).collect();
    assert_eq!(names, ["Shop.Services", "BillingService", "ChargeCustomer"]);

    // Imports resolve to files (PHP `use` by PSR-4, Ruby require_relative, Lua require, shell
    // source): the dependency graph and importers see them.
    for (importer, imported) in [
        ("src/Http/Controller.php", "src/Models/User.php"),
        ("lib/shop/cart.rb", "lib/shop/item.rb"),
        ("game/player.lua", "game/vector.lua"),
        ("scripts/deploy.sh", "scripts/common.sh"),
        (
            "app/src/main/kotlin/shop/Checkout.kt",
            "app/src/main/kotlin/shop/items/Item.kt",
        ),
    ] {
        let r = structured(
            &call(
                &client,
                "understand",
                json!({ "goal": "who depends on it", "path": imported }),
            )
            .await,
        );
        assert!(
            r.to_string().contains(importer),
            "{importer} imports {imported}: {r:#}"
        );
    }

    // A call links its callee: PHP's `$user->greetWarmly()` on a `new User()`.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who calls it", "path": "src/Models/User.php", "symbol": "User.greetWarmly" }),
        )
        .await,
    );
    assert!(
        r["callGraph"]
            .to_string()
            .contains("src/Http/Controller.php"),
        "{r:#}"
    );
    client.cancel().await.unwrap();
}

/// After edits the index answers as a fresh build of the same files would: a renamed
/// definition is found by its new name only, a removed file is gone.
#[tokio::test]
async fn component_languages_follow_edits() {
    let fx = fixture();
    let client = connect(&fx).await;
    let found = structured(&call(&client, "explore", json!({ "query": "add_item" })).await);
    assert_eq!(found["data"]["code"][0]["filePath"], "lib/shop/cart.rb");
    fx.write(
        "lib/shop/cart.rb",
        "module Shop\n  class Cart\n    def put_into_basket(item)\n    end\n  end\nend\n",
    );
    std::fs::remove_file(fx.path().join("game/vector.lua")).unwrap();
    let r = structured(&call(&client, "manage", json!({ "command": "rebuild" })).await);
    assert_ne!(r["success"], false, "{r:#}");
    let found = structured(&call(&client, "explore", json!({ "query": "put_into_basket" })).await);
    assert_eq!(
        found["data"]["code"][0]["title"], "Cart::put_into_basket",
        "{found:#}"
    );
    let stale = structured(&call(&client, "explore", json!({ "query": "add_item" })).await);
    assert!(!stale.to_string().contains("Cart::add_item"), "{stale:#}");
    let gone = structured(&call(&client, "explore", json!({ "query": "scale" })).await);
    assert!(!gone.to_string().contains("game/vector.lua"), "{gone:#}");
    client.cancel().await.unwrap();
}

/// A third party's language, loaded from the operator's plugin directory with nothing but
/// `log` granted: its definitions, imports and calls reach explore and understand like a
/// built-in language's. Its run past the deadline on one content is stopped, the file is
/// indexed as text, and the same content elsewhere is not run again.
#[tokio::test]
async fn a_third_party_code_parser_brings_a_language_and_its_failures_cost_once() {
    let fx = Fixture::new();
    fx.operator_config(&format!(
        "plugin_dirs = [{:?}]\n\n[limits]\ntimeout_ms = 2000\n\n[plugin.house]\ngrants = [\"log\"]\n",
        common::TEST_PLUGINS
    ));
    fx.write(
        "rules/billing.house",
        "use rules/common.house\nrule charge_monthly_fee\ncall round_cents\n",
    );
    fx.write("rules/common.house", "rule round_cents\n");
    fx.write("rules/broken.house", "rule never_seen\nspin forever\n");
    let out = fx.command(&["index", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["failed"]["DEADLINE_EXCEEDED"], 1, "{report:#}");
    assert!(
        report["warnings"]
            .to_string()
            .contains("rules/broken.house"),
        "{report:#}"
    );

    // The same content under another name: the remembered failure answers at once.
    fx.write("rules/copy.house", "rule never_seen\nspin forever\n");
    let out = fx.command(&["index", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["warnings"]
            .to_string()
            .contains("not run on it again"),
        "{report:#}"
    );

    let client = connect(&fx).await;
    let found =
        structured(&call(&client, "explore", json!({ "query": "charge_monthly_fee" })).await);
    let hit = &found["data"]["code"][0];
    assert_eq!(hit["filePath"], "rules/billing.house", "{found:#}");
    assert_eq!(hit["title"], "charge_monthly_fee", "{found:#}");
    // What the parser could not read is still found, as text.
    let found = structured(&call(&client, "explore", json!({ "query": "spin forever" })).await);
    assert!(
        found.to_string().contains("rules/broken.house"),
        "{found:#}"
    );
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "rules", "path": "rules/billing.house" }),
        )
        .await,
    );
    assert_eq!(
        outline(&r),
        [("rule".into(), "charge_monthly_fee".into(), Value::Null)],
        "{r:#}"
    );
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who uses it", "path": "rules/common.house" }),
        )
        .await,
    );
    assert!(r.to_string().contains("rules/billing.house"), "{r:#}");
    client.cancel().await.unwrap();
}
