//! # pb-polyhedral
//!
//! The polyhedral layer of polyblocks-rs, shared by the loop transformations
//! in pb-transforms: affine loop nests are read into ISL ([`scop`],
//! [`model`]: domains, accesses, schedules, dependences), transformed as ISL
//! schedules, and written back as affine loops ([`ast`], [`codegen`]).
//!
//! May depend on pb-support; never on transforms, conversions, pipelines or
//! tools.

pub mod aff;
pub mod ast;
pub mod codegen;
pub mod driver;
pub mod fusion;
pub mod model;
pub mod scop;

pub use aff::Aff;
/// The ISL bindings the layer uses, for passes that ask ISL questions of a [`Model`].
pub use isl_rs;
pub use model::Model;
pub use scop::{NotAffine, Scop};
