"""The chapters' generated model and machine tables: ties, baselines, probes and their compiler."""

import tempfile
import unittest
from pathlib import Path

import chapter_model
import other_machines

LISTING = """# rustc 1.97.0-nightly (e50aa6fba 2026-05-19)
qbb::probes::avx2::flip:
\tmov rax, rdi
\tvmovdqa ymm0, ymmword ptr [rsi]
\tvzeroupper
\tjmp qbb::helpers::tail
.Lfunc_end0:
qbb::helpers::tail:
\tvmovdqa ymmword ptr [rdi], ymm0
\tret
.Lfunc_end1:
"""


def row(backend, speedup, interval=None, baseline="swar-v3"):
    r = {"benchmark": "b", "routine": "r", "backend": backend, "ns_per_op": 1.0,
         "baseline": baseline, "speedup_vs_baseline": speedup}
    if interval is not None:
        r["speedup_interval"] = interval
    return r


class Ties(unittest.TestCase):
    def test_a_paired_interval_that_holds_one_is_a_tie(self):
        report = {"noise": 0.5, "results": []}
        self.assertTrue(other_machines.cell(row("a", 1.02, [0.99, 1.05]), report).endswith("≈"))
        self.assertFalse(other_machines.cell(row("a", 1.02, [1.01, 1.05]), report).endswith("≈"))

    def test_without_an_interval_the_noise_floor_decides(self):
        report = {"noise": 0.05, "results": []}
        self.assertTrue(other_machines.cell(row("a", 1.04), report).endswith("≈"))
        self.assertTrue(other_machines.cell(row("a", 0.96), report).endswith("≈"))
        self.assertEqual(other_machines.cell(row("a", 1.10), report), "1.10×")
        self.assertEqual(other_machines.cell(row("a", 0.90), report), "0.90×")

    def test_the_baseline_names_itself_and_a_missing_row_is_a_dash(self):
        report = {"noise": 0.05, "results": []}
        self.assertEqual(other_machines.cell(row("swar-v3", 1.0), report), "1 (baseline)")
        self.assertEqual(other_machines.cell(None, report), "–")


class Probes(unittest.TestCase):
    def listing(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "nightly.s"
            path.write_text(LISTING)
            return chapter_model.read_listing(path)

    def test_a_probe_follows_its_tail_call_without_ret_and_vzeroupper(self):
        listing = self.listing()
        self.assertEqual(listing["compiler"], "rustc 1.97.0-nightly (e50aa6fba 2026-05-19)")
        self.assertEqual(
            chapter_model.probe_instructions(listing["functions"], "qbb::probes::avx2::flip"),
            ["mov rax, rdi", "vmovdqa ymm0, ymmword ptr [rsi]",
             "vmovdqa ymmword ptr [rdi], ymm0"])

    def test_a_probe_is_taken_only_from_the_models_compiler_with_its_count(self):
        listings = [self.listing()]
        probe = "qbb::probes::avx2::flip"
        found, _ = chapter_model.find_probe(listings, probe, 3, listings[0]["compiler"])
        self.assertEqual(len(found), 3)
        self.assertIsNone(chapter_model.find_probe(listings, probe, 3, "rustc 1.95.0")[0])
        self.assertIsNone(chapter_model.find_probe(listings, probe, 4, listings[0]["compiler"])[0])

    def test_a_symbol_is_given_to_llvm_mca_as_a_placeholder(self):
        self.assertEqual(chapter_model.assemblable("vpand ymm0, ymm0, [rip + qbb::T::<[u8; 4]>]"),
                         "vpand ymm0, ymm0, [rip + qbb_symbol]")


if __name__ == "__main__":
    unittest.main()
