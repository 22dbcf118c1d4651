//! A running `serve` of either program, read from its start-up banner, killed on drop if the
//! test did not stop it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::Program;

/// A running `monotable serve` or `monotable-shop serve`.
pub struct Served {
    pub child: Child,
    /// The DynamoDB endpoint, `http://127.0.0.1:PORT`.
    pub url: String,
    /// The shop's API (`monotable-shop serve`); empty for `monotable serve`, which has none.
    pub api: String,
    /// Every line up to and including `ready in ...`.
    pub banner: Vec<String>,
    rest: mpsc::Receiver<String>,
}

impl Served {
    /// Start `program serve ARGS` on free ports (`--dynamodb-port 0`, and `--api-port 0` for the
    /// shop) in `cwd` with `env` set, and wait for its banner.
    pub fn start(program: Program, args: &[&str], env: &[(&str, &str)], cwd: &Path) -> Served {
        let mut child = program
            .command()
            .envs(env.iter().copied())
            .arg("serve")
            .args(args)
            .args(["--dynamodb-port", "0"])
            .args(match program {
                Program::Shop => &["--api-port", "0"][..],
                Program::Tool => &[],
            })
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {} serve: {e}", program.name()));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut banner = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("serve printed its banner");
            let ready = line.starts_with("ready in ");
            banner.push(line);
            if ready {
                break;
            }
        }
        let field = |name: &str| {
            banner.iter().find_map(|l| {
                l.trim()
                    .strip_prefix(name)
                    .and_then(|rest| rest.split_whitespace().next())
                    .map(str::to_string)
            })
        };
        let url = field("dynamodb").expect("banner names the endpoint");
        let api = match program {
            Program::Shop => field("shop").expect("banner names the shop API"),
            Program::Tool => String::new(),
        };
        Served {
            child,
            url,
            api,
            banner,
            rest: rx,
        }
    }

    /// Send SIGTERM and wait for a clean exit; returns what serve printed after its banner.
    pub fn terminate(mut self) -> Vec<String> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let exit = self.child.wait().expect("wait for serve");
        assert!(exit.success(), "serve exited with {exit}");
        // Every line it printed: the reader thread may still be forwarding the last ones when the
        // process has exited; it ends (and the channel with it) at the end of the pipe.
        let mut after = Vec::new();
        while let Ok(line) = self.rest.recv_timeout(Duration::from_secs(30)) {
            after.push(line);
        }
        after
    }

    /// `program serve ARGS` on free ports in `dir`, expected to refuse to start: its stderr, once
    /// it exited with status 1 without saying it is ready.
    pub fn refused(program: Program, args: &[&str], dir: &Path) -> String {
        let mut all = vec!["serve"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--dynamodb-port", "0"]);
        if program == Program::Shop {
            all.extend_from_slice(&["--api-port", "0"]);
        }
        let out = program.run(&all, dir);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("ready in"));
        stderr
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
