//! The role a file plays in its project: source, test, changelog, or generated/vendored. The
//! one place that decides it, for the ranking (tests and generated files after the code they
//! describe), the graphs' hot spots and overviews (source only), and the tools (`change`'s
//! impact lists the tests of an edit through the `file-roles` host function).
//!
//! Tests are recognised by the project's conventions, not by a word in a path alone: a file
//! named as a test (`test_x.py`, `x_test.go`, `x.spec.ts`, `XTest.java`, `conftest.py`) is
//! one; a file in a directory named like a test directory (`tests`, `test`, `spec`,
//! `x_tests`, ...) is one when that directory is a test root: at the top of the project or of
//! one of its packages (`tests/`, `test/`: cargo's and mocha's place, whatever the files are
//! named; a package is a directory with a manifest), Maven's and Gradle's `src/test`, named
//! only tests ever use (`__tests__`, `testdata`, `__snapshots__`), or holding files named as
//! tests somewhere below. So Django's `django/test/` package (the test framework, no `test_*.py`
//! in it) is source, while its top-level `tests/` (fixtures and templates too) is tests.

use std::collections::HashSet;

/// Where a file sits, by convention: what the ranking demotes and says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Source,
    Test,
    Changelog,
    Generated,
}

impl Role {
    /// The name tools see (`file-roles`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Source => "source",
            Role::Test => "test",
            Role::Changelog => "changelog",
            Role::Generated => "generated",
        }
    }
}

/// Directory names of vendored or generated trees (built documentation, coverage pages).
const GENERATED_DIRS: &[&str] = &[
    "vendor",
    "vendored",
    "third_party",
    "thirdparty",
    "node_modules",
    "_vendor",
    "_build",
    "htmlcov",
    "lcov-report",
];

const CHANGELOG_STEMS: &[&str] = &[
    "changelog",
    "changes",
    "history",
    "news",
    "release-notes",
    "releasenotes",
    "whatsnew",
];

const CHANGELOG_DIRS: &[&str] = &[
    "releases",
    "release-notes",
    "release_notes",
    "changelog",
    "changelogs",
    "whatsnew",
    "whats_new",
    "prev_whats_new",
    "prev_api_changes",
    "news",
];

/// Directories only tests have, wherever they are.
const TEST_ONLY_DIRS: &[&str] = &[
    "__tests__",
    "__snapshots__",
    "__fixtures__",
    "testdata",
    "test_data",
];

/// Files that make their directory the top of a package (a workspace member, a monorepo's
/// package): a test directory right under one is that package's tests.
const MANIFESTS: &[&str] = &[
    "package.json",
    "cargo.toml",
    "pyproject.toml",
    "setup.py",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "gemfile",
];

/// The project's test roots, learned from its files (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Roles {
    /// Directories named like test directories with files named as tests below them.
    roots: HashSet<String>,
    /// Directories holding a package manifest.
    packages: HashSet<String>,
}

impl Roles {
    /// The conventions of a project with these files (every path, relative to the root).
    pub fn from_paths<'a>(paths: impl IntoIterator<Item = &'a str>) -> Self {
        let mut roots = HashSet::new();
        let mut packages = HashSet::new();
        for path in paths {
            let lower = path.to_lowercase();
            let parts: Vec<&str> = lower.split('/').collect();
            let (file, dirs) = parts.split_last().unwrap_or((&"", &[]));
            if MANIFESTS.contains(file) && !dirs.is_empty() {
                packages.insert(dirs.join("/"));
            }
            if !named_as_test(path.rsplit('/').next().unwrap_or(path)) {
                continue;
            }
            for (i, dir) in dirs.iter().enumerate() {
                if test_dir_name(dir) {
                    roots.insert(dirs[..=i].join("/"));
                }
            }
        }
        Roles { roots, packages }
    }

    /// The role of `path` (relative to the root).
    pub fn of(&self, path: &str) -> Role {
        let lower = path.to_lowercase();
        let parts: Vec<&str> = lower.split('/').collect();
        let (file, dirs) = parts.split_last().unwrap_or((&"", &[]));
        let stem = file.split('.').next().unwrap_or(file);
        let dir_is = |names: &[&str]| dirs.iter().any(|d| names.contains(d));
        if dir_is(GENERATED_DIRS)
            || file.ends_with(".min.js")
            || file.ends_with(".min.css")
            || file.ends_with("_pb2.py")
            || file.ends_with(".pb.go")
            || file.contains(".generated.")
            || file.ends_with(".lock")
            || *file == "package-lock.json"
        {
            return Role::Generated;
        }
        if CHANGELOG_STEMS.contains(&stem) || dir_is(CHANGELOG_DIRS) {
            return Role::Changelog;
        }
        if named_as_test(path.rsplit('/').next().unwrap_or(path)) {
            return Role::Test;
        }
        let rust = file.ends_with(".rs");
        let in_root = dirs.iter().enumerate().any(|(i, dir)| {
            test_dir_name(dir)
                && (i == 0
                    || TEST_ONLY_DIRS.contains(dir)
                    || rust && *dir == "tests"
                    // Maven's and Gradle's layout: src/test beside src/main.
                    || *dir == "test" && dirs[i - 1] == "src"
                    || self.packages.contains(&dirs[..i].join("/"))
                    || self.roots.contains(&dirs[..=i].join("/")))
        });
        if in_root { Role::Test } else { Role::Source }
    }
}

