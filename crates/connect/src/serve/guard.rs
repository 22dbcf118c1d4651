//! What keeps a listener on loopback private to this machine's own programs: web pages in a
//! browser on the same machine are refused (a foreign `Origin`, a cross-site fetch) and DNS
//! rebinding is refused (a `Host` that is not a loopback name, the listen address or a name the
//! user allowed), each in the listener's error shape. Origins the user lists (`--cors-origin`)
//! get CORS answers. (Over-long URIs and header blocks never reach here: the server refuses them,
//! see [`super::http`].)

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Renders a refusal in the listener's error shape: (status, stable code, message).
pub type Refuse = fn(StatusCode, &'static str, String) -> Response;

/// Who may talk to a listener.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The address the listener is bound to.
    pub listen: IpAddr,
    /// Host names accepted besides loopback names and IP literals (`--allow-host`).
    pub hosts: Vec<String>,
    /// Web origins that may call it (`--cors-origin`), e.g. `http://localhost:5173`.
    pub origins: Vec<String>,
    /// Methods a CORS preflight may ask for.
    pub cors_methods: &'static str,
    /// The listener's error shape.
    pub refuse: Refuse,
}

impl Guard {
    /// Whether `host` (a `Host` header value) names this listener: a loopback name or address,
    /// the listen address (any IP literal when listening on every address), or an allowed name.
    /// A DNS name an attacker controls never passes, which is what defeats DNS rebinding.
    pub fn host_allowed(&self, host: &str) -> bool {
        let name = strip_port(host).trim_end_matches('.').to_ascii_lowercase();
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        let literal = name.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = literal.parse::<IpAddr>() {
            return ip.is_loopback() || ip == self.listen || self.listen.is_unspecified();
        }
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(&name))
    }

    /// Whether a page from `origin` may call this listener: one listed with `--cors-origin`, or
    /// the listener's own origin (`http://` + the `Host` the request was sent to).
    pub fn origin_allowed(&self, origin: &str, host: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        self.origins
            .iter()
            .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
            || origin.eq_ignore_ascii_case(&format!("http://{host}"))
    }
}

