"""What a report's rows say, for every page that shows them: which rows were timed, which are tied
with the fastest (by their paired intervals, else by the noise floor), where a speed-up stands
against 1 (a win, a tie or a loss), whether the report has baselines and paired intervals, the
instruction counts and instructions per cycle of a row, and why a backend has no row at all.
"""

import math
import re

from .catalogue import ordered
from .formatting import format_ns


# The features each backend needs, as the report's machine lists the ones it lacks.
NEEDS = {
    "sse2": ["sse2", "ssse3", "sse4.1", "sse4.2", "popcnt"],
    "avx2": ["avx2", "bmi1", "bmi2", "lzcnt", "popcnt"],
    "avx512": ["avx512f", "avx512bw", "avx512vl", "avx512vbmi", "avx512vbmi2", "gfni",
               "avx512vpopcntdq", "avx512bitalg"],
}


def missing_features(backend, report):
    lacks = report["machine"].get("missing_features", [])
    return [f for f in NEEDS.get(backend, []) if f in lacks]


def not_measured(backend, report, short=False):
    """Why a backend has no row in the report, in the report's own terms: in full, or (short) in a
    few words for the line under each table."""
    missing = missing_features(backend, report)
    if missing:
        if short:
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            return f"not run on this CPU (it lacks {missing[0]}{more} of the features the backend needs)"
        return f"not run: this CPU lacks {', '.join(missing)}"
    if backend == "portable":
        if short:
            return "not built into the lab that measured (nightly `portable-simd`)"
        return "not run: the report's lab was built without the `portable-simd` feature"
    return "not measured in this report"


def unmeasured_line(backends, report):
    """One short line for the backends a table leaves out, instead of a row of empty cells each."""
    if not backends:
        return ""
    return "*" + "; ".join(f"{b}: {not_measured(b, report, short=True)}" for b in backends) + ".*\n"


def is_fair(report):
    """Whether the report has baselines (`qbb compare` since the baselines), or only the naive
    ratio over the scalar reference (older reports)."""
    return any(r.get("baseline") for r in report["results"])


def timed(rows):
    return [r for r in rows if r["ns_per_op"] == r["ns_per_op"]]  # drops NaN


def tied_fastest(rows, noise):
    """The fastest row and every row tied with it, as `qbb compare` bolds them: by the rows' own
    paired intervals (`tied_with_fastest`) where the run has them, else within the noise floor;
    nothing when fewer than two rows were timed."""
    rows = timed(rows)
    if len(rows) < 2:
        return []
    if all("tied_with_fastest" in r for r in rows):
        return [r for r in rows if r["tied_with_fastest"]]
    best = min(r["ns_per_op"] for r in rows)
    return [r for r in rows if r["ns_per_op"] <= best * (1 + (noise or 0))]


def is_paired(report):
    """Whether the report's speed-ups are paired estimates with intervals (`qbb compare` since
    it times in turns)."""
    return any(r.get("speedup_interval") for r in report["results"])


def tie_margin(report):
    """How near 1 a paired interval may reach and still be a tie, as the report records it
    (`tie_margin`, the lab's `estimate::TIE_MARGIN`); 0, an interval that includes 1, in a report
    written before the lab had a margin."""
    return float(report.get("tie_margin") or 0.0)


def interval_tie_text(report):
    """What makes a paired interval a tie in `report`, after "the interval": "reaches within 1 % of
    1" (or "includes 1", where the report has no margin)."""
    margin = tie_margin(report)
    return f"reaches within {margin * 100:g} % of 1" if margin else "includes 1"


def interval_standing(low, high, margin):
    """1 when the whole interval lies above 1 + margin, -1 when it lies below 1 / (1 + margin),
    0 a tie: the lab's rule (`Interval::verdict_within`, benches/src/estimate.rs)."""
    return 1 if low > 1 + margin else -1 if high * (1 + margin) < 1 else 0


def against_one(row, noise, margin=0.0):
    """Where a row's speed-up over its baseline stands: 1 above, 0 a tie, -1 below; by its
    interval and the tie margin where it has one, else against the noise floor."""
    if row.get("speedup_interval"):
        low, high = row["speedup_interval"]
        return interval_standing(low, high, margin)
    ratio = row["speedup_vs_baseline"]
    return 1 if ratio > 1 + noise else 0 if ratio * (1 + noise) >= 1 else -1


