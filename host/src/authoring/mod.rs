//! What a plugin author runs: `plugin check` (one component alone under the operator's
//! limits) and `plugin new` (a buildable project for each language's component toolchain).

pub mod check;
pub mod scaffold;
