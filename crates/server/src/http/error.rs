//! The API's one error type: a status code and a one-line message. Internal details are logged,
//! never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::round::RoundError;
use crate::store::ChallengeError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    RequestTimeout(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "internal server error".to_string()
            }
            other => other.to_string(),
        };
        (status, Json(json!({ "error": message }))).into_response()
    }
}

/// A JSON request body whose rejection is an [`ApiError`].
#[derive(Debug, axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Body<T>(pub T);

/// A query string whose rejection is an [`ApiError`].
#[derive(Debug, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Params<T>(pub T);

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
        let text = rejection.body_text();
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge("the request body is larger than 32 KiB".into())
        } else {
            ApiError::BadRequest(text)
        }
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> ApiError {
        ApiError::BadRequest(rejection.body_text())
    }
}

impl From<ChallengeError> for ApiError {
    fn from(error: ChallengeError) -> ApiError {
        let text = error.to_string();
        match error {
            ChallengeError::NotFound => ApiError::NotFound(text),
            ChallengeError::NotYours | ChallengeError::NotTheChallenger => {
                ApiError::Forbidden(text)
            }
            ChallengeError::NotOpen | ChallengeError::OwnChallenge | ChallengeError::TooMany => {
                ApiError::Conflict(text)
            }
            ChallengeError::Store(error) => ApiError::Internal(error.to_string()),
        }
    }
}

/// The one place where the games' errors become HTTP statuses.
impl From<RoundError> for ApiError {
    fn from(error: RoundError) -> ApiError {
        let text = error.to_string();
        match error {
            RoundError::NoSuchGame(_) | RoundError::UnknownRuleset(_) => ApiError::NotFound(text),
            RoundError::BadPosition(_)
            | RoundError::BadPly { .. }
            | RoundError::BadOfferAction(_) => ApiError::BadRequest(text),
            RoundError::NotASeat => ApiError::Forbidden(text),
            RoundError::InviteUsed(_) => ApiError::Unauthorized(text),
            RoundError::NotYourTurn { .. }
            | RoundError::GameOver(_)
            | RoundError::StillPlayed
            | RoundError::NoDrawOffer(_)
            | RoundError::NoTakebackOffer(_)
            | RoundError::NothingToTakeBack
            | RoundError::TimeUp
            | RoundError::NoTakebackHere
            | RoundError::NotInRatedGames(_)
            | RoundError::NoTimeToTakeBack
            | RoundError::AlreadyClaimed
            | RoundError::Changed => ApiError::Conflict(text),
            RoundError::IllegalMove(_) => ApiError::Unprocessable(text),
            RoundError::Challenge(error) => ApiError::from(error),
            RoundError::Store(crate::store::StoreError::Conflict) => {
                ApiError::Conflict("the game changed meanwhile; reload it".into())
            }
            RoundError::Corrupt(_) | RoundError::Internal(_) | RoundError::Store(_) => {
                ApiError::Internal(text)
            }
        }
    }
}
