"""Generates model/, the model page (the `model` command): llvm-mca's predictions of every routine
on every CPU of a report's model.json, predicted against measured on the report's machine, and the
checks of every row that differs. The report is the chosen machine's, or else the most recent one
that has a model; the probes' code is read from the listings the model was made from when this
checkout still has them, else from those generate.sh made."""

import sys
from pathlib import Path

from .inputs import HEADER, OUT, REPO, read_json, write
from .model_comparison import COMPARISON_FILES, comparison_files
from .model_facts import ModelFacts
from .model_listings import read_listing
from .model_predictions import (avx512_file, avx512_measured_file, block_file, cpus_file,
                                gather_file, overview_file, predictions_file, provenance_file)

# The files of the page's predictions, in the order the page includes them.
PREDICTION_FILES = {"provenance": provenance_file, "cpus": cpus_file, "overview": overview_file,
                    "predictions": predictions_file, "avx512": avx512_file,
                    "avx512-measured": avx512_measured_file, "block": block_file,
                    "gather": gather_file}

# Every file the page includes, each written whatever the report holds.
MODEL_FILES = list(PREDICTION_FILES) + COMPARISON_FILES


def model_report(report_dir):
    """The folder whose model.json the book shows: the chosen machine's, or else the most recent
    model among the other reports (by the date each model.json records)."""
    report_dir = Path(report_dir)
    if (report_dir / "model.json").exists():
        return report_dir
    found = []
    for other in sorted(report_dir.parent.iterdir()):
        path = other / "model.json"
        if path.exists():
            found.append((read_json(path).get("date", ""), other))
    if not found:
        return None
    chosen = max(found)[1]
    print(f"generate: {report_dir}/model.json is missing; the model page shows {chosen}",
          file=sys.stderr)
    return chosen


def model_section(model, report_dir, listings):
    """The generated files of the model page, name -> text."""
    facts = ModelFacts(model, report_dir, listings)
    files = {name: make(facts) for name, make in PREDICTION_FILES.items()}
    files.update(comparison_files(facts))
    return files


def write_model_page(report_dir, listing_paths):
    """book/src/generated/model/: llvm-mca's predictions of the report's model.json, predicted
    against measured for its machine, and the checks of every row that differs."""
    out = OUT / "model"
    chosen = model_report(report_dir)
    if chosen is None:
        text = HEADER.format(source="reports/") + (
            "No report in `reports/` has a `model.json` yet: `qbb model` writes it "
            "(reports/README.md says how).\n")
        for name in MODEL_FILES:
            write(out / f"{name}.md", text)
        return
    model = read_json(chosen / "model.json")
    # The listings the model read, when this checkout still has them (made by the compiler the
    # model names: a later `qbb model` may have written the same file with another), before those
    # generate.sh made; a probe is taken from the first listing whose copy has as many
    # instructions as llvm-mca modelled.
    listings = []
    for recorded in model["listings"]:
        path = REPO / recorded["file"]
        if path.exists() and (listing := read_listing(path))["compiler"] == recorded["compiler"]:
            listings.append(listing)
    listings += [read_listing(Path(p)) for p in listing_paths]
    for name, text in model_section(model, chosen, listings).items():
        write(out / f"{name}.md", text)