/// A file name (as written) that says "test" by a language's convention.
fn named_as_test(name: &str) -> bool {
    // JVM languages: FooTest, FooTests, FooSpec (Spock, ScalaTest).
    let (class, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    if matches!(ext, "java" | "kt" | "scala" | "groovy")
        && ["Test", "Tests", "Spec"].iter().any(|s| class.ends_with(s))
    {
        return true;
    }
    let file = name.to_lowercase();
    let stem = file.split('.').next().unwrap_or(&file);
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem.ends_with("_spec")
        || stem == "conftest"
        || stem == "tests"
        || file.contains(".test.")
        || file.contains(".spec.")
}

/// A directory named like one that holds tests.
fn test_dir_name(dir: &str) -> bool {
    matches!(
        dir,
        "test" | "tests" | "testing" | "spec" | "specs" | "test_utils" | "e2e"
    ) || TEST_ONLY_DIRS.contains(&dir)
        || dir.ends_with("_tests")
        || dir.ends_with("_test")
        || dir.starts_with("tests_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_conventions() {
        let roles = Roles::default();
        for (path, role) in [
            ("tests/forms/test_fields.py", Role::Test),
            ("pkg/utils_test.go", Role::Test),
            ("web/app.spec.ts", Role::Test),
            ("js_tests/qunit/qunit.js", Role::Test),
            ("integration_test/client.py", Role::Test),
            ("src/FooTest.java", Role::Test),
            ("tests/api.rs", Role::Test),
            ("crates/core/tests/api.rs", Role::Test),
            ("pkg/testdata/input.json", Role::Test),
            ("latest_news/feed.py", Role::Source),
            ("docs/releases/4.1.txt", Role::Changelog),
            ("CHANGELOG.md", Role::Changelog),
            ("static/app.min.js", Role::Generated),
            ("docs/_build/html/index.html", Role::Generated),
            ("src/testament.py", Role::Source),
            ("src/Latest.java", Role::Source),
            ("src/test/kotlin/FooTest.kt", Role::Test),
            ("app/src/test/resources/data.json", Role::Test),
            ("spec/models/user_spec.rb", Role::Test),
            ("django/db/models/query.py", Role::Source),
        ] {
            assert_eq!(roles.of(path), role, "{path}");
        }
    }

    #[test]
    fn a_nested_test_directory_is_tests_only_when_the_project_keeps_tests_there() {
        let files = [
            "django/test/selenium.py",
            "django/test/testcases.py",
            "tests/utils_tests/test_text.py",
            "tests/templates/base.html",
            "lib/pkg/tests/helpers.py",
            "lib/pkg/tests/test_core.py",
            "src/test/java/com/x/FooTest.java",
            "src/test/resources/data.xml",
        ];
        let roles = Roles::from_paths(files);
        assert_eq!(roles.of("django/test/selenium.py"), Role::Source);
        assert_eq!(roles.of("django/test/testcases.py"), Role::Source);
        assert_eq!(roles.of("tests/templates/base.html"), Role::Test);
        assert_eq!(roles.of("lib/pkg/tests/helpers.py"), Role::Test);
        assert_eq!(roles.of("src/test/resources/data.xml"), Role::Test);
        // A package's own test directory (a monorepo's `packages/x/test/`), whatever its files
        // are named, as mocha has them.
        let monorepo =
            Roles::from_paths(["packages/api/package.json", "packages/api/test/routes.js"]);
        assert_eq!(monorepo.of("packages/api/test/routes.js"), Role::Test);
        assert_eq!(
            monorepo.of("packages/api/lib/test/helpers.js"),
            Role::Source
        );
        // Without the project's files, a nested `test` directory is not enough.
        assert_eq!(
            Roles::default().of("lib/pkg/tests/helpers.py"),
            Role::Source
        );
    }
}
