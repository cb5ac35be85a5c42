//! Programs from outside the Rust toolchain that a test drives (a browser and its WebDriver
//! today).
//!
//! README's test command must pass on a machine that has nothing but a Rust toolchain, while CI,
//! which installs everything, must still run every such test for real. A test therefore opens
//! with [`Requirement::find`]:
//!
//! - each program is looked up in a variable of its own (an explicit path, which must then
//!   exist) or else by name on `PATH`;
//! - when one is missing and the requirement's `SENET_REQUIRE_…` variable is not set, the test
//!   gets `None` and returns early, after **one** line on stderr naming what was skipped and
//!   the command that installs it;
//! - with `SENET_REQUIRE_…=1` (as `.ci/run` sets it) a missing program fails the test.
//!
//! ```
//! use senet_testkit::external::{Program, Requirement};
//!
//! const SHELL: Requirement = Requirement {
//!     what: "a POSIX shell",
//!     require_var: "SENET_REQUIRE_EXAMPLE_SHELL",
//!     install: "apt-get install dash",
//!     programs: &[Program { var: "SENET_EXAMPLE_SH", names: &["sh"] }],
//! };
//! // `None` (after the skip line) on a machine without `sh`.
//! if let Some(paths) = SHELL.find("the example") {
//!     assert!(paths[0].is_file());
//! }
//! ```

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One program a test needs.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The variable that names the program's path, which then wins over `PATH`.
    pub var: &'static str,
    /// The names it goes by on `PATH`, tried in order.
    pub names: &'static [&'static str],
}

/// The programs a test needs together, and how to get them.
#[derive(Clone, Copy, Debug)]
pub struct Requirement {
    /// What the programs are, in a few words, for the skip line.
    pub what: &'static str,
    /// The variable that makes a missing program a failure (set to anything but `0`).
    pub require_var: &'static str,
    /// The command that installs the programs on Debian.
    pub install: &'static str,
    /// The programs, in the order [`find`](Self::find) returns their paths.
    pub programs: &'static [Program],
}

/// Debian's Chromium and its WebDriver, for the tests that drive a page.
pub const BROWSER: Requirement = Requirement {
    what: "Chromium and chromedriver",
    require_var: "SENET_REQUIRE_BROWSER",
    install: "apt-get install chromium chromium-driver",
    programs: &[
        Program {
            var: "SENET_CHROMIUM",
            names: &["chromium", "chromium-browser"],
        },
        Program {
            var: "SENET_CHROMEDRIVER",
            names: &["chromedriver"],
        },
    ],
};

impl Requirement {
    /// The paths of the programs, in the order of [`programs`](Self::programs), or `None`
    /// after one line on stderr saying that `test` was skipped and how to install what it
    /// lacks.
    ///
    /// # Panics
    ///
    /// When a program is missing and [`require_var`](Self::require_var) is set, and when a
    /// program's own variable names a path that is not a file: both are a caller's explicit
    /// wish that cannot be met.
    pub fn find(&self, test: &str) -> Option<Vec<PathBuf>> {
        let path = std::env::var_os("PATH");
        let found = self.locate(|var| std::env::var_os(var), path.as_deref());
        match found {
            Ok(paths) => Some(paths),
            Err(missing) if is_set(std::env::var_os(self.require_var).as_deref()) => {
                panic!(
                    "{test} needs {} and {} is set, but {missing} is not found; install: {}",
                    self.what, self.require_var, self.install
                )
            }
            Err(missing) => {
                // Straight to the process's stderr: libtest captures `eprintln!` of a test
                // that passes, and this line is for the person who ran the command.
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped {test}: {missing} not found (needs {}; install: {}; {}=1 makes \
                     this a failure)",
                    self.what,
                    self.install,
                    self.require_var
                );
                None
            }
        }
    }

    /// Looks every program up through `var` (the environment) and the directories of
    /// `path`; the error names the first one missing.
    fn locate(
        &self,
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
        path: Option<&OsStr>,
    ) -> Result<Vec<PathBuf>, String> {
        self.programs
            .iter()
            .map(|program| match var(program.var) {
                Some(explicit) => {
                    let explicit = PathBuf::from(explicit);
                    assert!(
                        explicit.is_file(),
                        "{}={} is not a file",
                        program.var,
                        explicit.display()
                    );
                    Ok(explicit)
                }
                None => on_path(program.names, path).ok_or_else(|| {
                    format!("{} (on PATH or in ${})", program.names[0], program.var)
                }),
            })
            .collect()
    }
}

