//! `monotable import --from nosql-workbench FILE`: a NoSQL Workbench data model back into a
//! monotable model file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
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
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let Source::NosqlWorkbench = args.from;
    let imported = monotable_export::workbench::import_nosql_workbench_detailed(&text)
        .with_context(|| format!("{} is not a NoSQL Workbench model", args.file.display()))?;
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
