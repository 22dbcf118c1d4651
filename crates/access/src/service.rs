//! What DynamoDB (or the way to it) said when a call failed, classified once for every
//! operation: [`ServiceError`], which each operation's own error wraps (as redb's per-operation
//! errors wrap its storage error), and [`call_text`], its words in one line. The operations use
//! it from here; [`crate::error`] lists it with their errors.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

/// What DynamoDB (or the way to it) said, classified. It reads as DynamoDB's own words
/// (`ProvisionedThroughputExceededException: The level of configured ...`), or, when no answer
/// came, `cannot reach DynamoDB: CAUSE`: the same line every tool prints ([`call_text`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ServiceError {
    /// Throttled after the SDK's retries (`ProvisionedThroughputExceededException`,
    /// `ThrottlingException`, `RequestLimitExceeded`): retry later.
    #[error("{message}")]
    Throttled {
        /// What DynamoDB said: its code and message.
        message: String,
    },
    /// The table does not exist.
    #[error("{message}")]
    TableMissing {
        /// What DynamoDB said: its code and message.
        message: String,
    },
    /// DynamoDB refused the request as invalid (`ValidationException`), or it could not be
    /// built: a bug to fix, not to retry.
    #[error("{message}")]
    Validation {
        /// What DynamoDB said (its code and message), or why the request could not be built.
        message: String,
    },
    /// DynamoDB failed (5xx), or its answer could not be read: retry later.
    #[error("{message}")]
    Unavailable {
        /// What happened.
        message: String,
    },
    /// No answer came back: the connection was refused or reset, the call timed out, an I/O
    /// error. Retry later, or check the endpoint.
    #[error("{UNREACHABLE}{}: {cause}", endpoint.as_ref().map(|e| format!(" at {e}")).unwrap_or_default())]
    Unreachable {
        /// The endpoint, when the caller knows it ([`ServiceError::at`]): the SDK's client does
        /// not say where it sends.
        endpoint: Option<String>,
        /// The most specific cause the SDK reported (`Connection refused (os error 111)`).
        cause: String,
    },
    /// Anything else DynamoDB answered.
    #[error("{message}")]
    Other {
        /// DynamoDB's error code.
        code: String,
        /// What DynamoDB said: its code and message.
        message: String,
    },
}

impl ServiceError {
    /// Classify an SDK error: DynamoDB's answer by its code and status, and a call that got no
    /// answer (a dispatch failure, a timeout) as [`ServiceError::Unreachable`] with its cause.
    pub fn from_sdk<E>(e: &SdkError<E, HttpResponse>) -> ServiceError
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        match e {
            SdkError::ServiceError(_) => {}
            SdkError::DispatchFailure(_) | SdkError::TimeoutError(_) => {
                return ServiceError::Unreachable {
                    endpoint: None,
                    cause: innermost_cause(e),
                };
            }
            SdkError::ResponseError(_) => {
                return ServiceError::Unavailable {
                    message: format!("the answer could not be read: {}", innermost_cause(e)),
                };
            }
            // The request could not be built: a bug to fix, not to retry.
            _ => {
                return ServiceError::Validation {
                    message: format!("the request could not be built: {}", innermost_cause(e)),
                };
            }
        }
        let status = e.raw_response().map(|r| r.status().as_u16());
        let Some(service) = e.as_service_error() else {
            return ServiceError::Unavailable {
                message: innermost_cause(e),
            };
        };
        let code = service.code().unwrap_or("error").to_string();
        Self::classify(&code, said(service, status), status)
    }

    /// This error, naming `endpoint` if no answer came from it.
    pub fn at(self, endpoint: Option<&str>) -> ServiceError {
        match self {
            ServiceError::Unreachable {
                endpoint: None,
                cause,
            } => ServiceError::Unreachable {
                endpoint: endpoint.map(str::to_string),
                cause,
            },
            other => other,
        }
    }

    /// Classify DynamoDB's error `code`; `message` is what it said (its code and message).
    pub fn classify(code: &str, message: String, status: Option<u16>) -> ServiceError {
        match code {
            "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded" => ServiceError::Throttled { message },
            "ResourceNotFoundException" => ServiceError::TableMissing { message },
            "ValidationException" | "SerializationException" => {
                ServiceError::Validation { message }
            }
            _ if status.is_none_or(|s| s >= 500) => ServiceError::Unavailable { message },
            _ => ServiceError::Other {
                code: code.to_string(),
                message,
            },
        }
    }

    /// Worth retrying later (throttled, unavailable or unreachable).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ServiceError::Throttled { .. }
                | ServiceError::Unavailable { .. }
                | ServiceError::Unreachable { .. }
        )
    }
}

/// How the text of a call that got no answer begins ([`ServiceError::Unreachable`]); a program
/// that knows the endpoint its client calls can name it after these words.
pub const UNREACHABLE: &str = "cannot reach DynamoDB";