/// Whether a `SENET_REQUIRE_…` value asks for the program: anything but unset, empty or `0`.
fn is_set(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// The first executable file called one of `names` in the directories of `path`.
fn on_path(names: &[&str], path: Option<&OsStr>) -> Option<PathBuf> {
    let path = path?;
    names.iter().find_map(|name| {
        std::env::split_paths(path)
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    })
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    /// A scratch folder holding the given files, marked executable where asked.
    fn folder(files: &[(&str, bool)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for &(name, executable) in files {
            let file = dir.path().join(name);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if executable { 0o755 } else { 0o644 };
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            #[cfg(not(unix))]
            let _ = executable;
        }
        dir
    }

    fn no_vars(_: &str) -> Option<OsString> {
        None
    }

    #[test]
    fn programs_are_found_on_path_in_the_order_of_their_names() {
        let first = folder(&[("chromium-browser", true)]);
        let second = folder(&[("chromium", true), ("chromedriver", true)]);
        let path = std::env::join_paths([first.path(), second.path()]).unwrap();
        let found = BROWSER.locate(no_vars, Some(&path)).unwrap();
        // `chromium` is tried first in every directory, then `chromium-browser`.
        assert_eq!(
            found,
            [
                second.path().join("chromium"),
                second.path().join("chromedriver")
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_that_cannot_run_is_not_a_program() {
        let dir = folder(&[("chromium", false), ("chromedriver", true)]);
        let path = std::env::join_paths([dir.path()]).unwrap();
        let missing = BROWSER.locate(no_vars, Some(&path)).unwrap_err();
        assert!(missing.starts_with("chromium "), "{missing}");
        assert!(missing.contains("$SENET_CHROMIUM"), "{missing}");
    }

    #[test]
    fn a_missing_program_is_named() {
        let dir = folder(&[("chromium", true)]);
        let path = std::env::join_paths([dir.path()]).unwrap();
        let missing = BROWSER.locate(no_vars, Some(&path)).unwrap_err();
        assert!(missing.starts_with("chromedriver "), "{missing}");
        assert!(BROWSER.locate(no_vars, None).is_err());
    }

    #[test]
    fn a_variable_wins_over_path() {
        let elsewhere = folder(&[("my-driver", true)]);
        let on_path = folder(&[("chromium", true), ("chromedriver", true)]);
        let path = std::env::join_paths([on_path.path()]).unwrap();
        let driver = elsewhere.path().join("my-driver");
        let vars = |name: &str| (name == "SENET_CHROMEDRIVER").then(|| driver.clone().into());
        let found = BROWSER.locate(vars, Some(&path)).unwrap();
        assert_eq!(found, [on_path.path().join("chromium"), driver.clone()]);
    }

    #[test]
    #[should_panic(expected = "SENET_CHROMIUM=")]
    fn a_variable_naming_no_file_is_a_failure() {
        let vars = |name: &str| (name == "SENET_CHROMIUM").then(|| "/no/such/chromium".into());
        let _ = BROWSER.locate(vars, None);
    }

    #[test]
    fn require_variables_are_set_unless_empty_or_zero() {
        assert!(!is_set(None));
        assert!(!is_set(Some(OsStr::new(""))));
        assert!(!is_set(Some(OsStr::new("0"))));
        assert!(is_set(Some(OsStr::new("1"))));
        assert!(is_set(Some(OsStr::new("yes"))));
    }
}
