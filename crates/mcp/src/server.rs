//! The MCP server: one `#[tool]` per command, each with its typed input and output schema, the
//! resources and the design-loop prompt. Every call runs on a blocking thread under the
//! configured timeout; every failure is a tool error (`isError`) with its message.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, ListResourcesResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResult, ServerCapabilities,
    ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::error::McpError;
use crate::explain::Explanation;
use crate::input::{ModelSource, Root};
use crate::options::{CostInput, DiffInput, ExportInput};
use crate::outputs::{CheckOutput, CostAnswer, DiffOutput, ExportOutput, VerifyOutput, typed};
use crate::run;
use crate::shapes::{self, RenderedKeys, Samples};
use crate::{explain, resources};

/// How many tool calls' work may run at once; more wait for a free one, within their timeout.
pub const MAX_RUNNING_CALLS: usize = 2;

/// How long one tool call may take unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What the server serves from, and how long a call may take.
#[derive(Debug, Clone)]
pub struct Config {
    /// Every `path` is read under it.
    pub root: Root,
    /// The most one tool call may take.
    pub timeout: Duration,
}

/// The model's JSON Schema.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SchemaOutput {
    /// schema/monotable-model.schema.json.
    pub schema: Value,
}

/// `explain`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExplainInput {
    /// A rule's code (`MT005`) or name (`key-collision`).
    pub code: String,
}

/// `verify`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct VerifyInput {
    #[serde(flatten)]
    pub source: ModelSource,
    /// The seed of the generated data (the CLI's default when absent).
    // Schema'd as a plain integer, not `["integer", "null"]`: the field is optional, and clients
    // that type a command line's `key=value` by the schema (the MCP Inspector's CLI mode) only
    // read a single type.
    #[serde(default)]
    #[schemars(with = "u64")]
    pub seed: Option<u64>,
}

/// `render_keys`' input.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RenderKeysInput {
    #[serde(flatten)]
    pub source: ModelSource,
    /// The entity whose keys to render.
    pub entity: String,
    /// The attribute values its key templates read (strings, numbers or booleans).
    #[serde(default)]
    pub values: std::collections::BTreeMap<String, Value>,
}

/// `sample_items`' input.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SampleItemsInput {
    #[serde(flatten)]
    pub source: ModelSource,
    /// Only this entity's items (all entities' when absent).
    #[serde(default)]
    pub entity: Option<String>,
    /// How many items, at most 50 (5 when absent).
    #[serde(default)]
    #[schemars(with = "u32")]
    pub count: Option<u32>,
    /// The seed of the generated data (verify's default when absent).
    #[serde(default)]
    #[schemars(with = "u64")]
    pub seed: Option<u64>,
}

/// The server: its configuration and its tools.
#[derive(Debug, Clone)]
pub struct MonotableServer {
    config: Config,
    /// One permit per tool call whose work runs; held until the work ends, even past its
    /// timeout, so calls that overrun cannot pile up.
    running: Arc<Semaphore>,
    tool_router: ToolRouter<MonotableServer>,
}

#[tool_router]
impl MonotableServer {
    /// A server on `config`.
    pub fn new(config: Config) -> Result<MonotableServer, McpError> {
        Ok(MonotableServer {
            config,
            running: Arc::new(Semaphore::new(MAX_RUNNING_CALLS)),
            tool_router: Self::tool_router() + Self::shapes_router() + Self::import_router(),
        })
    }

