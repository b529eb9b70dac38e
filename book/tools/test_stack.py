"""Checks taken on several machines: the measuring chapter's table of where each result lands
lists every machine's `stack.json`, and a check the book's machine lacks is taken from the
report measured last by the date it records, whatever order a checkout wrote the files in.

    python3 -m unittest discover -s book/tools -p 'test_stack.py'
"""

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen import results  # noqa: E402
from gen.noise import stack_check  # noqa: E402


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
