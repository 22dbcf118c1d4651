//! `monotable import --from nosql-workbench FILE`: a NoSQL Workbench data model back into a
//! monotable model file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use monotable_export::ImportError;
use monotable_model::text::escape;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Source {
    /// NoSQL Workbench's data-model JSON (File > Export).
    NosqlWorkbench,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What the file is.
    #[arg(long = "from", value_enum)]
    from: Source,
    /// The file to import.
    file: PathBuf,
    /// Write the model here instead of standard output (an existing file is not overwritten).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let shown = args.file.display();
    let file = crate::input::open(&args.file, crate::input::WORKBENCH)
        .with_context(|| format!("cannot read {shown}"))?;
    let Source::NosqlWorkbench = args.from;
    // Streamed: the file's sample items are skipped as they are read, never held.
    let imported = monotable_export::workbench::import_nosql_workbench_from_reader(
        crate::input::Capped::new(file, crate::input::WORKBENCH),
    )
    .map_err(|e| match e {
        ImportError::Read { .. } | ImportError::TooMany { .. } => {
            anyhow::anyhow!("cannot import {shown}: {e}")
        }
        e => anyhow::Error::new(e).context(format!("{shown} is not a NoSQL Workbench model")),
    })?;
    for warning in &imported.warnings {
        eprintln!("warning: {}", escape(warning));
    }
    match &args.output {
        Some(out) => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            std::io::Write::write_all(&mut file, imported.source.as_bytes())
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        None => print!("{}", imported.source),
    }
    Ok(ExitCode::SUCCESS)
}
