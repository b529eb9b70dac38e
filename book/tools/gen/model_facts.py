"""What every file of the model page reads from a report's model.json: its predictions, indexed by
routine, backend and CPU; the CPUs and their dispatch widths in the llvm-mca run here; the
comparison with the timings, when the model has one; the listings of the probes; and which CPUs
have an avx512 measurement beside their predictions (the others' avx512 cells are marked ◇, a
prediction only)."""

from .catalogue import BACKENDS
from .formatting import and_list
from .inputs import HEADER, REPO, read_json
from .llvm_mca import Mca
from .model_checks import caveat_marks


def avx512_timed():
    """The reports in reports/ that time the avx512 backend, each with the `-mcpu` of its own
    model.json's comparison (None where it has no model, or the model knows no CPU for it)."""
    found = {}
    for path in sorted((REPO / "reports").glob("*/results.json")):
        report = read_json(path)
        if any(r.get("backend") == "avx512" and r.get("ns_per_op") == r.get("ns_per_op")
               for r in report.get("results", [])):
            model = path.parent / "model.json"
            cpu = None
            if model.exists():
                cpu = (read_json(model).get("predicted_vs_measured") or {}).get("cpu")
            found[path.parent.name] = cpu
    return found


def modelled(p):
    """Whether llvm-mca gave prediction `p` a figure."""
    return p is not None and "cycles_per_call" in p


def has_caveat(p):
    """Whether prediction `p` is of a probe with a loop or a call llvm-mca does not follow: such a
    figure is never the fewest of a row."""
    return bool(caveat_marks(p))


class ModelFacts:
    """A report's model.json, read once for every file of the page."""

    def __init__(self, model, report_dir, listings):
        self.model = model
        self.report_dir = report_dir
        self.listings = listings
        self.header = HEADER.format(source=f"`reports/{report_dir.name}/model.json`")
        self.preds = model["predictions"]
        self.cpus = model["cpus"]
        self.cpu_names = [c["name"] for c in self.cpus]
        self.backends = [b for b in BACKENDS if any(p["backend"] == b for p in self.preds)]
        self.by_key = {(p["routine"], p["backend"], p["cpu"]): p for p in self.preds}
        self.routines = list(dict.fromkeys(p["routine"] for p in self.preds))
        self.comparison = model.get("predicted_vs_measured")
        self.machine_cpu = self.comparison["cpu"] if self.comparison else None
        self.timed_avx512 = avx512_timed()
        # The CPUs on which a report has timed the avx512 backend: their avx512 cells are
        # predictions with a measurement beside them, the others' (◇) predictions only.
        self.measured_avx512 = {cpu for cpu in self.timed_avx512.values() if cpu}
        if self.comparison and any(r["backend"] == "avx512" for r in self.comparison["rows"]):
            self.measured_avx512.add(self.machine_cpu)
        self.mca = Mca(model)
        self.widths = {c: self.mca.dispatch_width(c) for c in self.cpu_names}
        # The CPUs that run the avx512 backend.
        self.wide = [c["name"] for c in self.cpus if c["runs_avx512_backend"]]

    def diamond(self, cpu):
        """The mark of an avx512 cell on `cpu` that no report has a measurement beside."""
        return "" if cpu in self.measured_avx512 else " ◇"

    def without_avx512(self):
        """The backends whose fastest the avx512 backend is set against: the portable backend runs
        its AVX-512 copy on the CPUs that have it, so it is left out too."""
        return [b for b in self.backends if b not in ("avx512", "portable")]

    def avx512_note(self):
        """The sentence under a table with avx512 cells: which of them are predictions only."""
        if not self.timed_avx512:
            return ("◇ avx512: predictions only: no report in `reports/` has timed this backend, "
                    "so these are the lab's only figures for it.")
        on = [f"`reports/{name}`" + (f" (`{cpu}`)" if cpu else "")
              for name, cpu in self.timed_avx512.items()]
        text = ("◇ avx512 on a CPU no report has timed it on: a prediction only. "
                f"{and_list(on)} {'times' if len(on) == 1 else 'time'} the backend on real hardware")
        if not self.measured_avx512:
            return text + "."
        whose = f"`{self.machine_cpu}`'s" if self.machine_cpu in self.measured_avx512 else "them"
        each = (" (each report's `model.md` does the same for its own)"
                if len(self.measured_avx512) > 1 else "")
        return (text + f"; on `{'`, `'.join(sorted(self.measured_avx512))}` its cells carry no ◇, "
                "and [predicted against measured](#avx-512-predicted-against-measured) sets "
                f"{whose} beside the timings{each}.")
