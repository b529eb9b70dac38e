"""Checks taken on several machines: the measuring chapter's tables of where each result lands and
of what a shared core does list every machine's `stack.json` and `neighbour.json`, and a check
the book's machine lacks is taken from the report measured last by the date it records, whatever
order a checkout wrote the files in.

    python3 -m unittest discover -s book/tools -p 'test_stack.py'
"""

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen import noise, results  # noqa: E402
from gen.noise import agreement_table, neighbour_check, stack_check  # noqa: E402


def stack_file(folder, slow_pads):
    """A stack.json of 8 paddings 16 bytes apart, 2 ns a call but 8 ns at `slow_pads` before."""
    def runs(slow):
        return [{"pad": pad, "ns_per_op": 8.0 if pad in slow else 2.0, "speedup": 0.8}
                for pad in range(0, 128, 16)]
    labs = [
        {"lab": "before", "commit": "aaaaaaa", "median_ns": 2.0, "fastest_ns": 2.0,
         "slowest_ns": 8.0 if slow_pads else 2.0, "slow_runs": len(slow_pads),
         "speedups": [0.2, 0.8], "runs": runs(slow_pads)},
        {"lab": "after", "commit": "bbbbbbb", "median_ns": 2.0, "fastest_ns": 2.0,
         "slowest_ns": 2.0, "slow_runs": 0, "speedups": [0.8, 0.8], "runs": runs(())},
    ]
    folder.mkdir(parents=True)
    path = folder / "stack.json"
    path.write_text(json.dumps({
        "machine": folder.name, "command": f"reports/stack-check.sh {folder.name}",
        "rustc": "rustc 1.95.0", "benchmark": "piece-sets", "backend": "avx512",
        "step_bytes": 16, "labs": labs}))
    return path


class StackCheck(unittest.TestCase):
    def test_every_machine_is_a_row_of_the_table_with_its_own_slow_paddings(self):
        with tempfile.TemporaryDirectory() as tmp:
            slow = stack_file(Path(tmp) / "reports" / "cpu-a", (32, 48))
            steady = stack_file(Path(tmp) / "reports" / "cpu-b", ())
            text = stack_check([slow, steady])
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertEqual([row.split("|")[1].strip() for row in rows],
                         ["`cpu-a`", "`cpu-a`", "`cpu-b`", "`cpu-b`"])
        self.assertIn("| 2 of 8 |", rows[0])
        self.assertIn("`cpu-a`: `piece-sets` on avx512, paddings from 0 to 112 bytes by 16; "
                      "before, the slow runs were those padded by 32 to 48 bytes", text)
        self.assertNotIn("`cpu-b`: `piece-sets` on avx512, paddings from 0 to 112 bytes by 16; "
                         "before", text)

    def test_no_stack_file_says_which_command_writes_one(self):
        self.assertIn("reports/stack-check.sh", stack_check([]))


def agreement_file(folder, usual_states):
    """A results.json whose agreement has these usual probe figures (none: an older file)."""
    agreement = {"runs": 2, "processes": 2, "reference": "swar-v3", "ratios": 3,
                 "median": 0.005, "p90": 0.014, "max": 0.061, "tie_margin": 0.01,
                 "widest": [{"benchmark": "flip", "backend": "avx2", "first": 1.3,
                             "other": 1.2}],
                 "verdict_changes": [], "tie_changes": 1}
    if usual_states:
        agreement["usual_states"] = usual_states
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps({"agreement": agreement, "results": []}))