/// A failed call in one line, the same in every tool: DynamoDB's `Code: message` when it
/// answered; when it did not, why (`cannot reach DynamoDB: Connection refused (os error 111)`).
/// Never "no message", never the SDK's debug dump. It is the [`ServiceError`]'s text.
pub fn call_text<E>(e: &SdkError<E, HttpResponse>) -> String
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    ServiceError::from_sdk(e).to_string()
}

/// What DynamoDB said: `Code: message`, or the one of them there is.
fn said(service: &dyn ProvideErrorMetadata, status: Option<u16>) -> String {
    let message = answer_text(service, status);
    match service.code() {
        Some(code) if code != message => format!("{code}: {message}"),
        _ => message,
    }
}

/// DynamoDB's message; its code when there is none; the HTTP status when there is neither (an
/// answer that is not DynamoDB's, from a proxy say).
fn answer_text(service: &dyn ProvideErrorMetadata, status: Option<u16>) -> String {
    let message = service.message().map(str::trim).filter(|m| !m.is_empty());
    match (message, service.code()) {
        (Some(message), _) => message.to_string(),
        (None, Some(code)) => code.to_string(),
        (None, None) => match status {
            Some(status) => format!("an answer with HTTP status {status} and no DynamoDB error"),
            None => "an answer with no DynamoDB error".to_string(),
        },
    }
}

/// The most specific message in an error's source chain (`Connection refused (os error 111)`),
/// which says more than the SDK's outer "dispatch failure".
fn innermost_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
    use aws_sdk_dynamodb::operation::list_tables::ListTablesError;

    /// A client of `url` that does not retry.
    fn client(url: &str) -> aws_sdk_dynamodb::Client {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .endpoint_url(url)
            .credentials_provider(Credentials::new("k", "s", None, None, "test"))
            .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
            .build();
        aws_sdk_dynamodb::Client::from_conf(config)
    }

    fn closed_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    #[tokio::test]
    async fn a_call_nothing_answers_is_unreachable_with_its_cause() {
        let url = format!("http://127.0.0.1:{}", closed_port());
        let e = client(&url).list_tables().send().await.unwrap_err();
        let classified = ServiceError::from_sdk(&e);
        assert!(
            matches!(
                &classified,
                ServiceError::Unreachable { endpoint: None, .. }
            ),
            "{classified:?}"
        );
        assert!(classified.is_transient());
        let text = call_text(&e);
        assert!(text.starts_with("cannot reach DynamoDB: "), "{text}");
        assert!(text.to_lowercase().contains("refused"), "{text}");
        assert!(
            !text.contains("no message") && !text.contains("Dispatch"),
            "{text}"
        );
        // A caller that knows the endpoint names it.
        let named = classified.at(Some(&url)).to_string();
        assert!(
            named.starts_with(&format!("cannot reach DynamoDB at {url}: ")),
            "{named}"
        );
    }

    #[tokio::test]
    async fn a_connection_closed_without_an_answer_is_unreachable_too() {
        // A listener that accepts and closes every connection without a word.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                drop(stream);
            }
        });
        let e = client(&url).list_tables().send().await.unwrap_err();
        let classified = ServiceError::from_sdk(&e);
        assert!(
            matches!(classified, ServiceError::Unreachable { .. }),
            "{classified:?}"
        );
        assert!(call_text(&e).starts_with("cannot reach DynamoDB: "));
    }

    #[test]
    fn an_answer_without_a_code_or_message_says_what_arrived() {
        use aws_smithy_types::body::SdkBody;
        use aws_smithy_types::error::ErrorMetadata;
        let raw = HttpResponse::new(502.try_into().unwrap(), SdkBody::empty());
        let e = SdkError::service_error(
            ListTablesError::generic(ErrorMetadata::builder().build()),
            raw,
        );
        let classified = ServiceError::from_sdk(&e);
        assert_eq!(
            classified,
            ServiceError::Unavailable {
                message: "an answer with HTTP status 502 and no DynamoDB error".into()
            }
        );
        assert_eq!(
            call_text(&e),
            "an answer with HTTP status 502 and no DynamoDB error"
        );
    }

    #[test]
    fn an_answer_is_its_code_and_message() {
        use aws_smithy_types::body::SdkBody;
        use aws_smithy_types::error::ErrorMetadata;
        let raw = HttpResponse::new(400.try_into().unwrap(), SdkBody::empty());
        let meta = ErrorMetadata::builder()
            .code("ValidationException")
            .message("One or more parameter values were invalid")
            .build();
        let e = SdkError::service_error(ListTablesError::generic(meta), raw);
        assert_eq!(
            call_text(&e),
            "ValidationException: One or more parameter values were invalid"
        );
        assert!(matches!(
            ServiceError::from_sdk(&e),
            ServiceError::Validation { .. }
        ));
    }
}
