//! Helpers for the CLI's integration tests: run `monotable`, start `monotable serve` and read its
//! endpoint from the start-up banner.

#![allow(dead_code)]

pub mod boto3;
pub mod gateway;
pub mod proxy;
pub mod runtime_api;
pub mod scaffold;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub fn monotable() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_monotable"));
    cmd.env_remove("AWS_ENDPOINT_URL_DYNAMODB")
        .env_remove("MONOTABLE_DATA_DIR")
        .env_remove("MONOTABLE_DYNAMODB_PORT")
        .env_remove("MONOTABLE_API_PORT")
        .env_remove("MONOTABLE_JWT_SECRET")
        .env_remove("MONOTABLE_CAPACITY")
        .env_remove("MONOTABLE_CAPACITY_SCALE")
        .env_remove("MONOTABLE_DYNAMODB_AUTH")
        .env_remove("AWS_REGION")
        .env_remove("AWS_DEFAULT_REGION")
        .env_remove("AWS_LAMBDA_RUNTIME_API")
        .env("NO_COLOR", "1");
    cmd
}

pub fn run(args: &[&str], cwd: &Path) -> Output {
    monotable()
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("run monotable")
}

/// A running `monotable serve`, killed on drop if the test did not stop it.
pub struct Served {
    pub child: Child,
    pub url: String,
    pub api: String,
    pub banner: Vec<String>,
    rest: mpsc::Receiver<String>,
}

impl Served {
    /// Start `monotable serve ARGS --dynamodb-port 0` in `cwd` and wait for its banner.
    pub fn start(args: &[&str], cwd: &Path) -> Served {
        Served::start_with_env(args, &[], cwd)
    }

    /// [`Served::start`] with these environment variables set.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)], cwd: &Path) -> Served {
        let mut child = monotable()
            .envs(env.iter().copied())
            .arg("serve")
            .args(args)
            .args(["--dynamodb-port", "0", "--api-port", "0"])
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn monotable serve");
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
        let url = banner
            .iter()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("dynamodb")
                    .map(|u| u.trim().to_string())
            })
            .expect("banner names the endpoint");
        let api = banner
            .iter()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("shop")
                    .and_then(|rest| rest.split_whitespace().next())
                    .map(str::to_string)
            })
            .expect("banner names the shop API");
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
        self.rest.try_iter().collect()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to `base` (`http://127.0.0.1:PORT`) with `Connection: close`; the status
/// and the body as JSON (`Null` when it is not JSON). `Err` when the server cannot be reached or
/// closes without answering.
pub fn http(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> std::io::Result<(u16, serde_json::Value)> {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(body.unwrap_or(""));
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no HTTP answer: {text:?}")))?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    Ok((
        status,
        serde_json::from_str(body).unwrap_or(serde_json::Value::Null),
    ))
}

/// A bearer token from `monotable token` for the data directory `data` under `cwd`.
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

/// `GET path` on `base`: the status, the headers (names lowercased) and the body as text.
pub fn get_text(
    base: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8(answer).expect("a UTF-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").expect("a complete answer");
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}
