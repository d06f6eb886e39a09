//! Languages brought by code-parser components: Ruby, PHP, C#, F#, Bash, Lua, Kotlin, Scala,
//! Groovy, Swift, Objective-C, Elixir, Erlang, Haskell, OCaml, Clojure, Elm, Zig, R, Dart,
//! Solidity, SQL, CSS, Nix, Terraform and Starlark files, and the structure of YAML, TOML,
//! JSON, Dockerfile, Makefile, CMake, Protocol Buffers and GraphQL files, indexed through the
//! built-in `code_*` components (real wasm, in the sandbox, over MCP through rmcp's client);
//! and Vue and Svelte components, whose scripts the host reads itself. Found by explore,
//! outlined and linked by understand, and kept right as the files change.

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
    // `using Shop.Services` names the files declaring that namespace, wherever they sit; a
    // file named like the namespace's last segment is not one of them.
    fx.write(
        "Web/Checkout.cs",
        "using Shop.Services;\n\nnamespace Shop.Web;\n\npublic class Checkout\n{\n    public decimal Pay() => new BillingService().ChargeCustomer(1m);\n}\n",
    );
    fx.write(
        "Legacy/Services.cs",
        "namespace Legacy\n{\n    public class OldBilling { }\n}\n",
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

/// explore's first code hit for each `(query, path, title)`: the definition, found by name.
async fn assert_found(client: &common::Client, cases: &[(&str, &str, &str)]) {
    for (query, path, title) in cases {
        let found = structured(&call(client, "explore", json!({ "query": query })).await);
        let hit = &found["data"]["code"][0];
        assert_eq!(hit["filePath"], *path, "{query}: {found:#}");
        assert_eq!(hit["title"], *title, "{query}: {found:#}");
    }
}

/// understand names each `(importer, imported)` pair's importer among the files that depend
/// on the imported one: the import resolved to that file.
async fn assert_imported(client: &common::Client, pairs: &[(&str, &str)]) {
    for (importer, imported) in pairs {
        let r = structured(
            &call(
                client,
                "understand",
                json!({ "goal": "who depends on it", "path": imported }),
            )
            .await,
        );
        let dependents: Vec<&Value> = r["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["type"] == "dependent")
            .map(|d| &d["from"])
            .collect();
        assert!(
            dependents.iter().any(|from| *from == importer),
            "{importer} imports {imported}: {r:#}"
        );
    }
}

#[tokio::test]
async fn component_languages_are_found_outlined_and_linked() {
    let fx = fixture();
    let client = connect(&fx).await;

    // explore finds a definition by its name, in each language.
    assert_found(
        &client,
        &[
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
        ],
    )
    .await;

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
    assert_imported(
        &client,
        &[
            ("src/Http/Controller.php", "src/Models/User.php"),
            ("lib/shop/cart.rb", "lib/shop/item.rb"),
            ("game/player.lua", "game/vector.lua"),
            ("scripts/deploy.sh", "scripts/common.sh"),
            (
                "app/src/main/kotlin/shop/Checkout.kt",
                "app/src/main/kotlin/shop/items/Item.kt",
            ),
            ("Web/Checkout.cs", "Services/Billing.cs"),
        ],
    )
    .await;
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who depends on it", "path": "Legacy/Services.cs" }),
        )
        .await,
    );
    assert!(
        !r["dependencies"].to_string().contains("Web/Checkout.cs"),
        "{r:#}"
    );

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

fn configuration_fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "app/lib/src/cart.dart",
        "import 'item.dart';\n\n/// A cart.\nclass ShoppingCart {\n  int tallyReceipt(Item i) => i.cents();\n}\n",
    );
    fx.write(
        "app/lib/src/item.dart",
        "class Item {\n  int cents() => 1;\n}\n",
    );
    fx.write(
        "contracts/Vault.sol",
        "pragma solidity ^0.8.0;\nimport \"./Math.sol\";\ncontract Vault {\n    function withdrawEverything() external {}\n}\n",
    );
    fx.write("contracts/Math.sol", "library Math {}\n");
    fx.write(
        "infra/main.tf",
        "module \"network\" {\n  source = \"./modules/network\"\n}\n\nresource \"aws_s3_bucket\" \"audit_trail\" {\n  bucket = \"x\"\n}\n",
    );
    fx.write(
        "infra/modules/network/main.tf",
        "variable \"cidr_block\" {\n  type = string\n}\n",
    );
    fx.write(
        "nix/default.nix",
        "let\n  tool = import ./tool;\n  buildFrobnicator = name: tool.mk name;\nin buildFrobnicator \"x\"\n",
    );
    fx.write("nix/tool/default.nix", "{ mk = n: n; }\n");
    fx.write(
        "CMakeLists.txt",
        "add_subdirectory(engine)\nfunction(register_plugin_target name)\nendfunction()\n",
    );
    fx.write(
        "engine/CMakeLists.txt",
        "add_library(engine_core STATIC a.c)\n",
    );
    fx.write(
        "Makefile",
        "release_bundle: compile\n\tzip out.zip app\n\ncompile:\n\tcc -o app a.c\n",
    );
    fx.write(
        "Dockerfile",
        "FROM rust:1 AS toolchain_stage\nRUN cargo build\n",
    );
    fx.write(
        "proto/shop/v1/cart.proto",
        "syntax = \"proto3\";\nimport \"shop/v1/money.proto\";\nmessage BasketSnapshot {\n  Money total = 1;\n}\n",
    );
    fx.write(
        "proto/shop/v1/money.proto",
        "syntax = \"proto3\";\nmessage Money { int64 cents = 1; }\n",
    );
    fx.write("schema.graphql", "type InvoiceLedger {\n  id: ID!\n}\n");
    fx.write(
        ".github/workflows/ci.yml",
        "jobs:\n  nightly_regression:\n    runs-on: ubuntu-latest\n",
    );
    fx.write(
        "lib/ledger.ml",
        "open Cart_item\n\nlet reconcile_ledger entries = List.length entries\n",
    );
    fx.write("lib/cart_item.ml", "let price = 1\n");
    fx.write(
        "src/shop/audit.clj",
        "(ns shop.audit\n  (:require [shop.cart-item :as item]))\n\n(defn summarize-audit [x] (item/price x))\n",
    );
    fx.write(
        "src/shop/cart_item.clj",
        "(ns shop.cart-item)\n(defn price [x] x)\n",
    );
    fx.write(
        "Sources/Wallet.m",
        "#import \"Wallet.h\"\n@implementation Wallet\n- (void)depositCoins:(int)n {\n}\n@end\n",
    );
    fx.write(
        "db/schema.sql",
        "CREATE TABLE invoice_lines (\n  id INT\n);\n",
    );
    fx.write(
        "src/Billing.fs",
        "module Billing\n\nlet computeInvoiceTotal x = x\n",
    );
    fx.write(
        "src/Invoice.fs",
        "module Invoice\n\nopen Billing\n\nlet send x = computeInvoiceTotal x\n",
    );
    fx.write(
        "frontend/src/Page.elm",
        "module Page exposing (viewCheckoutPage)\n\nviewCheckoutPage model = model\n",
    );
    fx.write(
        "tools/BUILD",
        "load(\":defs.bzl\", \"pkg\")\n\npkg(name = \"release_tarball\")\n",
    );
    fx.write("tools/defs.bzl", "def pkg(name):\n    pass\n");
    fx.write("web/src/site.css", ".checkout-summary { color: red; }\n");
    fx.write(
        "src/main/groovy/Deployer.groovy",
        "class Deployer {\n    def rollForwardRelease() {\n        println 'go'\n    }\n}\n",
    );
    fx.write(
        "web/src/utils/price.ts",
        "export function formatPrice(n: number): string {\n  return `${n}`;\n}\n",
    );
    fx.write(
        "web/src/components/Cart.vue",
        "<template>\n  <button @click=\"checkoutCart\">Pay</button>\n</template>\n\n<script setup lang=\"ts\">\nimport { formatPrice } from '../utils/price'\n\nfunction checkoutCart() {\n  return formatPrice(1)\n}\n</script>\n\n<style>\nbutton { color: red; }\n</style>\n",
    );
    fx.write(
        "web/src/components/Badge.svelte",
        "<script>\n  import { formatPrice } from '../utils/price';\n  export let amount = 0;\n  function renderBadgeLabel() { return formatPrice(amount); }\n</script>\n\n<span>{renderBadgeLabel()}</span>\n",
    );
    // A page's inline script is JavaScript; a template or data block in a script tag is
    // not, and a page with no script at all stays text.
    fx.write(
        "web/public/index.html",
        "<!doctype html>\n<html>\n<head>\n<script type=\"text/x-template\" id=\"row\">function notCode() {}</script>\n<script type=\"application/ld+json\">{\"name\": \"shop\"}</script>\n</head>\n<body>\n<script>\nfunction bootDashboard() {\n  return formatPrice(2);\n}\n</script>\n</body>\n</html>\n",
    );
    fx.write(
        "web/public/about.html",
        "<html><body><p>Opening hours of the harbour warehouse</p></body></html>\n",
    );
    fx
}