    /// `work` on a blocking thread once one of [`MAX_RUNNING_CALLS`] is free, given up after the
    /// timeout (waiting included); a panic is a tool error.
    pub(crate) async fn blocking<T, F>(&self, tool: &'static str, work: F) -> Result<T, String>
    where
        T: Send + 'static,
        F: FnOnce(Root) -> Result<T, McpError> + Send + 'static,
    {
        let root = self.config.root.clone();
        let running = self.running.clone();
        let call = async move {
            let permit = running.acquire_owned().await;
            tokio::task::spawn_blocking(move || {
                let _held = permit;
                work(root)
            })
            .await
        };
        let outcome = match tokio::time::timeout(self.config.timeout, call).await {
            Err(_) => Err(McpError::Timeout {
                tool,
                seconds: self.config.timeout.as_secs(),
            }),
            Ok(Err(join)) => Err(McpError::Failed {
                tool,
                reason: format!("internal error: {join}"),
            }),
            Ok(Ok(result)) => result,
        };
        outcome.map_err(|e| e.to_string())
    }

    #[tool(
        description = "Lint a single-table design: diagnostics with stable codes (MT000..), each with its line, message, help and a fix where one exists. The same JSON as `monotable check --format json`. Give the model as `model` (TOML text) or `path` (a file under the server's root), at most 1 MiB."
    )]
    async fn check(
        &self,
        Parameters(input): Parameters<ModelSource>,
    ) -> Result<Json<CheckOutput>, String> {
        self.blocking("check", move |root| {
            typed("check", run::check(&input.load(&root)?)?)
        })
        .await
        .map(Json)
    }

    #[tool(
        description = "Capacity units per access pattern and, with the model's [traffic], per second and per month, priced (the shipped us-east-1 prices, or `prices`: a price table file under the root). With `compare_model` or `compare_path`, the model (old) and that one (new) side by side; with `cross_check` (and its `seed`), the estimate and the embedded engine's ConsumedCapacity on generated data against it. The same JSON as `monotable cost --format json` with those options."
    )]
    async fn cost(
        &self,
        Parameters(input): Parameters<CostInput>,
    ) -> Result<Json<CostAnswer>, String> {
        self.blocking("cost", move |root| typed("cost", run::cost(&root, &input)?))
            .await
            .map(Json)
    }

    #[tool(
        description = "Export the model as CreateTable JSON (create-table), a CloudFormation template (cloudformation), a SAM template (sam; with `function`, a Lambda function behind an HTTP API: `handler`, `architecture`, `routes_from` an OpenAPI file under the root, `code_uri`), a markdown design document (markdown) or a NoSQL Workbench data model with sample data of `seed` (nosql-workbench): the text `monotable export --format FORMAT` prints with those options. Nothing is written."
    )]
    async fn export(
        &self,
        Parameters(input): Parameters<ExportInput>,
    ) -> Result<Json<ExportOutput>, String> {
        self.blocking("export", move |root| {
            let text = run::export(&root, &input)?;
            Ok(ExportOutput {
                format: input.format.name().to_string(),
                text,
            })
        })
        .await
        .map(Json)
    }

    #[tool(
        description = "Compare two models: each change classified by what it takes on a live table (online, backfill, move, removal, blocked), the cost of each step (items from `items`, `N` or `Entity=N`, else each model's [traffic]), and what check finds new. The same JSON as `monotable diff OLD NEW --format json`. Give each model as text (old_model, new_model) or as a file under the root (old_path, new_path)."
    )]
    async fn diff(
        &self,
        Parameters(input): Parameters<DiffInput>,
    ) -> Result<Json<DiffOutput>, String> {
        self.blocking("diff", move |root| typed("diff", run::diff(&root, &input)?))
            .await
            .map(Json)
    }

    #[tool(description = "The model file's JSON Schema (schema/monotable-model.schema.json).")]
    async fn schema(&self) -> Result<Json<SchemaOutput>, String> {
        let schema = serde_json::from_str(resources::MODEL_SCHEMA).map_err(|e| e.to_string())?;
        Ok(Json(SchemaOutput { schema }))
    }

    #[tool(
        description = "Explain a rule: its section of docs/checks.md (why it matters, how to fix it) and a minimal failing and passing model. Takes a code (MT005) or a rule name (key-collision)."
    )]
    async fn explain(
        &self,
        Parameters(input): Parameters<ExplainInput>,
    ) -> Result<Json<Explanation>, String> {
        explain::explain(&input.code)
            .map(Json)
            .map_err(|e| e.to_string())
    }

    #[tool(
        description = "Run every access pattern of the model on generated sample data in an in-memory table and compare each with an oracle; every write pattern with its effects, conditions and guards. A verdict per pattern, with the request, expected and returned items on failure. The same JSON as `monotable verify --format json`."
    )]
    async fn verify(
        &self,
        Parameters(input): Parameters<VerifyInput>,
    ) -> Result<Json<VerifyOutput>, String> {
        let seed = input.seed.unwrap_or(monotable_verify::DEFAULT_SEED);
        self.blocking("verify", move |root| {
            typed("verify", run::verify(&input.source.load(&root)?, seed)?)
        })
        .await
        .map(Json)
    }
}

