"""The book generator fed damaged report files: `generate.py results` given an empty, truncated
or corrupted results.json or instructions.json stops with one line naming the file and the
field, no traceback, and writes nothing.

    python3 -m unittest discover -s book/tools -p 'test_generate.py'
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT = HERE.parent.parent / "reports" / "amd-epyc-f23m1"


def damaged(text, change):
    """Empty, cut in half, and `change` applied to the parsed file: each with the words its
    error must hold."""
    data = json.loads(text)
    field = change(data)
    return [
        ("empty", "", "not JSON"),
        ("truncated", text[: len(text) // 2], "not JSON"),
        ("corrupted", json.dumps(data, indent=2), f"field `{field}`"),
    ]


def wrong_figure(key):
    def change(data):
        data["results"][3][key] = "fast"
        return f"results[3].{key}"
    return change


def missing(*keys):
    def change(data):
        obj = data
        for key in keys[:-1]:
            obj = obj[key]
        del obj[keys[-1]]
        return ".".join(keys)
    return change


class DamagedInputs(unittest.TestCase):
    def check(self, name, change):
        original = (REPORT / name).read_text()
        for what, text, expected in damaged(original, change):
            with self.subTest(file=name, damage=what), tempfile.TemporaryDirectory() as tmp:
                report = Path(tmp) / "report"
                report.mkdir()
                for other in ["results.json", "instructions.json"]:
                    shutil.copy(REPORT / other, report / other)
                (report / name).write_text(text)
                out = Path(tmp) / "generated"
                run = subprocess.run(
                    [sys.executable, str(HERE / "generate.py"), "results", str(report)],
                    capture_output=True, text=True,
                    env={**os.environ, "QBB_BOOK_GENERATED": str(out)},
                )
                self.assertEqual(run.returncode, 1, run.stderr)
                self.assertNotIn("Traceback", run.stderr)
                lines = run.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, run.stderr)
                self.assertTrue(lines[0].startswith("generate: "), lines[0])
                self.assertIn(str(report / name), lines[0])
                self.assertIn(expected, lines[0])
                self.assertFalse(out.exists(), "nothing is written on bad input")

    def test_a_damaged_results_json(self):
        self.check("results.json", wrong_figure("ns_per_op"))

    def test_a_results_json_without_its_machine(self):
        self.check("results.json", missing("machine", "id"))

    def test_a_damaged_instructions_json(self):
        self.check("instructions.json", wrong_figure("instructions_per_call"))


if __name__ == "__main__":
    unittest.main()
