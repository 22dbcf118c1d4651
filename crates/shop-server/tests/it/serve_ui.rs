//! `monotable-shop serve` offers `monotable ui` for the shop's model under `/ui` on the API port:
//! the page, the model's API and a read-only table view over serve's own engine, behind the
//! port's guard.

use monotable_test_support::shop::serve;
use monotable_test_support::{get_text, header, http};

#[test]
fn serve_offers_the_ui_under_slash_ui() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    assert!(
        served
            .banner
            .iter()
            .any(|l| l.contains(&format!("{}/ui/", served.api))),
        "{:?}",
        served.banner
    );
    let (status, _, page) = get_text(&served.api, "/ui/", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("<base href=\"/ui/\">"), "{page}");
    let (status, headers, _) = get_text(&served.api, "/ui", &[]);
    assert_eq!(status, 308);
    assert_eq!(header(&headers, "location"), Some("/ui/"));

    let (status, model) = http(&served.api, "GET", "/ui/api/model", &[], None).unwrap();
    assert_eq!(status, 200, "{model}");
    assert_eq!(model["table"]["name"], "Shop");
    let (status, live) = http(&served.api, "GET", "/ui/api/live", &[], None).unwrap();
    assert_eq!(
        (status, &live["allowWrites"]),
        (200, &serde_json::json!(false)),
        "{live}"
    );
    let (status, page) = http(
        &served.api,
        "GET",
        "/ui/api/live/patterns/getUser?userId=nobody",
        &[],
        None,
    )
    .unwrap();
    assert_eq!(
        (status, &page["count"]),
        (200, &serde_json::json!(0)),
        "{page}"
    );
    let (status, body) = http(
        &served.api,
        "PUT",
        "/ui/api/live/item",
        &[("Content-Type", "application/json")],
        Some(r#"{"item":{"PK":{"S":"x"},"SK":{"S":"y"}}}"#),
    )
    .unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("read_only")),
        "{body}"
    );

    let (status, _, text) = get_text(&served.api, "/ui/nowhere", &[]);
    assert!(status == 404 && text.contains("/ui/nowhere"), "{text}");
    // The port's guard covers the UI like every shop route.
    let (status, _, text) = get_text(
        &served.api,
        "/ui/api/model",
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "{text}");
    // The shop's own routes are unchanged.
    let (status, _) = http(&served.api, "GET", "/openapi.json", &[], None).unwrap();
    assert_eq!(status, 200);
    served.terminate();
}
