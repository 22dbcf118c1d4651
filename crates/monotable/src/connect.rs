//! Where DynamoDB is: what an app needs of the connection layer (`monotable-connect`), and
//! the development tools only when their feature is on.
//!
//! Always: [`Backend`] and [`connect`], for [`Backend::Aws`] and [`Backend::Endpoint`]. With
//! the `engine` feature (a default): the embedded engine, [`memory`] for tests (and
//! [`Engine::memory_with_clock`] on a [`ManualClock`] for tests of what happens as stream
//! records age) and [`Backend::Embedded`]; without it, `connect` refuses `Backend::Embedded` with
//! [`ConnectError::NoEngine`]. `serve`, `capacity`, `bench` (`direct`) and `faults` are
//! here only with the feature of the same name.

pub use monotable_connect::config::{self, Backend, DataLocation};
pub use monotable_connect::{ConnectError, Dynamo, OpenError, connect};

#[cfg(feature = "engine")]
pub use monotable_connect::{ENGINE_VERSION, Engine, ManualClock, inprocess, memory};

#[cfg(feature = "serve")]
pub use monotable_connect::{ServeError, serve};

#[cfg(feature = "capacity")]
pub use monotable_connect::capacity;

#[cfg(feature = "bench")]
pub use monotable_connect::direct;

#[cfg(feature = "faults")]
pub use monotable_connect::faults;
