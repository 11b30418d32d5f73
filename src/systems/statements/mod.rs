//! `statements`: N-sided weight rolls (rules §5).
//!
//! A statement weighs the factors favouring it against those opposing it
//! with a d(F + O); its successes times F are its weight. Scenes make the
//! heaviest compatible statements true tier by tier; failures feed luck,
//! setbacks and experience.

pub mod best;
pub mod campaign;
pub mod experience;
mod roll;
pub mod scene;
pub mod statement;

pub use campaign::Campaign;
pub use experience::Experience;
pub use roll::{Roll, Rolls};
pub use scene::Scene;
pub use statement::Statement;
