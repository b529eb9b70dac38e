//! `qbb backends`: the backends, their availability on this CPU, and the routine matrix.

use std::collections::BTreeMap;
use std::process::ExitCode;

use qbb::backend::Unavailable;
use qbb::{BackendKind, Routine, Support};
use serde::Serialize;
use tabled::settings::Style;
use tabled::{Table, Tabled};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the same information as JSON.
    #[arg(long)]
    json: bool,
}

/// One backend as `--json` prints it.
#[derive(Debug, Serialize)]
struct BackendInfo {
    #[serde(skip)]
    kind: BackendKind,
    name: &'static str,
    instruction_sets: &'static str,
    available: bool,
    /// Why the backend cannot run here, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    unavailable_because: Option<String>,
    /// Whether this binary contains the backend at all.
    built: bool,
    selected: bool,
    /// Routine id -> "native" or "inherited: from X (why)"; empty when not built.
    routines: BTreeMap<&'static str, String>,
}

fn collect() -> Vec<BackendInfo> {
    let selected = BackendKind::selected().ok();
    BackendKind::ALL
        .into_iter()
        .map(|kind| {
            let availability = kind.availability();
            let routines: BTreeMap<_, _> = Routine::ALL
                .iter()
                .filter_map(|&r| kind.support(r).map(|s| (r.id(), s.to_string())))
                .collect();
            BackendInfo {
                kind,
                name: kind.name(),
                instruction_sets: kind.instruction_sets(),
                available: availability.is_ok(),
                unavailable_because: availability.err().map(|why| why.to_string()),
                built: !routines.is_empty(),
                selected: selected == Some(kind),
                routines,
            }
        })
        .collect()
}

#[derive(Tabled)]
struct Row {
    backend: String,
    #[tabled(rename = "instruction sets")]
    instruction_sets: &'static str,
    #[tabled(rename = "on this CPU")]
    available: String,
    native: String,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let infos = collect();
    if args.json {
        crate::output::print(&format!("{}\n", serde_json::to_string_pretty(&infos)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows = infos.iter().map(|b| Row {
        backend: if b.selected {
            format!("{} (selected)", b.name)
        } else {
            b.name.to_string()
        },
        instruction_sets: b.instruction_sets,
        available: match b.kind.availability() {
            Ok(()) => "available".to_string(),
            Err(Unavailable::MissingFeatures(missing)) if missing.len() > 2 => {
                format!(
                    "no: CPU lacks {} and {} more",
                    missing[0],
                    missing.len() - 1
                )
            }
            Err(Unavailable::NotBuilt(_)) => "no: not built (see --json)".to_string(),
            Err(why) => format!("no: {why}"),
        },
        native: if b.built {
            let native = b.routines.values().filter(|s| *s == "native").count();
            format!("{native}/{}", Routine::ALL.len())
        } else {
            "not built".to_string()
        },
    });
    let mut text = format!(
        "{}\n\n{}\n",
        Table::new(rows).with(Style::rounded()),
        matrix_table()
    );
    text.push_str("native: written with the backend's own instructions; <- X: inherited from X.\n");
    let reasons = inherited_reasons();
    if !reasons.is_empty() {
        text.push_str("\nWhy inherited:\n");
        for line in reasons {
            text.push_str(&format!("  {line}\n"));
        }
    }
    crate::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Routines down, backends across.
fn matrix_table() -> String {
    let mut builder = tabled::builder::Builder::default();
    let mut header = vec!["#".to_string(), "routine".to_string()];
    header.extend(BackendKind::ALL.iter().map(|k| k.name().to_string()));
    builder.push_record(header);
    for &routine in Routine::ALL {
        let mut row = vec![routine.row().to_string(), routine.id().to_string()];
        row.extend(BackendKind::ALL.iter().map(|k| match k.support(routine) {
            Some(Support::Native) => "native".to_string(),
            Some(Support::Inherited { from, .. }) => format!("<- {from}"),
            None => "not built".to_string(),
        }));
        builder.push_record(row);
    }
    builder.build().with(Style::rounded()).to_string()
}

/// One line per inherited routine, with the backend's reason.
fn inherited_reasons() -> Vec<String> {
    let mut out = Vec::new();
    for kind in BackendKind::ALL {
        for &routine in Routine::ALL {
            if let Some(Support::Inherited { from, why }) = kind.support(routine) {
                out.push(format!("{kind} {routine}: from {from}: {why}"));
            }
        }
    }
    out
}

/// A `--backend` value: a backend name, or `auto` / nothing for run-time selection (which honours
/// `QBB_BACKEND`). The backend must be available on this CPU.
pub fn parse_backend(name: Option<&str>) -> anyhow::Result<BackendKind> {
    let kind = match name {
        None => return Ok(BackendKind::selected()?),
        Some(n) if n.eq_ignore_ascii_case("auto") => return Ok(BackendKind::selected()?),
        Some(n) => n.parse::<BackendKind>()?,
    };
    kind.check_available()?;
    Ok(kind)
}