/// Host part of a `Host` header value (`[::1]:8000` → `[::1]`, `localhost:3000` → `localhost`).
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host
            .split_once(']')
            .map_or(host, |(h, _)| &host[..=h.len()]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Why a request is refused, if it is.
fn refusal(guard: &Guard, request: &Request) -> Option<(StatusCode, &'static str, String)> {
    let headers = request.headers();
    let Some(host) =
        text(headers, header::HOST).or_else(|| request.uri().authority().map(|a| a.as_str()))
    else {
        return Some((
            StatusCode::BAD_REQUEST,
            "missing_host",
            "the request has no Host header".into(),
        ));
    };
    if !guard.host_allowed(host) {
        return Some((
            StatusCode::FORBIDDEN,
            "forbidden_host",
            format!(
                "Host `{host}` does not name this server; it answers to loopback names and addresses (start it with --allow-host NAME to add one)"
            ),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("null");
        if !guard.origin_allowed(origin, host) {
            return Some((
                StatusCode::FORBIDDEN,
                "forbidden_origin",
                format!(
                    "web pages from `{origin}` may not call this server (start it with --cors-origin {origin} to allow them)"
                ),
            ));
        }
    } else if cross_site(headers) && !matches!(*request.method(), Method::GET | Method::HEAD) {
        return Some((
            StatusCode::FORBIDDEN,
            "forbidden_origin",
            "cross-site requests from web pages may not call this server".into(),
        ));
    }
    None
}

fn cross_site(headers: &HeaderMap) -> bool {
    matches!(
        text(headers, header::HeaderName::from_static("sec-fetch-site")),
        Some("cross-site" | "same-site")
    )
}

/// What every answer of a guarded listener carries, whatever route gave it: no page of another
/// site may frame it (clickjacking), no browser may guess another content type for it, read it
/// into another site's page (no-cors) or send a Referer from it.
pub const HARDENING: [(&str, &str); 5] = [
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("content-security-policy", "frame-ancestors 'none'"),
    ("cross-origin-resource-policy", "same-origin"),
    ("referrer-policy", "no-referrer"),
];

/// The middleware: refuse what [`Guard`] does not allow; answer CORS preflights and tag the
/// answers of allowed cross-origin requests; every answer gets [`HARDENING`] (a route that sets
/// its own `Content-Security-Policy` keeps it, and must forbid framing itself).
pub async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let mut response = match refusal(&guard, &request) {
        Some((status, code, message)) => (guard.refuse)(status, code, message),
        None => allowed(&guard, request, next).await,
    };
    let headers = response.headers_mut();
    for (name, value) in HARDENING {
        if !headers.contains_key(name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

async fn allowed(guard: &Guard, request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).cloned();
    let preflight = request.method() == Method::OPTIONS
        && request
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut response = if preflight {
        preflight_response(guard, request.headers())
    } else {
        next.run(request).await
    };
    if let Some(origin) = origin {
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("*"),
        );
    }
    response
}

fn preflight_response(guard: &Guard, request: &HeaderMap) -> Response {
    let mut response = Response::new(axum::body::Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(guard.cors_methods),
    );
    if let Some(asked) = request.get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked.clone());
    }
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn guard(listen: IpAddr) -> Guard {
        Guard {
            listen,
            hosts: vec!["devbox.lan".into()],
            origins: vec!["http://localhost:5173".into()],
            cors_methods: "GET, POST",
            refuse: |status, _, _| {
                let mut r = Response::new(axum::body::Body::empty());
                *r.status_mut() = status;
                r
            },
        }
    }

    #[test]
    fn hosts_are_loopback_names_the_listen_address_or_allowed_names() {
        let g = guard(IpAddr::V4(Ipv4Addr::LOCALHOST));
        for ok in [
            "localhost",
            "localhost:8000",
            "LOCALHOST.",
            "api.localhost:3000",
            "127.0.0.1:8000",
            "127.0.0.2",
            "[::1]:8000",
            "devbox.lan:8000",
        ] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for bad in [
            "evil.example:8000",
            "localhost.evil.example",
            "192.168.1.5:8000",
            "",
            "[::2]",
        ] {
            assert!(!g.host_allowed(bad), "{bad}");
        }
        let everywhere = guard(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        assert!(everywhere.host_allowed("192.168.1.5:8000"));
        assert!(!everywhere.host_allowed("rebind.evil.example:8000"));
    }

    #[tokio::test]
    async fn every_answer_is_hardened_and_a_routes_own_policy_is_kept() {
        use tower::ServiceExt;
        let app = axum::Router::new()
            .route("/", axum::routing::get(|| async { "ok" }))
            .route(
                "/page",
                axum::routing::get(|| async {
                    (
                        [(header::CONTENT_SECURITY_POLICY, "default-src 'none'")],
                        "page",
                    )
                }),
            )
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(guard(IpAddr::V4(Ipv4Addr::LOCALHOST))),
                super::guard,
            ));
        let request = |path: &str, origin: Option<&str>| {
            let mut r = Request::get(path).header(header::HOST, "127.0.0.1:8000");
            if let Some(o) = origin {
                r = r.header(header::ORIGIN, o);
            }
            r.body(axum::body::Body::empty()).unwrap()
        };
        for (path, origin, status) in [
            ("/", None, StatusCode::OK),
            ("/", Some("https://evil.example"), StatusCode::FORBIDDEN),
            ("/nowhere", None, StatusCode::NOT_FOUND),
        ] {
            let answer = app.clone().oneshot(request(path, origin)).await.unwrap();
            assert_eq!(answer.status(), status, "{path}");
            for (name, value) in HARDENING {
                assert_eq!(answer.headers()[name], value, "{path} {name}");
            }
        }
        let page = app.oneshot(request("/page", None)).await.unwrap();
        assert_eq!(
            page.headers()[header::CONTENT_SECURITY_POLICY],
            "default-src 'none'"
        );
    }

    #[test]
    fn origins_are_listed_ones_or_the_listeners_own() {
        let g = guard(IpAddr::V4(Ipv4Addr::LOCALHOST));
        assert!(g.origin_allowed("http://localhost:5173", "127.0.0.1:8000"));
        assert!(g.origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000"));
        assert!(!g.origin_allowed("https://evil.example", "127.0.0.1:8000"));
        assert!(!g.origin_allowed("null", "127.0.0.1:8000"));
        assert!(!g.origin_allowed("http://127.0.0.1:3000", "127.0.0.1:8000"));
    }
}