#[tokio::test]
async fn configuration_build_and_component_files_are_structured() {
    let fx = configuration_fixture();
    let client = connect(&fx).await;

    assert_found(
        &client,
        &[
            (
                "tallyReceipt",
                "app/lib/src/cart.dart",
                "ShoppingCart::tallyReceipt",
            ),
            (
                "withdrawEverything",
                "contracts/Vault.sol",
                "Vault::withdrawEverything",
            ),
            ("audit_trail", "infra/main.tf", "aws_s3_bucket::audit_trail"),
            ("buildFrobnicator", "nix/default.nix", "buildFrobnicator"),
            (
                "register_plugin_target",
                "CMakeLists.txt",
                "register_plugin_target",
            ),
            ("release_bundle", "Makefile", "release_bundle"),
            ("toolchain_stage", "Dockerfile", "toolchain_stage"),
            (
                "BasketSnapshot",
                "proto/shop/v1/cart.proto",
                "BasketSnapshot",
            ),
            ("InvoiceLedger", "schema.graphql", "InvoiceLedger"),
            (
                "nightly_regression",
                ".github/workflows/ci.yml",
                "jobs::nightly_regression",
            ),
            (
                "checkoutCart",
                "web/src/components/Cart.vue",
                "checkoutCart",
            ),
            (
                "renderBadgeLabel",
                "web/src/components/Badge.svelte",
                "renderBadgeLabel",
            ),
            ("bootDashboard", "web/public/index.html", "bootDashboard"),
            ("reconcile_ledger", "lib/ledger.ml", "reconcile_ledger"),
            ("summarize-audit", "src/shop/audit.clj", "summarize-audit"),
            ("depositCoins", "Sources/Wallet.m", "Wallet::depositCoins"),
            ("invoice_lines", "db/schema.sql", "invoice_lines"),
            (
                "computeInvoiceTotal",
                "src/Billing.fs",
                "Billing::computeInvoiceTotal",
            ),
            (
                "viewCheckoutPage",
                "frontend/src/Page.elm",
                "viewCheckoutPage",
            ),
            ("release_tarball", "tools/BUILD", "release_tarball"),
            ("checkout-summary", "web/src/site.css", ".checkout-summary"),
            (
                "rollForwardRelease",
                "src/main/groovy/Deployer.groovy",
                "Deployer::rollForwardRelease",
            ),
        ],
    )
    .await;

    // CMakeLists.txt is CMake by its whole name, though the text parser reads .txt files.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "build", "path": "CMakeLists.txt" }),
        )
        .await,
    );
    assert_eq!(
        outline(&r),
        [(
            "function".into(),
            "register_plugin_target".into(),
            Value::Null
        )],
        "{r:#}"
    );
    // A Vue component is outlined from its script; the markup stays searchable.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "cart", "path": "web/src/components/Cart.vue" }),
        )
        .await,
    );
    assert_eq!(
        outline(&r),
        [("function".into(), "checkoutCart".into(), Value::Null)],
        "{r:#}"
    );
    let found = structured(&call(&client, "explore", json!({ "query": "button color red" })).await);
    assert!(found.to_string().contains("Cart.vue"), "{found:#}");
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "page", "path": "web/public/index.html" }),
        )
        .await,
    );
    assert_eq!(
        outline(&r),
        [("function".into(), "bootDashboard".into(), Value::Null)],
        "{r:#}"
    );
    assert_eq!(r["facts"]["language"], "html", "{r:#}");
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "page", "path": "web/public/about.html" }),
        )
        .await,
    );
    assert_eq!(r["facts"]["kind"], "text", "{r:#}");
    let found = structured(
        &call(
            &client,
            "explore",
            json!({ "query": "harbour warehouse opening hours" }),
        )
        .await,
    );
    assert!(found.to_string().contains("about.html"), "{found:#}");

    assert_imported(
        &client,
        &[
            ("app/lib/src/cart.dart", "app/lib/src/item.dart"),
            ("contracts/Vault.sol", "contracts/Math.sol"),
            ("infra/main.tf", "infra/modules/network/main.tf"),
            ("nix/default.nix", "nix/tool/default.nix"),
            ("CMakeLists.txt", "engine/CMakeLists.txt"),
            ("proto/shop/v1/cart.proto", "proto/shop/v1/money.proto"),
            ("web/src/components/Cart.vue", "web/src/utils/price.ts"),
            ("lib/ledger.ml", "lib/cart_item.ml"),
            ("src/shop/audit.clj", "src/shop/cart_item.clj"),
            ("tools/BUILD", "tools/defs.bzl"),
            ("src/Invoice.fs", "src/Billing.fs"),
        ],
    )
    .await;

    // Components call into TypeScript: both are callers of formatPrice.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who calls it", "path": "web/src/utils/price.ts", "symbol": "formatPrice" }),
        )
        .await,
    );
    let graph = r["callGraph"].to_string();
    for caller in ["Cart.vue", "Badge.svelte", "index.html"] {
        assert!(graph.contains(caller), "{caller}: {r:#}");
    }
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

