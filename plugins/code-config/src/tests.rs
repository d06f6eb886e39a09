use super::Config;
use sdk::code::Structure;

fn parse(path: &str, source: &str) -> Structure {
    Config::parse(source.as_bytes(), path).unwrap()
}

#[test]
fn nix_bindings_functions_calls_and_imports() {
    let s = parse(
        "nix/shell.nix",
        r#"{ pkgs ? import <nixpkgs> {}, lib, ... }:

let
  # Builds the thing.
  mkThing = name: pkgs.stdenv.mkDerivation {
    inherit name;
    src = ./.;
  };
  helper = import ./helper.nix { inherit lib; };
  tool = pkgs.callPackage ./tool/default.nix { };
in
{
  packages.default = mkThing "x";
  overlay = final: prev: { foo = prev.foo.override { }; };
}
"#,
    );
    assert_eq!(s.language, "nix");
    assert_eq!(
        s.outline(),
        [
            "mkThing function",
            "mkThing.src attribute",
            "helper attribute",
            "tool attribute",
            "packages.default attribute",
            "overlay function",
            "overlay.foo attribute",
        ]
    );
    assert_eq!(s.doc_of("mkThing"), Some("Builds the thing."));
    assert_eq!(s.import_names(), ["./helper.nix", "./tool/default.nix"]);
    let calls = s.call_names();
    for call in [
        "pkgs.mkDerivation",
        "mkThing",
        "prev.override",
        "pkgs.callPackage",
    ] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn terraform_blocks_by_type_and_label() {
    let s = parse(
        "infra/main.tf",
        r#"terraform {
  required_version = ">= 1.0"
}

# The log bucket.
resource "aws_s3_bucket" "logs" {
  bucket = "${var.prefix}-logs"
  tags   = merge(local.tags, { Name = "logs" })
}

variable "prefix" {
  type = string
}

module "vpc" {
  source = "./modules/vpc"
  cidr   = cidrsubnet(var.cidr, 8, 1)
}

data "aws_ami" "ubuntu" { most_recent = true }
output "bucket_arn" { value = aws_s3_bucket.logs.arn }
locals {
  tags = { Team = "x" }
}
provider "aws" { region = "us-east-1" }
job "web" { datacenters = ["dc1"] }
"#,
    );
    assert_eq!(s.language, "hcl");
    assert_eq!(
        s.outline(),
        [
            "aws_s3_bucket.logs resource",
            "prefix variable",
            "vpc module",
            "aws_ami.ubuntu data",
            "bucket_arn output",
            "tags constant",
            "aws provider",
            "web block",
        ]
    );
    assert_eq!(s.doc_of("logs"), Some("The log bucket."));
    assert_eq!(s.import_names(), ["./modules/vpc"]);
    assert_eq!(s.call_names(), ["merge", "cidrsubnet"]);
}

#[test]
fn yaml_sections_three_levels_deep_and_anchors() {
    let s = parse(
        ".github/workflows/ci.yml",
        "# CI\nname: build\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          depth: 1\n  lint: &lint\n    runs-on: ubuntu-latest\n  docs: *lint\n",
    );
    assert_eq!(s.language, "yaml");
    assert_eq!(
        s.outline(),
        [
            "name key",
            "on key",
            "on.push key",
            "push.branches key",
            "jobs key",
            "jobs.test key",
            "test.runs-on key",
            "test.steps key",
            "jobs.lint key",
            "lint.lint anchor",
            "lint.runs-on key",
            "jobs.docs key",
        ]
    );
    assert_eq!(s.call_names(), ["lint"]);
}

#[test]
fn toml_tables_and_keys() {
    let s = parse(
        "Cargo.toml",
        "[package]\nname = \"x\"\n\n[dependencies]\nserde = { version = \"1\" }\n\n[profile.release]\nlto = true\n\n[[bin]]\nname = \"tool\"\n",
    );
    assert_eq!(
        s.outline(),
        [
            "package table",
            "package.name key",
            "dependencies table",
            "dependencies.serde key",
            "profile.release table",
            "profile.release.lto key",
            "bin table",
            "bin.name key",
        ]
    );
}

#[test]
fn json_keys_two_levels_deep_and_lockfiles_left_as_text() {
    let source = r#"{
  "name": "pkg",
  "scripts": { "build": "tsc", "test": "jest" },
  "dependencies": { "a": { "version": "1" } }
}"#;
    let s = parse("package.json", source);
    assert_eq!(
        s.outline(),
        [
            "name key",
            "scripts key",
            "scripts.build key",
            "scripts.test key",
            "dependencies key",
            "dependencies.a key",
        ]
    );
    let lock = parse("package-lock.json", source);
    assert_eq!(lock.language, "json");
    assert!(lock.definitions.is_empty());
}

#[test]
fn dockerfile_stages_and_variables() {
    let s = parse(
        "docker/Dockerfile",
        "# syntax=docker/dockerfile:1\nARG RUST_VERSION=1.80\nFROM rust:${RUST_VERSION} AS builder\nENV CARGO_HOME=/cargo PATH=/x\nRUN cargo build --release\n\nFROM debian:bookworm-slim AS runtime\nCOPY --from=builder /src/app /usr/bin/app\n",
    );
    assert_eq!(s.language, "dockerfile");
    assert_eq!(
        s.outline(),
        [
            "RUST_VERSION variable",
            "builder stage",
            "CARGO_HOME variable",
            "PATH variable",
            "runtime stage",
        ]
    );
}

