//! The commands' read-only options as tool inputs: `cost`'s price table, comparison and
//! cross-check, `export`'s formats, sample seed and SAM function, `diff`'s item counts. Each is
//! checked as the command's flags are (clap's rules and wording, naming the fields), and every
//! file they name is read under the root (`Root::read`). Write flags (`export --output`) and live tables (`verify
//! --table`) have no field here.

use monotable_check::cost::PriceTable;
use monotable_migrate::diff::ItemCounts;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::McpError;
use crate::input::{Loaded, ModelSource, Root, load};

/// `cost`'s input: `monotable cost`'s options.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct CostInput {
    #[serde(flatten)]
    pub source: ModelSource,
    /// A price table file relative to the root (TOML, the shipped table's shape; docs/cost.md)
    /// used instead of the shipped us-east-1 prices (`--prices`).
    #[serde(default)]
    pub prices: Option<String>,
    /// Compare the model (old) with this model's text (new) side by side: bytes stored and write
    /// units per item of each entity, units per second and dollars per month (`--compare`). Not
    /// with `cross_check`.
    #[serde(default)]
    pub compare_model: Option<String>,
    /// The model to compare with, as a file relative to the root (`--compare`).
    #[serde(default)]
    pub compare_path: Option<String>,
    /// Also run every write and read on verify's generated data in an in-memory engine and
    /// compare its ConsumedCapacity (INDEXES) with the sizing rules (`--cross-check`); the
    /// answer is then `{"cost", "crossCheck"}`, `crossCheck.agrees` false when any figure
    /// disagrees.
    #[serde(default)]
    pub cross_check: bool,
    /// The seed of the generated data for `cross_check` (`--seed`, verify's default when
    /// absent); only with `cross_check`.
    // A plain integer in the schema, not `["integer", "null"]` (see `VerifyInput::seed`).
    #[serde(default)]
    #[schemars(with = "u64")]
    pub seed: Option<u64>,
}

/// What `cost` makes, once its options are checked.
#[derive(Debug)]
pub enum CostRun {
    /// The estimate (no `--compare`, no `--cross-check`).
    Estimate,
    /// The model compared with this one.
    Compare(Loaded),
    /// The estimate and the cross-check on data of this seed.
    CrossCheck(u64),
}

impl CostInput {
    /// The comparison model's field names, for messages.
    const COMPARE: (&'static str, &'static str) = ("compare_model", "compare_path");

    /// The flags' rules, checked before anything is read (clap's `conflicts_with` and
    /// `requires` on `--compare`, `--cross-check` and `--seed`).
    pub fn check_flags(&self) -> Result<(), McpError> {
        let compare = match (&self.compare_model, &self.compare_path) {
            (Some(_), _) => Some(Self::COMPARE.0),
            (None, Some(_)) => Some(Self::COMPARE.1),
            (None, None) => None,
        };
        if let (Some(field), true) = (compare, self.cross_check) {
            return Err(McpError::Refused(format!(
                "the argument `{field}` cannot be used with `cross_check`"
            )));
        }
        if self.seed.is_some() && !self.cross_check {
            return Err(McpError::Refused(
                "the following required arguments were not provided: `cross_check` (`seed` goes with it)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The price table `prices` names, or the shipped one.
    pub fn prices(&self, root: &Root) -> Result<PriceTable, McpError> {
        let Some(file) = &self.prices else {
            return Ok(PriceTable::default());
        };
        let text = root.read(file).map_err(|e| match e {
            McpError::Unreadable { reason, .. } => {
                McpError::Refused(format!("cannot read price table {file}: {reason}"))
            }
            other => other,
        })?;
        PriceTable::from_toml(&text)
            .map_err(|e| McpError::Refused(format!("price table {file}: {e}")))
    }

    /// What to make: the comparison model read when one is given.
    pub fn run(&self, root: &Root) -> Result<CostRun, McpError> {
        if self.compare_model.is_some() || self.compare_path.is_some() {
            let new = load(
                root,
                self.compare_model.as_deref(),
                self.compare_path.as_deref(),
                Self::COMPARE,
            )?;
            return Ok(CostRun::Compare(new));
        }
        if self.cross_check {
            return Ok(CostRun::CrossCheck(
                self.seed.unwrap_or(monotable_verify::DEFAULT_SEED),
            ));
        }
        Ok(CostRun::Estimate)
    }
}

/// The formats `export` makes (`monotable export --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// CreateTable input for `aws dynamodb create-table --cli-input-json`.
    CreateTable,
    /// A CloudFormation template (JSON) with the table.
    Cloudformation,
    /// A SAM template: the table and its least-privilege policy; with `function`, a Lambda
    /// function behind an HTTP API.
    Sam,
    /// A design document: table, indexes, entity chart, access patterns with RCU/WCU per call,
    /// check results.
    Markdown,
    /// A NoSQL Workbench data model, with verify's sample data (of `seed`) as table data and
    /// one facet per entity.
    NosqlWorkbench,
}

impl ExportFormat {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::CreateTable => "create-table",
            ExportFormat::Cloudformation => "cloudformation",
            ExportFormat::Sam => "sam",
            ExportFormat::Markdown => "markdown",
            ExportFormat::NosqlWorkbench => "nosql-workbench",
        }
    }
}

/// The CPU architecture of a SAM export's function (`--architecture`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum Architecture {
    /// x86_64: what `cargo build --release` makes on x86_64 Linux.
    #[default]
    #[serde(rename = "x86-64", alias = "x86_64")]
    X86_64,
    /// arm64 (Graviton): cross-compiled, e.g. `cargo lambda build --release --arm64`.
    #[serde(rename = "arm64")]
    Arm64,
}

