//! The frame both programs run in: the command line and the name of its subcommand, the lock
//! file's name for this process, logs on stderr, one tokio runtime, and a failure as one line
//! on stderr with exit status 1 (usage errors are clap's, exit status 2).

use std::error::Error;
use std::future::Future;
use std::process::ExitCode;

use clap::Parser;

/// The command line, and the name of its subcommand.
pub fn parse<C: Parser>() -> (C, String) {
    let matches = C::command().get_matches();
    let name = matches.subcommand_name().unwrap_or_default().to_string();
    match C::from_arg_matches(&matches) {
        Ok(cli) => (cli, name),
        Err(e) => e.format(&mut C::command()).exit(),
    }
}

/// Run one subcommand of `program`: the lock file of a data directory names this process by its
/// subcommand (`monotable serve`), never by its arguments (they may carry a secret); logs go to
/// stderr; `command` runs on a multi-threaded tokio runtime, and its error is printed on one
/// line ([`error_line`]) with exit status 1.
pub fn run<F, E>(program: &str, subcommand: &str, command: F) -> ExitCode
where
    F: Future<Output = Result<ExitCode, E>>,
    E: AsRef<dyn Error + Send + Sync>,
{
    monotable_connect::engine::name_process(&format!("{program} {subcommand}"));
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_line(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, skipping a cause its parent already quoted, with the
/// endpoint named where a call got no answer ([`crate::connection::name_endpoint`]), and the
/// hidden characters of names, paths and values escaped (`monotable_model::text::escape`).
pub fn error_line(error: &(dyn Error + 'static)) -> String {
    crate::connection::name_endpoint(chain_line(error))
}

fn chain_line(error: &(dyn Error + 'static)) -> String {
    let mut line = String::new();
    let mut cause = Some(error);
    while let Some(error) = cause {
        let text = error.to_string();
        if !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
        cause = error.source();
    }
    monotable_model::text::escape(&line).into_owned()
}

/// Logs go to stderr; `RUST_LOG` selects them. By default: warnings, but not the engine's
/// per-request warnings about client errors (a failed condition is an answer, not a fault).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,dynoxide::server=error"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer {
        text: &'static str,
        source: std::io::Error,
    }

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.text)
        }
    }

    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn error_lines_do_not_repeat_a_quoted_cause() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let quoted = Outer {
            text: "reading model.toml: no such file",
            source: io(),
        };
        assert_eq!(error_line(&quoted), "reading model.toml: no such file");
        let plain = Outer {
            text: "outer",
            source: io(),
        };
        assert_eq!(error_line(&plain), "outer: no such file");
    }
}
