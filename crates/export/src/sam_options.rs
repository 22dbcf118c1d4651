//! The settings of the SAM export that the model does not hold: the function's code, handler,
//! architecture and routes, memory and timeout (shared by the app's function and the stream
//! consumers' functions).

/// The CPU architecture of the function (`Architectures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Architecture {
    /// x86_64: what a plain `cargo build --release` on an x86_64 Linux machine produces.
    #[default]
    X86_64,
    /// arm64 (Graviton): cross-compile, e.g. `cargo lambda build --release --arm64`.
    Arm64,
}

impl Architecture {
    /// The name SAM uses.
    pub fn name(self) -> &'static str {
        match self {
            Architecture::X86_64 => "x86_64",
            Architecture::Arm64 => "arm64",
        }
    }
}

/// One route of the HTTP API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// `GET`, `POST`, ... or `ANY`.
    pub method: String,
    /// `/products/{productId}`: OpenAPI and API Gateway write path parameters alike.
    pub path: String,
    /// Reachable without a token (no authorizer).
    pub public: bool,
}

/// The function the template deploys with the table.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FunctionOptions {
    /// Name stem of its resources: `Shop` gives `ShopFunction`.
    pub name: String,
    /// `Handler`; `bootstrap` for a Rust binary on `provided.al2023`.
    pub handler: String,
    /// `Architectures`.
    pub architecture: Architecture,
    /// The API's routes; empty: one protected `ANY /{proxy+}`.
    pub routes: Vec<Route>,
}

impl FunctionOptions {
    /// A function named `name` with handler `bootstrap` on x86_64 and no routes.
    pub fn new(name: impl Into<String>) -> FunctionOptions {
        FunctionOptions {
            name: name.into(),
            handler: "bootstrap".to_string(),
            architecture: Architecture::default(),
            routes: Vec::new(),
        }
    }

    /// Its resource's logical ID.
    pub fn logical_id(&self) -> String {
        let stem: String = self
            .name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        format!("{}Function", if stem.is_empty() { "App" } else { &stem })
    }
}

/// Settings of the SAM export that the model does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SamOptions {
    /// The function's `CodeUri`: the directory holding the `bootstrap` binary, relative to the
    /// template. Default `target/lambda/monotable-shop/` (where `cargo lambda build` puts the
    /// shop's binary, `monotable-shop`).
    /// A literal rather than a template parameter, because `sam deploy` only uploads literal paths.
    pub code_uri: String,
    /// Environment variable carrying the table name to the function. Default `TABLE_NAME`.
    pub table_env_var: String,
    /// Memory in MB. Default 256.
    pub memory_size: u32,
    /// Timeout in seconds. Default 10 (an HTTP API waits at most 30).
    pub timeout: u32,
    /// The function to deploy; `None`: the table and its policy only.
    pub function: Option<FunctionOptions>,
}

impl Default for SamOptions {
    fn default() -> Self {
        Self {
            code_uri: "target/lambda/monotable-shop/".to_string(),
            table_env_var: "TABLE_NAME".to_string(),
            memory_size: 256,
            timeout: 10,
            function: None,
        }
    }
}

impl SamOptions {
    /// These options with `function` deployed beside the table.
    pub fn with_function(mut self, function: FunctionOptions) -> SamOptions {
        self.function = Some(function);
        self
    }
}