/// `export`'s input: `monotable export`'s options but `--output` (the tools write nothing).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExportInput {
    #[serde(flatten)]
    pub source: ModelSource,
    /// What to make.
    pub format: ExportFormat,
    /// The seed of the sample data in a `nosql-workbench` export (`--seed`, verify's default
    /// when absent).
    #[serde(default)]
    #[schemars(with = "u64")]
    pub seed: Option<u64>,
    /// (sam) Deploy a function with the table: NAME names its resources (`Shop` gives
    /// `ShopFunction`) (`--function`). The options below need it.
    #[serde(default)]
    pub function: Option<String>,
    /// (sam) The function's handler (`--handler`, `bootstrap` when absent).
    #[serde(default)]
    pub handler: Option<String>,
    /// (sam) The function's CPU architecture, the one its binary is built for
    /// (`--architecture`, `x86-64` when absent).
    #[serde(default)]
    #[schemars(with = "Architecture")]
    pub architecture: Option<Architecture>,
    /// (sam) The HTTP API's routes, from an OpenAPI document (JSON), a file relative to the
    /// root (`--routes-from`): an operation whose `security` allows no credentials is public.
    /// Without it, one protected `ANY /{proxy+}`.
    #[serde(default)]
    pub routes_from: Option<String>,
    /// (sam) The directory holding the function's `bootstrap`, relative to the template
    /// (`--code-uri`).
    #[serde(default)]
    pub code_uri: Option<String>,
}

impl ExportInput {
    /// The flags' rules, checked before anything is read (clap's `requires = "function"`).
    pub fn check_flags(&self) -> Result<(), McpError> {
        if self.function.is_some() {
            return Ok(());
        }
        let given = [
            ("handler", self.handler.is_some()),
            ("architecture", self.architecture.is_some()),
            ("routes_from", self.routes_from.is_some()),
            ("code_uri", self.code_uri.is_some()),
        ];
        match given.iter().find(|(_, is)| *is) {
            Some((field, _)) => Err(McpError::Refused(format!(
                "the following required arguments were not provided: `function` (`{field}` goes with it)"
            ))),
            None => Ok(()),
        }
    }

