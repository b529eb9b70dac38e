"""Generates model/arm.md: llvm-mca's predictions of the neon backend on ARM cores, beside the
same routine's predictions for the scalar-class code on those cores and for the x86 backends on an
x86 core, from a model file of its own (`qbb model --cpu default,apple-m4,neoverse-v2 --out
reports/arm-model`). Predictions only: no ARM machine has timed the lab here, and the page says so.
"""

from pathlib import Path

from .catalogue import GROUPS, routine_id
from .inputs import HEADER, InputError, read_json
from .model_checks import caveat_marks

# The x86 core whose predictions stand beside the ARM ones: the newest AMD core the model file
# asks about that runs the avx512 backend.
X86_CORE = "znver4"


def arm_cores(model):
    return [c for c in model["cpus"] if c.get("isa") == "aarch64"]


def schedules_as_cyclone(model):
    """Whether llvm-mca modelled `apple-m4` with its model of Apple's first 64-bit core, Cyclone
    (the resources it names are `Cy…`): LLVM has no model of the M4's own."""
    return any(str(p.get("busiest_resource", {}).get("name", "")).startswith("Cy")
               for p in model["predictions"] if p["cpu"] == "apple-m4")


def cell(prediction):
    if prediction is None:
        return "–"
    mark = " †" if str(prediction.get("support", "")).startswith("inherited") else ""
    return f"{prediction['cycles_per_call']:.2f}{caveat_marks(prediction)}{mark}"


def arm_page(model_path):
    """The page, or a line that says there is no model of ARM cores yet."""
    model_path = Path(model_path)
    model = read_json(model_path)
    try:
        cores = arm_cores(model)
        predictions = {(p["routine"], p["backend"], p["cpu"]): p for p in model["predictions"]}
        measured = model["aarch64_measured"]
        mca = model["llvm_mca_aarch64"]["version"]
    except KeyError as e:
        raise InputError(f"{model_path}: no {e} (made by `qbb model --cpu ...,apple-m4`?)") from None
    text = HEADER.format(source=f"`{model_path.as_posix()}`")
    if not cores:
        return text + f"`{model_path.as_posix()}` models no ARM core.\n"
    names = [c["name"] for c in cores]
    columns = ([f"neon, {n}" for n in names] + [f"swar, {n}" for n in names]
               + [f"{b}, {X86_CORE}" for b in ("sse2", "avx2", "avx512")])
    text += "| routine | " + " | ".join(columns) + " |\n"
    text += "| --- |" + " ---: |" * len(columns) + "\n"
    for _group, _chapter, probes in GROUPS:
        for probe in probes:
            routine = routine_id(probe)
            cells = [cell(predictions.get((routine, "neon", n))) for n in names]
            cells += [cell(predictions.get((routine, "swar", n))) for n in names]
            cells += [cell(predictions.get((routine, b, X86_CORE))) for b in ("sse2", "avx2", "avx512")]
            text += f"| `{routine}` | " + " | ".join(cells) + " |\n"
    titles = "; ".join(f"{c['name']}: {c['title']}" for c in cores)
    text += (f"\nCycles per call in llvm-mca's models ({mca} for the ARM cores; {titles}). "
             f"† inherited: the backend runs another's code for that routine; ↺ a loop the model "
             f"runs once, → a call it does not follow (as on the rest of this page). "
             f"The ARM rows are {measured}.\n")
    if schedules_as_cyclone(model):
        text += ("\nLLVM has no scheduling model of the M4's own: `-mcpu=apple-m4` schedules with "
                 "its model of Apple's first 64-bit core (its resources are named `Cy…`, for "
                 "Cyclone), so that column is a rough guide.\n")
    return text