class AgreementTable(unittest.TestCase):
    def test_the_band_is_the_labs(self):
        source = (Path(__file__).resolve().parents[2] / "benches" / "src" / "neighbour.rs")
        self.assertIn(f"pub const STATE_BAND: f64 = {noise.STATE_BAND};", source.read_text())

    def test_each_repeated_run_says_whether_its_cores_were_in_one_state(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "reports"
            agreement_file(root / "cpu-a", [10.8, 10.2])
            agreement_file(root / "cpu-b", [10.8, 6.5])
            agreement_file(root / "cpu-c", None)
            rows = [line for line in agreement_table(root).splitlines()
                    if line.startswith("| `")]
        self.assertEqual([row.rsplit("|", 2)[1].strip() for row in rows],
                         ["10.8, 10.2: one state", "10.8, 6.5: not one state", "—"])


def neighbour_file(folder, alone_turns, older=False):
    """A neighbour.json of three runs of 60 turns, the core alone in `alone_turns[i]` of run i;
    avx512 1.5x swar-v3 alone and 1.7x shared, the quietest third of all turns lower the more
    turns ran alone; an `older` file has no quietest third of the usual state."""
    def run(alone):
        shared = 60 - alone
        state = {} if older else {"usual_state": "shared" if shared >= alone else "alone"}
        return {"turns": 60, "alone_turns": alone, "shared_turns": shared, **state,
                "probe_alone": 10.8 if alone else None, "probe_shared": 6.6 if shared else None,
                "clock_ghz": 2.3,
                "implementations": {"avx512": {
                    "reported": 1.7 if shared >= alone else 1.5,
                    "alone": 1.5 if alone >= 6 else None,
                    "shared": 1.7 if shared >= 6 else None,
                    "all_turns": 1.6,
                    "quietest_third_of_all": 1.7 - alone / 100,
                    **({} if older else {"quietest_third_of_usual": 1.68})}}}
    folder.mkdir(parents=True)
    path = folder / "neighbour.json"
    path.write_text(json.dumps({
        "machine": folder.name, "command": f"reports/neighbour-check.sh {folder.name} 3",
        "commit": "ccccccc", "rustc": "rustc 1.97.0-nightly", "benchmark": "weighted-popcount",
        "reference": "swar-v3", "band": 0.1, "alone_figure": 11.0,
        "runs": [run(a) for a in alone_turns]}))
    return path


class NeighbourCheck(unittest.TestCase):
    def test_each_state_is_a_range_over_the_runs_that_had_enough_turns_in_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            mixed = neighbour_file(Path(tmp) / "reports" / "cpu-a", (0, 3, 20))
            alone = neighbour_file(Path(tmp) / "reports" / "cpu-b", (60, 60, 60), older=True)
            text = neighbour_check([mixed, alone])
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertEqual(rows[0], "| `cpu-a` | avx512 | 1.70× | 1.50× (1 of the runs) | 1.70× | "
                                  "1.60× | 1.50× to 1.70× | 1.68× |")
        self.assertEqual(rows[1], "| `cpu-b` | avx512 | 1.50× | 1.50× | — | 1.60× | 1.10× | — |")
        self.assertIn("the core ran alone in 0 to 20 of 60 turns a run (about 10.8 additions a "
                      "nanosecond alone, 6.6 shared)", text)
        self.assertIn("the most any implementation's ratio moved over the runs, as reported 0.0 %, "
                      "alone —, shared 0.0 %, every turn 0.0 %, quietest third of all 13.3 %, "
                      "quietest third of the usual state 0.0 %; the usual state", text)
        self.assertIn("alone in 60 of 60 turns a run (about 10.8 additions a nanosecond alone)",
                      text)
        self.assertIn("was a shared one in every run; commit", text)
        self.assertEqual(text.count("in every run"), 1, "the older file names no state")

    def test_runs_all_alone_say_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            alone = neighbour_file(Path(tmp) / "reports" / "cpu-d", (60, 45, 59))
            text = neighbour_check([alone])
        self.assertIn("the usual state the lab's estimates came from was the alone one in every "
                      "run; commit", text)

    def test_runs_in_both_states_say_how_far_the_ratios_moved_within_each(self):
        with tempfile.TemporaryDirectory() as tmp:
            both = neighbour_file(Path(tmp) / "reports" / "cpu-c", (10, 50, 55))
            text = neighbour_check([both])
        self.assertIn("the usual state the lab's estimates came from was the alone one in 2 runs "
                      "and a shared one in the other 1, and as reported moved by 0.0 % at most "
                      "within the first and — within the second", text)

    def test_no_neighbour_file_says_which_command_writes_one(self):
        self.assertIn("reports/neighbour-check.sh", neighbour_check([]))


class NewestReport(unittest.TestCase):
    def test_the_date_a_file_records_decides_not_when_the_checkout_wrote_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            reports = Path(tmp) / "reports"
            for name, date, mtime in (("old", "2026-11-01 10:00 UTC", 2_000_000_000),
                                      ("new", "2026-12-01 10:00 UTC", 1_000_000_000)):
                (reports / name).mkdir(parents=True)
                path = reports / name / "threads.json"
                path.write_text(json.dumps({"date": date}))
                os.utime(path, (mtime, mtime))
            (reports / "book").mkdir()
            saved = results.REPO
            results.REPO = Path(tmp)
            try:
                chosen = results.own_or_newest(reports / "book", "threads.json")
                own = results.own_or_newest(reports / "old", "threads.json")
            finally:
                results.REPO = saved
        self.assertEqual(chosen.parent.name, "new")
        self.assertEqual(own.parent.name, "old")


if __name__ == "__main__":
    unittest.main()