#[test]
fn makefile_targets_variables_prerequisites_and_includes() {
    let s = parse(
        "Makefile",
        "include config.mk\nCC ?= cc\nSRCS := a.c b.c\n\n## Builds everything.\nall: build test\n\nbuild: $(SRCS) main.o\n\t$(CC) -o app $(SRCS)\n\n.PHONY: test\ntest: build\n\t./app --test\n\ndefine log\n\techo $(1)\nendef\n\n%.o: %.c\n\t$(CC) -c $<\n",
    );
    assert_eq!(s.language, "make");
    assert_eq!(
        s.outline(),
        [
            "CC variable",
            "SRCS variable",
            "all target",
            "build target",
            "test target",
            "log macro",
            "%.o target",
        ]
    );
    assert_eq!(s.doc_of("all"), Some("Builds everything."));
    assert_eq!(s.import_names(), ["config.mk"]);
    assert_eq!(s.call_names(), ["build", "test", "test", "build"]);
}

#[test]
fn cmake_functions_targets_variables_and_includes() {
    let s = parse(
        "CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.16)\ninclude(cmake/Warnings.cmake)\nadd_subdirectory(src)\nset(SOURCES a.c b.c)\noption(WITH_TESTS \"tests\" ON)\n# Adds a test.\nfunction(add_demo_test name)\n  set(local_only 1)\n  add_test(NAME ${name} COMMAND demo)\nendfunction()\nmacro(my_macro)\n  message(STATUS \"x\")\nendmacro()\nadd_library(core STATIC ${SOURCES})\nadd_executable(demo main.c)\nadd_demo_test(smoke)\n",
    );
    assert_eq!(s.language, "cmake");
    assert_eq!(
        s.outline(),
        [
            "SOURCES variable",
            "WITH_TESTS variable",
            "add_demo_test function",
            "my_macro macro",
            "core target",
            "demo target",
        ]
    );
    assert_eq!(s.doc_of("add_demo_test"), Some("Adds a test."));
    assert_eq!(s.import_names(), ["cmake/Warnings.cmake", "src"]);
    assert!(s.call_names().contains(&"add_demo_test".to_string()));
}

#[test]
fn protobuf_messages_services_and_imports() {
    let s = parse(
        "proto/shop/v1/cart.proto",
        "syntax = \"proto3\";\npackage shop.v1;\nimport \"shop/v1/item.proto\";\n\n// A cart.\nmessage Cart {\n  string id = 1;\n  repeated Item items = 2;\n  message Line { int32 qty = 1; }\n  oneof owner { string user = 3; }\n}\n\nenum Status { STATUS_UNSPECIFIED = 0; }\n\nservice CartService {\n  // Gets a cart.\n  rpc GetCart(GetCartRequest) returns (Cart);\n}\n",
    );
    assert_eq!(s.language, "protobuf");
    assert_eq!(
        s.outline(),
        [
            "shop.v1 package",
            "Cart message",
            "Cart.id field",
            "Cart.items field",
            "Cart.Line message",
            "Line.qty field",
            "Cart.owner oneof",
            "owner.user field",
            "Status enum",
            "Status.STATUS_UNSPECIFIED enumerator",
            "CartService service",
            "CartService.GetCart rpc",
        ]
    );
    assert_eq!(s.doc_of("Cart"), Some("A cart."));
    assert_eq!(s.doc_of("GetCart"), Some("Gets a cart."));
    assert_eq!(s.import_names(), ["shop/v1/item.proto"]);
    assert_eq!(s.call_names(), ["Item", "GetCartRequest", "Cart"]);
}

#[test]
fn graphql_types_fields_operations_and_fragments() {
    let s = parse(
        "schema.graphql",
        "\"\"\"A user.\"\"\"\ntype User implements Node {\n  id: ID!\n  posts: [Post!]!\n}\nenum Role { ADMIN }\nquery GetMe { me { ...UserFields } }\nfragment UserFields on User { id }\n",
    );
    assert_eq!(s.language, "graphql");
    assert_eq!(
        s.outline(),
        [
            "User type",
            "User.id field",
            "User.posts field",
            "Role enum",
            "Role.ADMIN enumerator",
            "GetMe operation",
            "UserFields fragment",
        ]
    );
    assert_eq!(s.doc_of("User"), Some("A user."));
    let calls = s.call_names();
    for call in ["Node", "Post", "UserFields", "User"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
}

#[test]
fn other_files_are_refused() {
    let err = Config::parse(b"x", "src/a.rb").unwrap_err();
    assert_eq!(err.code, sdk::codes::UNSUPPORTED);
}

#[test]
fn starlark_targets_functions_and_loads() {
    let s = parse(
        "pkg/BUILD.bazel",
        r#"load("@rules_cc//cc:defs.bzl", "cc_library")
load(":macros.bzl", "my_macro")

# The core library.
cc_library(
    name = "core",
    srcs = ["a.cc"],
    deps = [":util"],
)

def _impl(ctx):
    return [DefaultInfo(files = depset(ctx.files.srcs))]

my_rule = rule(implementation = _impl, attrs = {})
"#,
    );
    assert_eq!(s.language, "starlark");
    assert_eq!(
        s.outline(),
        ["core target", "_impl function", "my_rule variable"]
    );
    assert_eq!(s.doc_of("core"), Some("The core library."));
    assert_eq!(s.import_names(), ["@rules_cc//cc:defs.bzl", ":macros.bzl"]);
    let calls = s.call_names();
    for call in ["cc_library", "DefaultInfo", "depset", "rule"] {
        assert!(calls.contains(&call.to_string()), "{call} in {calls:?}");
    }
    assert_eq!(parse("BUILD", "x = 1\n").language, "starlark");
}