    /// The SAM options (`monotable export --format sam --function ...`), the routes read
    /// under the root.
    pub fn sam(&self, root: &Root) -> Result<monotable_export::SamOptions, McpError> {
        let mut options = monotable_export::SamOptions::default();
        let Some(name) = &self.function else {
            return Ok(options);
        };
        let mut function = monotable_export::FunctionOptions::new(name.as_str());
        function.handler = self.handler.clone().unwrap_or_else(|| "bootstrap".into());
        function.architecture = match self.architecture.unwrap_or_default() {
            Architecture::X86_64 => monotable_export::Architecture::X86_64,
            Architecture::Arm64 => monotable_export::Architecture::Arm64,
        };
        if let Some(path) = &self.routes_from {
            let text = root.read(path).map_err(|e| match e {
                McpError::Unreadable { reason, .. } => {
                    McpError::Refused(format!("cannot read {path}: {reason}"))
                }
                other => other,
            })?;
            let document: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                McpError::Refused(format!("{path} is not a JSON OpenAPI document: {e}"))
            })?;
            function.routes = monotable_export::routes_from_openapi(&document);
            if function.routes.is_empty() {
                return Err(McpError::Refused(format!(
                    "{path} declares no operations under `paths`"
                )));
            }
        }
        if let Some(code_uri) = &self.code_uri {
            options.code_uri = code_uri.clone();
        }
        Ok(options.with_function(function))
    }
}

/// `diff`'s input: the model the table holds today and the one to move it to, each as text or
/// as a file under the root, and `monotable diff`'s `--items`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DiffInput {
    /// The old model's text.
    #[serde(default)]
    pub old_model: Option<String>,
    /// The old model's file, relative to the root.
    #[serde(default)]
    pub old_path: Option<String>,
    /// The new model's text.
    #[serde(default)]
    pub new_model: Option<String>,
    /// The new model's file, relative to the root.
    #[serde(default)]
    pub new_path: Option<String>,
    /// Items in the table, for the cost of each step: `N` for every entity, or `Entity=N`
    /// (several, or separated with commas) (`--items`). `items` under [traffic.entities.X] is
    /// used otherwise.
    #[serde(default)]
    pub items: Vec<String>,
}

impl DiffInput {
    /// The old model (`old`) or the new one, from its text or its file.
    pub fn side(&self, root: &Root, old: bool) -> Result<Loaded, McpError> {
        if old {
            let (text, path) = (self.old_model.as_deref(), self.old_path.as_deref());
            load(root, text, path, ("old_model", "old_path"))
        } else {
            let (text, path) = (self.new_model.as_deref(), self.new_path.as_deref());
            load(root, text, path, ("new_model", "new_path"))
        }
    }

    /// The item counts `items` gives, each value split at its commas as `--items` is.
    pub fn counts(&self) -> Result<ItemCounts, McpError> {
        let values: Vec<String> = self
            .items
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::to_string)
            .collect();
        ItemCounts::parse(&values).map_err(|e| McpError::Refused(format!("`items` {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_flags_are_checked_as_clap_checks_them() {
        let both = CostInput {
            compare_path: Some("new.toml".into()),
            cross_check: true,
            ..CostInput::default()
        };
        let message = both.check_flags().unwrap_err().to_string();
        assert!(message.contains("`compare_path` cannot be used with `cross_check`"));
        let seed = CostInput {
            seed: Some(3),
            ..CostInput::default()
        };
        assert!(
            seed.check_flags()
                .unwrap_err()
                .to_string()
                .contains("`seed`")
        );
        let fine = CostInput {
            seed: Some(3),
            cross_check: true,
            ..CostInput::default()
        };
        assert!(fine.check_flags().is_ok());
    }

    #[test]
    fn items_split_at_commas_as_the_flag_does() {
        let input = DiffInput {
            old_model: None,
            old_path: None,
            new_model: None,
            new_path: None,
            items: vec!["5".into(), "Order=100,User=3".into()],
        };
        let counts = input.counts().unwrap();
        assert_eq!(counts.default, Some(5));
        assert_eq!(counts.per_entity.get("Order"), Some(&100));
        assert_eq!(counts.per_entity.get("User"), Some(&3));
        let bad = DiffInput {
            items: vec!["many".into()],
            ..input
        };
        let message = bad.counts().unwrap_err().to_string();
        assert!(
            message.starts_with("`items` `many`: expected N"),
            "{message}"
        );
    }
}
