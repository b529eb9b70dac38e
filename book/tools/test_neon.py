"""The generator of the chapters' `On NEON` sections (gen/neon.py): the code page includes neon's
own anchor or gives the reason it inherits, the machine-code page counts an AArch64 listing's
instructions and follows a tail call, the model page shows the model file's predictions with
what they are, and says when llvm-mca read another build of the probe than the listing shows.

    python3 -m unittest discover -s book/tools -p 'test_neon.py'
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True

from gen.inputs import REPO  # noqa: E402
from gen.listings import parse_functions  # noqa: E402
from gen.neon import asm_page, code_page, model_page  # noqa: E402

HERE = Path(__file__).resolve().parent

# A listing as `cargo asm --target aarch64-unknown-linux-gnu` writes it: neon's flip in lanes,
# neon's slider_attacks a tail call into swar's.
LISTING = """# rustc 1.0.0 (test)
# target aarch64-unknown-linux-gnu
qbb::probes::neon::flip::h0123456789abcdef:
.Lfunc_begin1:
\tldp q0, q1, [x0]
.Ltmp1:
\trev64 v0.16b, v0.16b
\trev64 v1.16b, v1.16b
\tstp q0, q1, [x8]
\tret
.Lfunc_end1:

qbb::probes::neon::slider_attacks::h0123456789abcdef:
.Lfunc_begin2:
\tb qbb::backend::swar::attacks::slider_attacks::hfedcba9876543210
.Lfunc_end2:

