"""Generates the move generator's tables from a report's perft files: the engine against
cozy-chess and shakmaty and its margins in a sentence (built as shipped and for the CPU), its own
attack tables against the backends' set-wise routines, perft on one thread and on all of them, and
the instructions per leaf of each step of the move generator's speed work.
"""

from .formatting import and_list, format_ratio, ratio_range
from .inputs import HEADER, read_json


def perft_table(p, path, machine_id):
    source = f"reports/{machine_id}/{path.name}"
    text = HEADER.format(source=f"`{source}`")
    rows = p["results"]
    # Thread CPU time, when the bench reports it, is less disturbed by other work on the machine.
    key = "cpu_mnps" if all("cpu_mnps" in r for r in rows) else "mnps"
    speed = {(r["case"], r["runner"]): r[key] for r in rows}
    text += "| case | runner | nodes | Mnps | vs cozy-chess | vs shakmaty |\n"
    text += "| --- | --- | ---: | ---: | ---: | ---: |\n"
    for r in rows:
        cozy = speed.get((r["case"], "cozy-chess"))
        shak = speed.get((r["case"], "shakmaty"))
        ratio = lambda peer: f"{r[key] / peer:.2f}" if peer else ""
        text += (
            f"| {r['case']} | {r['runner']} | {r['nodes']} | {r[key]:.1f} | {ratio(cozy)} | "
            f"{ratio(shak)} |\n"
        )
    text += (
        "\nMillions of leaf nodes per second"
        + (" of thread CPU time" if key == "cpu_mnps" else "")
        + f", single thread, best of {p['rounds']} rounds with the "
        f"runners interleaved; \"bulk\" counts the last ply's moves without playing them. "
        f"Measured on {p['cpu']}, {p['rustc']}, {p['date']}; by `{p['command']}`.\n"
    )
    return text


def perft_steps_table(path):
    """Instructions per leaf of each step of the move generator's speed work, and its speed, from
    `reports/<machine>/perft-steps.json` (reports/perft-steps.sh): one row per commit, one column
    per perft, and each step's change against the one before."""
    if path is None:
        return ("*No report has `perft-steps.json` yet: `reports/perft-steps.sh MACHINE` "
                "writes it.*\n")
    d = read_json(path)
    runs = [r["run"] for r in d["steps"][0]["runs"]]
    timed = all("mnps_one_ply_deeper" in r for step in d["steps"] for r in step["runs"])
    text = HEADER.format(source=f"`reports/{path.parent.name}/{path.name}`")
    text += "| commit | change | " + " | ".join(runs) + " |\n"
    text += "| --- | --- | " + " | ".join("---:" for _ in runs) + " |\n"
    before = None
    for step in d["steps"]:
        per_leaf = [r["instructions"] / r["leaves"] for r in step["runs"]]
        speed = [r.get("mnps_one_ply_deeper") for r in step["runs"]]
        cells = []
        for i, value in enumerate(per_leaf):
            change = f" ({(value / before[0][i] - 1) * 100:+.1f} %)" if before else ""
            cell = f"{value:.1f}{change}"
            if timed:
                change = f" ({(speed[i] / before[1][i] - 1) * 100:+.1f} %)" if before else ""
                cell += f"<br>{speed[i]:.0f} Mnps{change}"
            cells.append(cell)
        text += f"| `{step['commit']}` | {step['change']} | " + " | ".join(cells) + " |\n"
        before = (per_leaf, speed)
    first = [r["instructions"] for r in d["steps"][0]["runs"]]
    last = [r["instructions"] for r in d["steps"][-1]["runs"]]
    fewer = and_list([f"{b / a:.2f} ({run})" for run, a, b in zip(runs, last, first)])
    text += (
        f"\nInstructions per leaf of `qbb perft` on the {d['backend']} backend under callgrind "
        f"(the start-up, counted by a perft of one ply, taken off), each commit built by "
        f"{d['rustc']}; in brackets the change from the row above. From the first row to the "
        f"last the instructions per leaf fall by a factor of {fewer}."
    )
    if timed:
        faster = and_list([
            f"{s[-1]['mnps_one_ply_deeper'] / s[0]['mnps_one_ply_deeper']:.2f} ({run})"
            for run, s in zip(runs, zip(*[step["runs"] for step in d["steps"]]))
        ])
        text += (
            f" Under each count, the speed of the same perft one ply deeper (million leaves per "
            f"second, wall time, best of five rounds in which every step runs in turn, on "
            f"{d.get('cpu', 'the same machine')}): from the first row to the last it rises by a "
            f"factor of {faster}."
        )
    text += f" By `{d['command']}`.\n"
    return text


def perft_speed(p):
    """(case, runner) -> Mnps, by thread CPU time where the bench reports it; and the key used."""
    rows = p["results"]
    key = "cpu_mnps" if all("cpu_mnps" in r for r in rows) else "mnps"
    return {(r["case"], r["runner"]): r[key] for r in rows}, key