/// The index follows what reads its files, not only the files: a language component added
/// on the second day reads the files it claims (text the day before) though none of them
/// changed, and once removed gives them back to text, so either way the answers are a fresh
/// build's; with the same parsers again, nothing is read twice. (A newer build with more
/// built-in languages is the same case: other readers than the last pass had.)
#[tokio::test]
async fn files_are_read_again_when_what_reads_them_changes() {
    let fx = Fixture::new();
    fx.write(
        "rules/billing.house",
        "use rules/common.house\nrule charge_monthly_fee\ncall round_cents\n",
    );
    fx.write("rules/common.house", "rule round_cents\n");
    let without = "";
    let with = format!(
        "plugin_dirs = [{:?}]\n\n[plugin.house]\ngrants = [\"log\"]\n",
        common::TEST_PLUGINS
    );
    let index = |config: &str| {
        fx.operator_config(config);
        let (ok, report) = common::json_report(&mut fx.command(&["index", "--json"]));
        assert!(ok, "{report:#}");
        report
    };
    // explore's first hit for a definition's name, and understand's outline of its file
    // (None when the file has no structure) and of the files that use the other.
    async fn answers(fx: &Fixture) -> Vec<Value> {
        let client = connect(fx).await;
        let found =
            structured(&call(&client, "explore", json!({ "query": "charge_monthly_fee" })).await);
        let outline = structured(
            &call(
                &client,
                "understand",
                json!({ "goal": "outline", "path": "rules/billing.house" }),
            )
            .await,
        );
        let users = structured(
            &call(
                &client,
                "understand",
                json!({ "goal": "who uses it", "path": "rules/common.house" }),
            )
            .await,
        );
        client.cancel().await.unwrap();
        vec![
            found["data"]["code"][0]["title"].clone(),
            outline["outline"].clone(),
            json!(users.to_string().contains("rules/billing.house")),
        ]
    }

    let first = index(without);
    assert_eq!(first["indexed"]["text"], 2, "{first:#}");
    let day_one = answers(&fx).await;
    assert_ne!(day_one[0], "charge_monthly_fee", "{day_one:?}");
    assert_eq!(day_one[1], Value::Null, "{day_one:?}");
    assert_eq!(day_one[2], false, "{day_one:?}");

    // Day two: the house language, over the same files.
    let second = index(&with);
    assert_eq!(second["readersChanged"], true, "{second:#}");
    assert_eq!(second["indexed"], json!({ "code": 2 }), "{second:#}");
    let day_two = answers(&fx).await;
    assert_eq!(day_two[0], "charge_monthly_fee", "{day_two:?}");
    assert_eq!(
        day_two[1],
        json!([{
            "kind": "rule",
            "name": "charge_monthly_fee",
            "signature": "rule charge_monthly_fee",
            "startLine": 2,
            "endLine": 2,
        }]),
        "{day_two:?}"
    );
    assert_eq!(day_two[2], true, "{day_two:?}");
    // The same parsers again: nothing is read again.
    let again = index(&with);
    assert!(again.get("readersChanged").is_none(), "{again:#}");
    assert_eq!(again["indexed"], json!({}), "{again:#}");

    // A fresh build of the same files answers the same.
    let fresh = Fixture::new();
    for path in ["rules/billing.house", "rules/common.house"] {
        fresh.write(path, &fx.read(path).unwrap());
    }
    fresh.operator_config(&with);
    assert_eq!(answers(&fresh).await, day_two);

    // Day three: the language is gone again, and its files are text again.
    let third = index(without);
    assert_eq!(third["readersChanged"], true, "{third:#}");
    assert_eq!(third["indexed"], json!({ "text": 2 }), "{third:#}");
    assert_eq!(answers(&fx).await, day_one);
}
