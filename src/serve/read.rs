//! Reading a request's body: at most [`MAX_BODY`] bytes, within the
//! server's read timeout, every refusal the API's JSON error.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;

use super::app::{App, MAX_BODY};
use super::error::ApiError;

/// A request's body as bytes, read within [`MAX_BODY`] and the server's
/// read timeout; a refusal (413, 408, a broken body) is the API's JSON
/// error like every other.
pub struct Raw(pub Bytes);

impl FromRequest<App> for Raw {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &App) -> Result<Raw, ApiError> {
        let limit = app.read_timeout;
        match tokio::time::timeout(limit, Bytes::from_request(req, app)).await {
            Ok(Ok(bytes)) => Ok(Raw(bytes)),
            Ok(Err(refused)) if refused.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError {
                    status: StatusCode::PAYLOAD_TOO_LARGE,
                    message: format!(
                        "the body is over {MAX_BODY} bytes (1 MB), the most the workbench reads"
                    ),
                    field: None,
                })
            }
            Ok(Err(refused)) => Err(ApiError {
                status: refused.status(),
                message: format!("cannot read the body: {}", refused.body_text()),
                field: None,
            }),
            Err(_) => Err(ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                message: format!("the body did not arrive within {} s", limit.as_secs_f64()),
                field: None,
            }),
        }
    }
}
