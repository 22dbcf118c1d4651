//! The integration tests' helpers, shared by the tool's tests (crates/cli) and the shop's
//! program's tests (crates/shop-server): each program found, and built when it is missing or
//! older than the sources ([`tool`], [`shop`]); `serve` started and read from its banner
//! ([`Served`]); HTTP/1.1 by hand ([`http`], [`get_text`]); requests signed as the SDKs sign
//! them ([`sigv4`]) and DynamoDB JSON requests ([`dynamodb`]); a mock of the Lambda Runtime API
//! ([`runtime_api`]) and an API Gateway stand-in in front of it ([`gateway`]).

pub mod capacity;
pub mod dynamodb;
pub mod gateway;
mod http;
mod program;
pub mod runtime_api;
mod served;
pub mod sigv4;

pub use http::{forbids_framing_and_sniffing, get_text, header, http};
pub use program::Program;
pub use served::Served;

/// `command`, `run`, `serve` and `serve_with_env` for one program, so its tests read as the user
/// types: `tool::run(&["check", ...])`, `shop::serve(&["--in-memory"])`.
macro_rules! program_module {
    ($program:expr) => {
        use std::path::Path;
        use std::process::{Command, Output};

        use crate::{Program, Served};

        /// The program with none of the variables that would send it elsewhere.
        pub fn command() -> Command {
            $program.command()
        }

        /// The program with `args` in `cwd`, to its end.
        pub fn run(args: &[&str], cwd: &Path) -> Output {
            $program.run(args, cwd)
        }

        /// Its `serve ARGS` on free ports in `cwd`, once it printed its banner.
        pub fn serve(args: &[&str], cwd: &Path) -> Served {
            Served::start($program, args, &[], cwd)
        }

        /// [`serve`] with these environment variables set.
        pub fn serve_with_env(args: &[&str], env: &[(&str, &str)], cwd: &Path) -> Served {
            Served::start($program, args, env, cwd)
        }
    };
}

/// `monotable`, the tool (crates/cli).
pub mod tool {
    program_module!(Program::Tool);
}

/// `monotable-shop`, the shop's own program (crates/shop-server).
pub mod shop {
    program_module!(Program::Shop);

    /// A bearer token from `monotable-shop token` for the data directory `data` under `cwd`.
    pub fn token(cwd: &Path, user: &str, admin: bool) -> String {
        let mut args = vec!["token", "--data-dir", "data", "--user", user];
        if admin {
            args.push("--admin");
        }
        let out = run(&args, cwd);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }
}
