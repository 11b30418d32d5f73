//! An API error: a status and the command line's message, with the field
//! at fault, as JSON (`{"error": …, "field": …}`); and JSON responses.

use axum::http::{StatusCode, header};
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