def instructions_of(row, count):
    """Instructions per call: the row's own (results.json gains them from an instructions.json
    beside it), else the report's instructions.json."""
    if row.get("instructions_per_op") is not None:
        return row["instructions_per_op"]
    return count["instructions_per_call"] if count else None


def ipc_of(row, count):
    """Instructions per cycle: the row's own, else the count over the row's cycles."""
    if row.get("ipc") is not None:
        return row["ipc"]
    instructions, cycles = instructions_of(row, count), row.get("cycles_per_op")
    return instructions / cycles if instructions is not None and cycles else None


def counted_another_copy(row):
    """Whether the row's instruction count is of other code than its time, as the lab records it
    (`counted_another_copy` in results.json): valgrind hides AVX-512 from `cpuid`, so on a CPU with
    AVX-512 the portable backend was counted running its AVX2 copy and timed running its AVX-512
    one."""
    return "counted_another_copy" in row


COUNTED_ANOTHER_COPY = ("‡ Counted under valgrind, which hides AVX-512: the portable backend ran its "
                        "AVX2 copy there and its AVX-512 copy in the timing, so no instructions per "
                        "cycle are given for it")


def by_benchmark(rows):
    groups = {}
    for r in rows:
        groups.setdefault(r["benchmark"], []).append(r)
    return groups


def fastest_text(rows, noise):
    """The fastest implementation, and those tied with it: `avx2`, or `sse2 = avx2`."""
    tied = tied_fastest(rows, noise) or timed(rows)
    best = min(tied, key=lambda r: r["ns_per_op"])
    others = [b for b in ordered(r["backend"] for r in tied) if b != best["backend"]]
    return " = ".join([best["backend"]] + others)


def per_call(r):
    """A row's time per call: cycles when the clock was measured, else nanoseconds."""
    if r.get("cycles_per_op"):
        return f"{format_ns(r['cycles_per_op'])} cycles"
    return f"{format_ns(r['ns_per_op'])} ns"


def inherited_from(row):
    """The backend whose code an inherited row ran, or None."""
    m = re.fullmatch(r"inherited: from (\w+) \((.*)\)", row["support"])
    return m.group(1) if m else None


MIN_TURNS_FOR_INTERVAL = 6


def lower_rank(n):
    """The sign test's rank for a 95 % interval of the median, as the lab takes it
    (`benches/src/estimate.rs`)."""
    half_width = 0.98 * math.sqrt(n)
    return min(max(math.floor(n / 2 - half_width), 0), (n - 1) // 2)


def chosen_turns(row):
    """The turns a row's figures come from, if its report names them: its turns in the run's
    usual state (`usual_turns`) or, in a report made before, its quiet turns."""
    return row.get("usual_turns") or row.get("quiet_turns")


def counted_turns_text(rows):
    """What the turns a report's figures come from are, as a sentence names them."""
    rows = list(rows)
    if any(r.get("usual_turns") for r in rows):
        return "the turns in the run's usual state"
    if any(r.get("quiet_turns") for r in rows):
        return "the quiet turns"
    return "the turns"


def counted_times(row):
    """The times of the turns a row's figures come from ([`chosen_turns`]), or every turn in a
    report that names none."""
    turns = row.get("turn_ns")
    chosen = chosen_turns(row)
    return [turns[t] for t in chosen] if turns and chosen else turns


def paired_interval(reference, subject):
    """The speed-up of `subject` over `reference` from their times turn by turn: (low, median,
    high) of the turns' ratios, or None with fewer than six turns."""
    ratios = sorted(r / s for r, s in zip(reference, subject) if s > 0 and math.isfinite(r / s))
    n = len(ratios)
    if n < MIN_TURNS_FOR_INTERVAL:
        return None
    median = ratios[n // 2] if n % 2 else (ratios[n // 2 - 1] + ratios[n // 2]) / 2
    k = lower_rank(n)
    return ratios[k], median, ratios[n - 1 - k]
