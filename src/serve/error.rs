//! An API error: a status and the command line's message, with the field
//! at fault, as JSON (`{"error": …, "field": …}`); and JSON responses.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

/// An API error: its status, the message, and the field at fault.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub field: Option<String>,
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            field: None,
        }
    }

    /// Name the field at fault (the first named wins).
    pub fn at(mut self, field: &str) -> Self {
        if self.field.is_none() {
            self.field = Some(field.to_string());
        }
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.message, "field": self.field});
        json_response(self.status, &body)
    }
}

/// `value` as a JSON response (axum's `Json` needs a feature that would
/// also pull in its own body parsing, which the API does itself).
pub fn json_response(status: StatusCode, value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        // Non-finite numbers serialise as null, so this does not happen.
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write JSON: {e}"),
        )
            .into_response(),
    }
}

/// Every error the server answers is `{"error": …}`: one that some layer
/// below wrote otherwise (plain text, an empty body) is rewritten, its
/// status and headers kept.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let r = next.run(req).await;
    let status = r.status();
    let json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return r;
    }
    let (mut parts, _) = r.into_parts();
    let message = status
        .canonical_reason()
        .unwrap_or("the request failed")
        .to_lowercase();
    let fresh = ApiError {
        status,
        message,
        field: None,
    }
    .into_response();
    let (fresh, body) = fresh.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        fresh.headers[header::CONTENT_TYPE].clone(),
    );
    Response::from_parts(parts, body)
}