def perft_margins(p, path, machine_id):
    """The engine's fastest backend against the two crates, in one sentence per counting mode."""
    speed, _key = perft_speed(p)
    cases = list(dict.fromkeys(r["case"] for r in p["results"]))
    engines = [r for r in dict.fromkeys(r["runner"] for r in p["results"])
               if r.startswith("qbb-engine ") and "(" not in r]
    bulk = [c for c in cases if c.endswith(" bulk") and not c.endswith("no-bulk")]
    no_bulk = [c for c in cases if c.endswith("no-bulk")]
    if not bulk or not no_bulk or not engines:
        raise SystemExit(f"generate: {path} lacks bulk or no-bulk cases of qbb-engine")
    best = max(engines, key=lambda e: min(speed[(c, e)] for c in bulk))
    backend = best.removeprefix("qbb-engine ")

    def against(peer, group):
        return ratio_range([speed[(c, best)] / speed[(c, peer)] for c in group])

    text = HEADER.format(source=f"`reports/{machine_id}/{path.name}`")
    if p.get("build") == "target-cpu=native":
        text += (
            "Built with `-C target-cpu=native`, the two crates as much as the engine, so that "
            "neither side lacks an instruction this CPU has: "
        )
    else:
        text += (
            "Built as shipped, for baseline x86-64: the engine enters its backends' feature "
            "regions at run time, while the two crates get no instruction beyond the baseline. "
        )
    text += (
        f"With bulk counting, the engine on its {backend} backend, its fastest here, counts "
        f"{against('cozy-chess', bulk)} times as many nodes per second as cozy-chess and "
        f"{against('shakmaty', bulk)} times as many as shakmaty in the same run. Without bulk "
        f"counting the margin is {against('cozy-chess', no_bulk)} times over cozy-chess and "
        f"{against('shakmaty', no_bulk)} times over shakmaty.\n"
    )
    return text


def threads_table(path, measure):
    """Perft on one thread and on all of a machine's logical CPUs, from its threads.json."""
    if path is None:
        return f"*No report has a `threads.json` yet: {measure} writes it.*\n"
    t = read_json(path)
    machine = path.parent.name
    text = HEADER.format(source=f"`reports/{machine}/threads.json`")
    text += "| position | threads | Mnps (median) | over one thread |\n| --- | ---: | ---: | ---: |\n"
    for r in t["rows"]:
        text += (
            f"| {r['position']} d{r['depth']} | {r['threads']} | {r['median_mnps']:.1f} | "
            f"{format_ratio(r['speedup_vs_one_thread'])}× |\n"
        )
    text += (
        f"\nMeasured on `{machine}` ({t['logical_cpus']} logical CPUs) with the {t['backend']} "
        f"backend that automatic selection picks there, bulk counting, median of {t['runs']} runs "
        f"per thread count, alternating; {t['rustc']}, {t['date']}, load average {t['load']} at "
        f"the end; by `{t['command']}`.\n"
    )
    return text


def perft_attacks_table(p, path, machine_id):
    """The engine with its own attack tables against the same engine taking every slider attack,
    check and pin from the backend's set-wise routines (`--attacks backend`)."""
    speed, key = perft_speed(p)
    cases = list(dict.fromkeys(r["case"] for r in p["results"]))
    runners = list(dict.fromkeys(r["runner"] for r in p["results"]))
    backends = [r.removeprefix("qbb-engine ") for r in runners
                if r.startswith("qbb-engine ") and "(" not in r
                and f"{r} (backend attacks)" in runners]
    if not backends:
        raise SystemExit(f"generate: {path} has no `(backend attacks)` rows of qbb-engine")
    text = HEADER.format(source=f"`reports/{machine_id}/{path.name}`")
    text += "| case | backend | tables (Mnps) | backend routines (Mnps) | routines / tables |\n"
    text += "| --- | --- | ---: | ---: | ---: |\n"
    ratios = {}
    for case in cases:
        for b in backends:
            tables = speed[(case, f"qbb-engine {b}")]
            routines = speed[(case, f"qbb-engine {b} (backend attacks)")]
            ratios.setdefault(case.endswith("no-bulk"), {}).setdefault(b, []).append(routines / tables)
            text += f"| {case} | {b} | {tables:.1f} | {routines:.1f} | {routines / tables:.2f} |\n"
    bulk = ratios.get(False, {})
    scalar = bulk.get("scalar", [])
    others = [r for b, rs in bulk.items() if b != "scalar" for r in rs]
    text += (
        f"\nThe same run as the table above (`reports/{machine_id}/{path.name}`), Mnps"
        + (" of thread CPU time" if key == "cpu_mnps" else "")
        + ". With bulk counting the routines reach "
        + (f"{ratio_range(others)} of the tables' speed on "
           + and_list(b for b in bulk if b != "scalar") if others else "")
        + (f"{' and ' if others else ''}{ratio_range(scalar)} on scalar" if scalar else "")
        + ".\n"
    )
    return text
