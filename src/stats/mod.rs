//! Statistics: confidence intervals for Monte Carlo estimates, exact metric
//! values, and the agreement test between the two.

mod agreement;
mod estimate;
mod interval;

pub use agreement::z_score;
pub use estimate::{Estimate, ExactValue, SETTLE, estimate, exact_value, settle};
pub use interval::{CONFIDENCE, mean_interval, normal_quantile, wilson};