qbb::backend::swar::attacks::slider_attacks::hfedcba9876543210:
.Lfunc_begin3:
\tmov x8, x0
\tneg x9, x0
\tret
.Lfunc_end3:
"""

SUPPORT = {
    "neon": {"flip": "native",
             "slider-attacks": "inherited: from swar (one set per direction: no second lane)"},
    "swar": {"flip": "inherited: from scalar (bswap)", "slider-attacks": "native"},
    "scalar": {"flip": "native", "slider-attacks": "native"},
}


def prediction(routine, backend, cpu, cycles, instructions, support="native"):
    return {"routine": routine, "backend": backend, "cpu": cpu, "cycles_per_call": cycles,
            "instructions": instructions, "support": support, "notes": [],
            "busiest_resource": {"name": "CyUnitV" if cpu == "apple-m4" else "V2UnitV"}}


def model(neon_instructions):
    predictions = []
    for cpu, neon, swar in (("apple-m4", 2.5, 3.25), ("neoverse-v2", 2.75, 2.5)):
        predictions.append(prediction("flip", "neon", cpu, neon, neon_instructions))
        predictions.append(prediction("flip", "swar", cpu, swar, 12, "inherited: from scalar"))
        predictions.append(prediction("flip", "scalar", cpu, swar, 12))
    for backend, cycles in (("sse2", 3.5), ("avx2", 2.25), ("avx512", 1.5)):
        predictions.append(prediction("flip", backend, "znver4", cycles, 9))
    return {
        "cpus": [{"name": "znver4", "runs_avx512_backend": False},
                 {"name": "apple-m4", "isa": "aarch64"}, {"name": "neoverse-v2", "isa": "aarch64"}],
        "predictions": predictions,
        "llvm_mca": {"version": "LLVM version 19.1.7"},
        "llvm_mca_aarch64": {"version": "LLVM version 22.1.8"},
    }


class NeonPages(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.listing = Path(tmp.name, "aarch64.s")
        self.listing.write_text(LISTING)
        self.functions = parse_functions(self.listing)

    def test_code_includes_neons_own_anchor(self):
        page = code_page("flip", ["flip"], SUPPORT)
        include = "../../../../../crates/qbb/src/backend/neon/moves.rs:flip"
        self.assertIn("{{#include " + include + "}}", page)
        # The path is relative to book/src/generated/neon/code/ and names the anchor's file.
        source = (REPO / "book/src/generated/neon/code" / include.split(":")[0]).resolve()
        self.assertIn("// ANCHOR: flip", source.read_text())

    def test_code_of_an_inherited_routine_is_its_reason(self):
        page = code_page("slider_attacks", ["slider_attacks"], SUPPORT)
        self.assertIn("inherited from `swar`: one set per direction: no second lane.", page)
        self.assertNotIn("#include", page)

    def test_asm_counts_and_follows_the_tail_call(self):
        page = asm_page(["flip"], self.functions, "rustc 1.0.0 (test)", SUPPORT)
        self.assertIn("Compiled by rustc 1.0.0 (test) for AArch64.", page)
        self.assertIn("| `flip` | not built | not built | 5 |", page)
        self.assertIn("neon: <code>flip</code>, 5 instructions</summary>", page)
        self.assertIn("```armasm\nqbb::probes::neon::flip:\n    ldp q0, q1, [x0]", page)
        page = asm_page(["slider_attacks"], self.functions, None, SUPPORT)
        self.assertIn("| `slider_attacks` | not built | not built | 1 + 3 (inherited) |", page)
        self.assertIn("qbb::backend::swar::attacks::slider_attacks:\n    mov x8, x0", page)

    def test_model_rows_say_what_they_are(self):
        page = model_page(["flip"], model(4), "model.json", self.functions)
        self.assertIn("| `apple-m4` (Cyclone's model) | 3.25 | 3.25 † | 2.50 neon |", page)
        self.assertIn("| `neoverse-v2` | 2.50 | 2.50 † | 2.75 neon |", page)
        # This znver4 does not run the avx512 backend: its lowest SIMD prediction is avx2's.
        self.assertIn("| `znver4` | – | – | 2.25 avx2 |", page)
        self.assertIn("No ARM silicon measured these.", page)
        self.assertIn("LLVM 22.1.8 for the ARM cores, 19.1.7 for x86", page)
        self.assertIn("fewer cycles for neon than for swar on apple-m4 only.", page)
        self.assertNotIn("another build", page)

    def test_a_group_has_a_table_per_routine(self):
        data = model(4)
        data["predictions"] += [dict(p, routine="slider-attacks", support="inherited: from swar")
                                for p in data["predictions"] if p["backend"] in ("neon", "swar")]
        page = model_page(["flip", "slider_attacks"], data, "model.json", self.functions)
        self.assertEqual(page.count("| core | scalar | swar | SIMD |"), 2)
        self.assertLess(page.index("`flip`:\n\n| core"), page.index("`slider-attacks`:\n\n| core"))
        self.assertEqual(page.count("Cycles per call predicted"), 1)
        self.assertIn("For `slider-attacks` neon runs swar's code", page)

    def test_model_says_when_it_read_another_build(self):
        page = model_page(["flip"], model(7), "model.json", self.functions)
        self.assertIn("llvm-mca read had 7 instructions besides `ret`, the listing of this page 4",
                      page)

    def test_a_listing_without_neon_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            listing = Path(tmp, "x86.s")
            listing.write_text("# rustc 1.0.0\nqbb::probes::swar::flip::h0123456789abcdef:\n\tret\n")
            model_file = Path(tmp, "model.json")
            model_file.write_text(json.dumps(model(4)))
            backends = Path(tmp, "backends.json")
            backends.write_text(json.dumps([{"name": b, "routines": r} for b, r in SUPPORT.items()]))
            out = Path(tmp, "generated")
            run = subprocess.run(
                [sys.executable, str(HERE / "generate.py"), "neon", str(backends), str(model_file),
                 str(listing)],
                capture_output=True, text=True, env={**os.environ, "QBB_BOOK_GENERATED": str(out)})
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn("no probe of neon", run.stderr)
            self.assertNotIn("Traceback", run.stderr)
            self.assertFalse(out.exists())


if __name__ == "__main__":
    unittest.main()
