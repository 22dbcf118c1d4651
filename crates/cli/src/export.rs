//! `monotable export MODEL --format ...`: the model as CreateTable JSON, CloudFormation, SAM or a
//! markdown design document.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// CreateTable input for `aws dynamodb create-table --cli-input-json`.
    CreateTable,
    /// CloudFormation template (JSON) with the table.
    Cloudformation,
    /// SAM template: the table and its least-privilege policy; with --function, a Lambda
    /// function behind an HTTP API (routes from --routes-from, public ones without authorizer).
    Sam,
    /// A design document: table, indexes, entity chart, access patterns with RCU/WCU per call,
    /// check results.
    Markdown,
    /// NoSQL Workbench data model, with `monotable verify`'s sample data as table data and one
    /// facet per entity (`monotable import --from nosql-workbench` reads it back).
    NosqlWorkbench,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The model file.
    model: PathBuf,
    /// What to export.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Write here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Seed of the sample data in a NoSQL Workbench export.
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    sam: SamArgs,
}

/// The function of a SAM export.
#[derive(Debug, Args)]
struct SamArgs {
    /// (sam) Deploy a function with the table: NAME names its resources (`Shop` gives
    /// `ShopFunction`).
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// (sam) The function's handler.
    #[arg(long, default_value = "bootstrap", requires = "function")]
    handler: String,
    /// (sam) The function's CPU architecture: the one its binary is built for.
    #[arg(long, value_enum, default_value = "x86-64", requires = "function")]
    architecture: Arch,
    /// (sam) The HTTP API's routes, from an OpenAPI document (JSON): an operation whose
    /// `security` allows no credentials is public. `monotable-shop openapi` prints the shop's.
    /// Without it, one protected `ANY /{proxy+}`.
    #[arg(long, value_name = "OPENAPI.json", requires = "function")]
    routes_from: Option<PathBuf>,
    /// (sam) Directory holding the function's `bootstrap`, relative to the template.
    #[arg(long, value_name = "DIR", requires = "function")]
    code_uri: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Arch {
    /// x86_64: what `cargo build --release` makes on x86_64 Linux.
    #[value(name = "x86-64", alias = "x86_64")]
    X86_64,
    /// arm64 (Graviton): cross-compiled, e.g. `cargo lambda build --release --arm64`.
    Arm64,
}

impl SamArgs {
    fn options(&self) -> anyhow::Result<monotable_export::SamOptions> {
        let mut options = monotable_export::SamOptions::default();
        let Some(name) = &self.function else {
            return Ok(options);
        };
        let mut function = monotable_export::FunctionOptions::new(name.as_str());
        function.handler = self.handler.clone();
        function.architecture = match self.architecture {
            Arch::X86_64 => monotable_export::Architecture::X86_64,
            Arch::Arm64 => monotable_export::Architecture::Arm64,
        };
        if let Some(path) = &self.routes_from {
            let text = crate::input::read(path, crate::input::OPENAPI)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let document: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a JSON OpenAPI document", path.display()))?;
            function.routes = monotable_export::routes_from_openapi(&document);
            if function.routes.is_empty() {
                bail!("{} declares no operations under `paths`", path.display());
            }
        }
        if let Some(code_uri) = &self.code_uri {
            options.code_uri = code_uri.clone();
        }
        Ok(options.with_function(function))
    }
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let crate::input::ModelFile {
        path,
        source,
        model,
    } = crate::input::read_model(&args.model, "nothing exported")?;
    let mut options = monotable_export::ExportOptions::default();
    let check_text;
    let capacity = |p: &monotable_model::Pattern| {
        monotable_check::cost::capacity_for(&model, p)
            .map(|(read, write)| monotable_export::Capacity { read, write })
    };
    if args.sam.function.is_some() && !matches!(args.format, ExportFormat::Sam) {
        bail!("--function and its options go with --format sam");
    }
    let format = match args.format {
        ExportFormat::CreateTable => monotable_export::Format::CreateTable,
        ExportFormat::Cloudformation => monotable_export::Format::CloudFormation,
        ExportFormat::Sam => {
            options.sam = args.sam.options()?;
            monotable_export::Format::Sam
        }
        ExportFormat::Markdown => {
            let report = monotable_check::check_source(&path, &source);
            let rendered = report.render(monotable_check::ReportFormat::Human);
            check_text = if rendered.is_empty() {
                format!("{path}: no problems found\n")
            } else {
                rendered
            };
            options.markdown.check_results = Some(&check_text);
            options.markdown.capacity = Some(&capacity);
            monotable_export::Format::Markdown
        }
        ExportFormat::NosqlWorkbench => {
            // Refused before the samples are made: a native multi-attribute key has no place there.
            if let Err(e) = monotable_export::workbench::check_representable(&model) {
                bail!("{path}: {e}");
            }
            let data: Vec<serde_json::Value> = monotable_verify::generate(&model, args.seed)
                .samples
                .iter()
                .map(|s| monotable_access::items::to_json(&s.item))
                .collect();
            let text = monotable_export::nosql_workbench(
                &model,
                &source,
                &data,
                &monotable_export::WorkbenchOptions::default(),
            )
            .with_context(|| format!("{path} cannot be exported for NoSQL Workbench"))?;
            write(&args, &text)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let text = monotable_export::export(&model, format, &options);
    write(&args, &text)?;
    if let (ExportFormat::CreateTable, Some(ttl)) =
        (args.format, monotable_export::ttl_spec(&model))
    {
        eprintln!(
            "note: CreateTable cannot set TTL; after creating the table run\n  aws dynamodb update-time-to-live --cli-input-json '{}'",
            ttl.trim()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn write(args: &ExportArgs, text: &str) -> anyhow::Result<()> {
    match &args.output {
        Some(file) => {
            std::fs::write(file, text).with_context(|| format!("cannot write {}", file.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
