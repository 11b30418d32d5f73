//! The texts' own worked examples, played by oddsmith: one test per
//! example a rules text plays with concrete numbers, named after the text,
//! chapter and section, asserting the number oddsmith gives. A test whose
//! name holds `_differs_` asserts oddsmith's number where it parts from the
//! example by design (and plays the variant that reproduces it, if any).
//! The manual's examples page lists every example, these tests included,
//! and `page` checks it against the suite.

mod fixed;
mod page;

mod cgg;
mod cortex;
mod gateway;
mod gateway_ch1;
mod gateway_second_scene;

mod gateway_first_scene;
mod questworlds;
mod statements;