#[tool_router(router = shapes_router, vis = "pub(crate)")]
impl MonotableServer {
    #[tool(
        description = "Render an entity's keys from attribute values with the model's own key templates: its primary key and every key attribute it writes (indexes too; a sparse index's only when its condition holds)."
    )]
    async fn render_keys(
        &self,
        Parameters(input): Parameters<RenderKeysInput>,
    ) -> Result<Json<RenderedKeys>, String> {
        self.blocking("render_keys", move |root| {
            let loaded = input.source.load(&root)?;
            let model = run::model(&loaded, "nothing rendered")?;
            shapes::render_keys(&model, &input.entity, &input.values)
        })
        .await
        .map(Json)
    }

    #[tool(
        description = "What a model's items look like: the items verify generates (of one entity, or all), with their rendered keys, in DynamoDB JSON. At most 50 per call."
    )]
    async fn sample_items(
        &self,
        Parameters(input): Parameters<SampleItemsInput>,
    ) -> Result<Json<Samples>, String> {
        let seed = input.seed.unwrap_or(monotable_verify::DEFAULT_SEED);
        let count = input
            .count
            .map_or(Ok(5), usize::try_from)
            .map_err(|e| e.to_string())?;
        self.blocking("sample_items", move |root| {
            let loaded = input.source.load(&root)?;
            let model = run::model(&loaded, "nothing generated")?;
            shapes::sample_items(&model, input.entity.as_deref(), count, seed)
        })
        .await
        .map(Json)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for MonotableServer {
    fn get_info(&self) -> ServerInfo {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        ServerInfo::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new(
                "monotable",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "monotable judges DynamoDB single-table designs: check (lints), explain (a rule), \
                 verify (patterns against an oracle), cost, diff, export, schema; import_aws_mcp \
                 reads the AWS DynamoDB MCP server's data model JSON into a model. Models are TOML \
                 (resource monotable://docs/model.md), given as text or as a path under the \
                 server's root. The prompt `design-loop` walks the whole loop.",
            )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        match resources::read(&request.uri) {
            Some(contents) => Ok(ReadResourceResult::new(vec![contents])),
            None => Err(ErrorData::resource_not_found(
                format!("no resource `{}`", request.uri),
                None,
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![resources::prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        if request.name != resources::DESIGN_LOOP {
            return Err(ErrorData::invalid_params(
                format!(
                    "no prompt `{}`: the one prompt is `{}`",
                    request.name,
                    resources::DESIGN_LOOP
                ),
                None,
            ));
        }
        let requirements = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("requirements"))
            .and_then(Value::as_str)
            .unwrap_or("(none given: ask the user for the entities and access patterns)");
        Ok(resources::design_loop(requirements))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn server(timeout: Duration) -> MonotableServer {
        let root = Root::new(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        MonotableServer::new(Config { root, timeout }).unwrap()
    }

    #[tokio::test]
    async fn a_call_past_its_timeout_is_answered_and_overrunning_work_cannot_pile_up() {
        let server = server(Duration::from_millis(50));
        let mut releases = Vec::new();
        // Each work waits until the test lets it go: none can finish before its timeout.
        for _ in 0..MAX_RUNNING_CALLS {
            let (release, held) = std::sync::mpsc::channel::<()>();
            releases.push(release);
            let late = server
                .blocking("verify", move |_| {
                    let _ = held.recv();
                    Ok(())
                })
                .await
                .unwrap_err();
            assert!(late.contains("verify took longer than its limit"), "{late}");
        }
        // Every permit is held by work still running: the next call waits, and times out.
        let waiting = server.blocking("check", |_| Ok(7)).await.unwrap_err();
        assert!(waiting.contains("check took longer"), "{waiting}");
        // Once that work ends, calls run again.
        drop(releases);
        while server.running.available_permits() < MAX_RUNNING_CALLS {
            tokio::task::yield_now().await;
        }
        assert_eq!(server.blocking("check", |_| Ok(7)).await, Ok(7));
    }

    #[tokio::test]
    async fn a_panic_in_a_tool_is_a_tool_error() {
        let server = server(DEFAULT_TIMEOUT);
        let answer: Result<(), String> = server.blocking("cost", |_| panic!("a defect")).await;
        let message = answer.unwrap_err();
        assert!(
            message.starts_with("cost failed: internal error"),
            "{message}"
        );
    }
}
