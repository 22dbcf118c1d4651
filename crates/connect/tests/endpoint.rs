//! The DynamoDB endpoint as a hostile page, a rebinding DNS name, a slow client and a signing
//! client meet it: the requests that read and wrote the local database from a browser are
//! replayed and refused, and what must still work does.

use std::net::SocketAddr;
use std::time::Duration;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use monotable_connect::serve::sigv4;
use monotable_connect::serve::{EndpointOptions, Limits, endpoint_guard};
use monotable_connect::{Engine, serve};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

struct Server {
    addr: SocketAddr,
    engine: Engine,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn start(auth: Option<&str>, origins: &[&str], limits: Limits) -> Server {
    let engine = Engine::memory().unwrap();
    let listener = serve::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let guard = endpoint_guard(
        addr.ip(),
        Vec::new(),
        origins.iter().map(|o| o.to_string()).collect(),
    );
    let options = EndpointOptions {
        auth: auth.map(|a| a.parse::<sigv4::Credentials>().unwrap()),
    };
    let served = engine.clone();
    tokio::spawn(async move {
        serve::serve_dynamodb(listener, &served, options, guard, &limits, async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Server {
        addr,
        engine,
        _stop: stop,
    }
}

/// Send `request` as raw bytes; the status and body of the answer.
async fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the server answered")
        .unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn post(host: &str, extra: &str, target: &str, body: &str) -> Vec<u8> {
    format!(
        "POST /?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=junk/20261203/us-east-1/dynamodb/aws4_request&X-Amz-Date=20261203T000000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=00 HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.{target}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

async fn seed(engine: &Engine) {
    let client = monotable_connect::inprocess::client(engine.clone());
    monotable_access::table::ensure_table(&client, &shop_like_model())
        .await
        .unwrap();
    client
        .put_item()
        .table_name("Secrets")
        .item(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S("USER#alice".into()),
        )
        .item(
            "email",
            aws_sdk_dynamodb::types::AttributeValue::S("alice@example.com".into()),
        )
        .send()
        .await
        .unwrap();
}

fn shop_like_model() -> monotable_model::Model {
    monotable_model::parse(
        r#"
version = 1
[table]
name = "Secrets"
partition_key = { name = "PK", type = "S" }
billing_mode = "PAY_PER_REQUEST"
[entities.User]
attributes.userId = { type = "string", required = true }
keys.PK = "USER#{userId}"
"#,
    )
    .unwrap()
}

#[tokio::test]
async fn a_cross_origin_scan_and_put_from_a_web_page_are_refused() {
    let server = start(None, &[], Limits::default()).await;
    seed(&server.engine).await;
    let host = server.addr.to_string();
    let origin = "Origin: https://evil.example\r\n";
    // The preflight a browser sends first is refused, so is the request itself.
    let preflight = format!(
        "OPTIONS / HTTP/1.1\r\nHost: {host}\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type,x-amz-target\r\nConnection: close\r\n\r\n"
    );
    let (status, body) = raw(server.addr, preflight.as_bytes()).await;
    assert_eq!(status, 403, "{body}");
    assert!(!body.contains("access-control-allow-origin"));
    let (status, body) = raw(
        server.addr,
        &post(&host, origin, "Scan", r#"{"TableName":"Secrets"}"#),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("AccessDeniedException"), "{body}");
    assert!(!body.contains("alice@example.com"), "{body}");
    let put = r#"{"TableName":"Secrets","Item":{"PK":{"S":"USER#alice"},"email":{"S":"mallory@evil.example"}}}"#;
    let (status, _) = raw(server.addr, &post(&host, origin, "PutItem", put)).await;
    assert_eq!(status, 403);
    // A cross-site fetch without an Origin header (no-cors) is refused too.
    let (status, _) = raw(
        server.addr,
        &post(&host, "Sec-Fetch-Site: cross-site\r\n", "PutItem", put),
    )
    .await;
    assert_eq!(status, 403);
    // Nothing was written.
    let item = monotable_connect::inprocess::client(server.engine.clone())
        .get_item()
        .table_name("Secrets")
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S("USER#alice".into()),
        )
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(item["email"].as_s().unwrap(), "alice@example.com");
}

#[tokio::test]
async fn a_rebinding_host_is_refused_and_loopback_names_pass() {
    let server = start(None, &[], Limits::default()).await;
    seed(&server.engine).await;
    let scan = r#"{"TableName":"Secrets"}"#;
    let port = server.addr.port();
    let (status, body) = raw(
        server.addr,
        &post(&format!("rebind.evil.example:{port}"), "", "Scan", scan),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(!body.contains("alice@example.com"));
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let (status, body) = raw(server.addr, &post(&host, "", "Scan", scan)).await;
        assert_eq!(status, 200, "{host}: {body}");
        assert!(body.contains("alice@example.com"));
    }
}

#[tokio::test]
async fn a_listed_origin_gets_cors_answers() {
    let server = start(None, &["http://localhost:5173"], Limits::default()).await;
    seed(&server.engine).await;
    let host = server.addr.to_string();
    let preflight = format!(
        "OPTIONS / HTTP/1.1\r\nHost: {host}\r\nOrigin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n"
    );
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(preflight.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 204"), "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("access-control-allow-origin: http://localhost:5173"),
        "{answer}"
    );
    let (status, body) = raw(
        server.addr,
        &post(
            &host,
            "Origin: http://localhost:5173\r\n",
            "Scan",
            r#"{"TableName":"Secrets"}"#,
        ),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn with_auth_only_requests_signed_with_the_secret_pass() {
    let server = start(Some("local:correct-horse-battery"), &[], Limits::default()).await;
    let client = |secret: &str| {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .endpoint_url(format!("http://{}", server.addr))
            .credentials_provider(Credentials::new("local", secret, None, None, "test"))
            .build();
        aws_sdk_dynamodb::Client::from_conf(config)
    };
    client("correct-horse-battery")
        .list_tables()
        .send()
        .await
        .expect("signed with the secret");
    let err = client("wrong-secret-wrong")
        .list_tables()
        .send()
        .await
        .unwrap_err();
    let text = format!("{:?}", err.into_service_error());
    assert!(text.contains("InvalidSignature"), "{text}");
    // The junk query-string signature that passed the completeness check is refused.
    let host = server.addr.to_string();
    let (status, body) = raw(server.addr, &post(&host, "", "ListTables", "{}")).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("IncompleteSignatureException"), "{body}");
}

/// An SDK client of `server` signing with `secret` in `region`.
fn signing_client(server: &Server, secret: &str, region: &str) -> aws_sdk_dynamodb::Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(region.to_string()))
        .endpoint_url(format!("http://{}", server.addr))
        .credentials_provider(Credentials::new("local", secret, None, None, "test"))
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

#[tokio::test]
async fn with_auth_a_credential_scoped_to_another_region_is_refused_as_dynamodb_does() {
    use aws_sdk_dynamodb::error::ProvideErrorMetadata;
    let secret = "correct-horse-battery";
    let server = start(Some(&format!("local:{secret}")), &[], Limits::default()).await;
    signing_client(&server, secret, "us-east-1")
        .list_tables()
        .send()
        .await
        .expect("us-east-1 is the default region");
    let err = signing_client(&server, secret, "eu-west-1")
        .list_tables()
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("InvalidSignatureException"), "{err:?}");
    assert_eq!(
        err.message(),
        Some("Credential should be scoped to a valid region, not 'eu-west-1'. ")
    );
}

#[tokio::test]
async fn with_auth_in_a_region_only_that_region_is_accepted() {
    use aws_sdk_dynamodb::error::ProvideErrorMetadata;
    let secret = "correct-horse-battery";
    let engine = Engine::memory().unwrap();
    let listener = serve::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let options = EndpointOptions {
        auth: Some(
            format!("local:{secret}")
                .parse::<sigv4::Credentials>()
                .unwrap()
                .in_region("ap-southeast-2"),
        ),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let guard = endpoint_guard(addr.ip(), Vec::new(), Vec::new());
    let served = engine.clone();
    tokio::spawn(async move {
        serve::serve_dynamodb(
            listener,
            &served,
            options,
            guard,
            &Limits::default(),
            async {
                let _ = stopped.await;
            },
        )
        .await
        .unwrap();
    });
    let server = Server {
        addr,
        engine,
        _stop: stop,
    };
    signing_client(&server, secret, "ap-southeast-2")
        .list_tables()
        .send()
        .await
        .expect("the endpoint's region");
    let err = signing_client(&server, secret, "us-east-1")
        .list_tables()
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        Some("Credential should be scoped to a valid region, not 'us-east-1'. "),
        "{err:?}"
    );
}

#[tokio::test]
async fn clients_that_never_finish_their_headers_are_cut_off() {
    let limits = Limits {
        header_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = start(None, &[], limits).await;
    let mut slow = Vec::new();
    for _ in 0..50 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(s);
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    for mut s in slow {
        let mut buf = [0u8; 64];
        let n = tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf))
            .await
            .expect("the server closed the connection")
            .unwrap_or(0);
        // Closed (0 bytes) or answered with a timeout status and then closed.
        let text = String::from_utf8_lossy(&buf[..n]);
        assert!(n == 0 || text.starts_with("HTTP/1.1 408"), "{text}");
    }
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_free_one() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let server = start(None, &[], limits).await;
    let held: Vec<TcpStream> = futures_connect(server.addr, 2).await;
    // A third request waits while two connections are held open...
    let addr = server.addr;
    let third = tokio::spawn(async move {
        raw(
            addr,
            b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!third.is_finished(), "served beyond the cap");
    // ...and is served as soon as one closes.
    drop(held);
    let (status, body) = tokio::time::timeout(Duration::from_secs(5), third)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status, 200, "{body}");
}

async fn futures_connect(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut out = Vec::new();
    for _ in 0..n {
        let mut s = TcpStream::connect(addr).await.unwrap();
        // Keep-alive request so the connection stays open after the answer.
        s.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 256];
        let _ = s.read(&mut buf).await.unwrap();
        out.push(s);
    }
    out
}

#[tokio::test]
async fn requests_hyper_cannot_read_are_answered_in_dynamodbs_shape() {
    let server = start(None, &[], Limits::default()).await;
    let long = format!(
        "GET /{} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        "a".repeat(70_000)
    );
    let (status, body) = raw(server.addr, long.as_bytes()).await;
    assert_eq!(status, 414, "{body}");
    assert!(body.contains("\"__type\""), "{body}");
    let mut many = String::from("GET / HTTP/1.1\r\nHost: localhost\r\n");
    for i in 0..200 {
        many.push_str(&format!("X-H{i}: v\r\n"));
    }
    many.push_str("Connection: close\r\n\r\n");
    let (status, body) = raw(server.addr, many.as_bytes()).await;
    assert_eq!(status, 431, "{body}");
    assert!(body.contains("\"__type\""), "{body}");
}

/// The DynamoDB Streams API answers on the same endpoint, behind the same signature check: the
/// official Streams client, signed with the secret, reads a write back from the stream.
#[tokio::test]
async fn the_streams_api_answers_on_the_endpoint_to_a_signed_streams_client() {
    let server = start(Some("local:correct-horse-battery"), &[], Limits::default()).await;
    let client = monotable_connect::inprocess::client(server.engine.clone());
    let mut model = shop_like_model();
    model.table.stream = Some(monotable_model::StreamView::NewAndOldImages);
    monotable_access::table::ensure_table(&client, &model)
        .await
        .unwrap();
    client
        .put_item()
        .table_name("Secrets")
        .item(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S("USER#bob".into()),
        )
        .send()
        .await
        .unwrap();
    let streams = |secret: &str| {
        use aws_sdk_dynamodbstreams::config as c;
        let config = c::Config::builder()
            .behavior_version(c::BehaviorVersion::latest())
            .region(c::Region::new("us-east-1"))
            .endpoint_url(format!("http://{}", server.addr))
            .credentials_provider(c::Credentials::new("local", secret, None, None, "test"))
            .build();
        aws_sdk_dynamodbstreams::Client::from_conf(config)
    };
    let err = streams("wrong-secret-wrong")
        .list_streams()
        .send()
        .await
        .unwrap_err();
    assert!(format!("{err:?}").contains("InvalidSignature"), "{err:?}");
    let streams = streams("correct-horse-battery");
    let listed = streams
        .list_streams()
        .table_name("Secrets")
        .send()
        .await
        .unwrap();
    let arn = listed.streams()[0].stream_arn().unwrap().to_string();
    let described = streams
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .unwrap();
    let shard = described.stream_description().unwrap().shards()[0]
        .shard_id()
        .unwrap()
        .to_string();
    let iterator = streams
        .get_shard_iterator()
        .stream_arn(&arn)
        .shard_id(&shard)
        .shard_iterator_type(aws_sdk_dynamodbstreams::types::ShardIteratorType::TrimHorizon)
        .send()
        .await
        .unwrap()
        .shard_iterator
        .unwrap();
    let records = streams
        .get_records()
        .shard_iterator(iterator)
        .send()
        .await
        .unwrap();
    let record = &records.records()[0];
    assert_eq!(record.event_name().unwrap().as_str(), "INSERT");
    let keys = record.dynamodb().unwrap().keys().unwrap();
    assert_eq!(keys["PK"].as_s().unwrap(), "USER#bob");
}
