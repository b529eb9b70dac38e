"""The parts of the book generator that decide something, on small made-up rows: whether SIMD
wins, ties or loses against the baseline (by a paired interval, else by the noise floor), which
implementations are tied with the fastest, how a ratio and a speed-up with its interval are
printed, and which of the model's on-core checks a row passes.

    python3 -m unittest discover -s book/tools -p 'test_*.py'
"""

import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ beside the tools

from gen.formatting import (decimals_by_magnitude, format_fraction, format_noise,  # noqa: E402
                            format_ratio, format_speedup)
from gen.measurements import (against_one, fastest_text, interval_standing,  # noqa: E402
                              interval_tie_text, tie_margin, tied_fastest)
from gen.model_checks import on_core_sides  # noqa: E402
from gen.verdicts import verdict  # noqa: E402

NAN = float("nan")


def row(backend, ns, **fields):
    return {"benchmark": "flip", "backend": backend, "ns_per_op": ns, **fields}


def backends(rows):
    return [r["backend"] for r in rows]


class AgainstOne(unittest.TestCase):
    """Where a speed-up over the baseline stands: 1 a win, 0 a tie, -1 a loss."""

    def test_a_paired_interval_above_one_is_a_win(self):
        self.assertEqual(against_one({"speedup_interval": [1.02, 1.10]}, 0.5), 1)

    def test_a_paired_interval_below_one_is_a_loss(self):
        self.assertEqual(against_one({"speedup_interval": [0.80, 0.97]}, 0.5), -1)

    def test_a_paired_interval_that_holds_one_is_a_tie(self):
        self.assertEqual(against_one({"speedup_interval": [0.99, 1.50]}, 0.0), 0)
        self.assertEqual(against_one({"speedup_interval": [1.0, 1.50]}, 0.0), 0)
        self.assertEqual(against_one({"speedup_interval": [0.80, 1.0]}, 0.0), 0)

    def test_the_interval_decides_not_the_ratio_nor_the_floor(self):
        paired = {"speedup_interval": [1.01, 1.03], "speedup_vs_baseline": 1.02}
        self.assertEqual(against_one(paired, 0.05), 1)

    def test_without_an_interval_the_noise_floor_decides(self):
        self.assertEqual(against_one({"speedup_vs_baseline": 1.05}, 0.02), 1)
        self.assertEqual(against_one({"speedup_vs_baseline": 1.01}, 0.02), 0)
        self.assertEqual(against_one({"speedup_vs_baseline": 0.99}, 0.02), 0)
        self.assertEqual(against_one({"speedup_vs_baseline": 0.95}, 0.02), -1)

    def test_an_interval_clear_of_one_by_less_than_the_margin_is_a_tie(self):
        narrow = {"speedup_interval": [1.001, 1.017]}
        self.assertEqual(against_one(narrow, 0.0), 1)
        self.assertEqual(against_one(narrow, 0.0, 0.01), 0)
        self.assertEqual(against_one({"speedup_interval": [0.97, 0.995]}, 0.0, 0.01), 0)
        self.assertEqual(against_one({"speedup_interval": [1.011, 1.03]}, 0.0, 0.01), 1)
        self.assertEqual(against_one({"speedup_interval": [0.95, 0.989]}, 0.0, 0.01), -1)

    def test_the_margin_is_the_reports_and_the_same_either_side_on_a_log_axis(self):
        self.assertEqual(tie_margin({"tie_margin": 0.01}), 0.01)
        self.assertEqual(tie_margin({}), 0.0)
        self.assertEqual(interval_standing(0.9, 1 / 1.01 + 1e-9, 0.01), 0)
        self.assertEqual(interval_standing(0.9, 0.99, 0.01), -1)
        self.assertEqual(interval_tie_text({"tie_margin": 0.01}), "reaches within 1 % of 1")
        self.assertEqual(interval_tie_text({}), "includes 1")

    def test_a_ratio_exactly_at_the_floor_is_still_a_tie(self):
        self.assertEqual(against_one({"speedup_vs_baseline": 1.25}, 0.25), 0)
        self.assertEqual(against_one({"speedup_vs_baseline": 0.8}, 0.25), 0)


class TiedFastest(unittest.TestCase):
    def test_the_rows_own_paired_verdicts_decide_where_every_row_has_one(self):
        rows = [row("scalar", 10.0, tied_with_fastest=False), row("sse2", 5.0, tied_with_fastest=True),
                row("avx2", 5.4, tied_with_fastest=True)]
        self.assertEqual(backends(tied_fastest(rows, 0.5)), ["sse2", "avx2"])

    def test_else_every_row_within_the_noise_floor_of_the_fastest(self):
        rows = [row("scalar", 10.0), row("sse2", 5.0), row("avx2", 5.09), row("avx512", 5.11)]
        self.assertEqual(backends(tied_fastest(rows, 0.02)), ["sse2", "avx2"])

    def test_without_a_noise_floor_only_equal_times_tie(self):
        rows = [row("scalar", 5.0), row("sse2", 5.0), row("avx2", 5.001)]
        self.assertEqual(backends(tied_fastest(rows, None)), ["scalar", "sse2"])

    def test_an_untimed_row_takes_no_part(self):
        rows = [row("scalar", NAN), row("sse2", 5.0)]
        self.assertEqual(tied_fastest(rows, 0.5), [])
        rows.append(row("avx2", 5.2))
        self.assertEqual(backends(tied_fastest(rows, 0.05)), ["sse2", "avx2"])

    def test_the_fastest_is_named_first_then_the_ties_in_the_tables_order(self):
        rows = [row("avx2", 5.0), row("scalar", 9.0), row("sse2", 5.05)]
        self.assertEqual(fastest_text(rows, 0.02), "avx2 = sse2")
        self.assertEqual(fastest_text(rows, 0.0), "avx2")


class Verdict(unittest.TestCase):
    """The verdict page sorts each benchmark by its best SIMD backend against the baseline."""

    @staticmethod
    def report(rows, noise):
        return {"noise": noise, "results": rows}

    @staticmethod
    def bench(name, baseline, simd, ratio, **fields):
        return [
            {"benchmark": name, "backend": baseline, "baseline": baseline, "ns_per_op": 10.0,
             "speedup_vs_baseline": 1.0},
            {"benchmark": name, "backend": simd, "baseline": baseline, "ns_per_op": 10.0 / ratio,
             "speedup_vs_baseline": ratio, **fields},
        ]

    def test_paired_rows_are_sorted_by_their_intervals(self):
        rows = (self.bench("flip", "swar", "avx2", 2.0, speedup_interval=[1.9, 2.1])
                + self.bench("piece-at", "scalar", "sse2", 1.01, speedup_interval=[0.97, 1.05])
                + self.bench("hash", "scalar-v3", "avx512", 0.5, speedup_interval=[0.45, 0.55]))
        text = verdict(self.report(rows, 0.01), "source")
        self.assertIn("- **SIMD beats the baseline: the speed-up's 95 % interval lies above 1** (1): "
                      "`flip` (avx2, 2.00× over swar).", text)
        self.assertIn("- **SIMD ties with the baseline: the interval includes 1** (1): "
                      "`piece-at` (sse2, 1.010× over scalar).", text)
        self.assertIn("- **The baseline beats every SIMD backend** (1): "
                      "`hash` (avx512, 0.500× over scalar-v3).", text)

    def test_paired_rows_within_the_reports_margin_tie(self):
        rows = (self.bench("flip", "swar", "avx2", 1.009, speedup_interval=[1.001, 1.017])
                + self.bench("hash", "scalar", "sse2", 1.02, speedup_interval=[1.015, 1.03]))
        report = {**self.report(rows, 0.01), "tie_margin": 0.01}
        text = verdict(report, "source")
        self.assertIn("- **SIMD beats the baseline: the speed-up's 95 % interval lies above 1.01** "
                      "(1): `hash` (sse2, 1.020× over scalar).", text)
        self.assertIn("- **SIMD ties with the baseline: the interval reaches within 1 % of 1** (1): "
                      "`flip` (avx2, 1.009× over swar).", text)

    def test_unpaired_rows_tie_within_the_noise_floor(self):
        rows = (self.bench("flip", "swar", "avx2", 1.04)
                + self.bench("piece-at", "scalar", "sse2", 1.10))
        text = verdict(self.report(rows, 0.05), "source")
        self.assertIn("- **SIMD beats the baseline by more than the noise floor, 5.0 %** (1): "
                      "`piece-at` (sse2, 1.1× over scalar).", text)
        self.assertIn("- **SIMD ties with the baseline, within the noise floor** (1): "
                      "`flip` (avx2, 1.0× over swar).", text)
        self.assertIn("- **The baseline beats every SIMD backend** (0): none.", text)

    def test_a_report_without_baselines_has_no_verdict(self):
        rows = [{"benchmark": "flip", "backend": "sse2", "ns_per_op": 1.0, "speedup_vs_scalar": 3.0}]
        self.assertIn("This report has no baselines", verdict(self.report(rows, None), "source"))


class Formatting(unittest.TestCase):
    def test_a_ratio_loses_a_decimal_for_each_digit_before_the_point(self):
        self.assertEqual([format_ratio(r) for r in (0.5, 1.234, 12.34, 123.4)],
                         ["0.50", "1.2", "12", "123"])

    def test_the_decimals_are_chosen_before_rounding_as_the_lab_does(self):
        self.assertEqual(format_ratio(9.996), "10.0")
        self.assertEqual(decimals_by_magnitude(99.996, 3), "100.0")

    def test_a_time_has_three_decimals_below_one(self):
        self.assertEqual([decimals_by_magnitude(x, 3) for x in (0.1234, 1.5, 10, 1000)],
                         ["0.123", "1.50", "10.0", "1000"])

    def test_a_fraction_keeps_two_significant_digits(self):
        self.assertEqual([format_fraction(r) for r in (0.01234, 0.05, 0.00456, 0.0999)],
                         ["0.012", "0.050", "0.0046", "0.10"])

    def test_a_fraction_rounds_half_away_from_zero_and_up_to_a_ratio(self):
        self.assertEqual(format_fraction(0.0125), "0.013")
        self.assertEqual(format_fraction(0.995), "1.0")
        self.assertEqual(format_fraction(1.5), "1.5")

    def test_a_speed_up_and_its_interval_share_three_significant_digits(self):
        self.assertEqual(format_speedup(27.341, [27.2312, 27.4498]), "27.3× (27.2–27.4)")
        self.assertEqual(format_speedup(0.1114, [0.111, 0.1118]), "0.111× (0.111–0.112)")
        self.assertEqual(format_speedup(244.6, [243.1, 246.2]), "245× (243–246)")

    def test_a_narrow_interval_gains_digits_until_its_bounds_differ(self):
        self.assertEqual(format_speedup(1.0486, [1.046, 1.0532]), "1.049× (1.046–1.053)")
        self.assertEqual(format_speedup(1.0002, [1.0001, 1.0003]), "1.0002× (1.0001–1.0003)")

    def test_an_end_near_a_bound_of_the_ties_gets_the_decimals_that_place_it(self):
        # 1.0056 prints as 1.01, the margin's bound, which it is below: one more decimal.
        self.assertEqual(format_speedup(1.0166, [1.0056, 1.0243], 0.01), "1.017× (1.006–1.024)")
        self.assertEqual(format_speedup(1.0166, [1.0056, 1.0243]), "1.02× (1.01–1.02)")
        self.assertEqual(format_speedup(0.985, [0.9805, 0.9902], 0.01), "0.9850× (0.9805–0.9902)")

    def test_a_speed_up_keeps_no_more_decimals_than_the_report(self):
        self.assertEqual(format_speedup(0.005, [0.0049, 0.005]), "0.0050× (0.0049–0.0050)")
        self.assertEqual(format_speedup(1.0, [1.0, 1.0]), "1.0000× (1.0000–1.0000)")

    def test_the_noise_floor_is_a_percentage(self):
        self.assertEqual(format_noise(0.0123), "1.2 %")


class OnCoreSides(unittest.TestCase):
    """What the model's block timed on the core says of a row (threshold 1.5)."""

    @staticmethod
    def sides(block, measured=10.0, predicted=30.0):
        return on_core_sides({"block_on_core_cycles": block, "measured_cycles": measured,
                              "predicted_cycles": predicted}, 1.5)

    def test_near_the_benchmark_only_the_model_misjudges_the_core(self):
        self.assertEqual(self.sides(11.0), {"core": True})

    def test_near_the_prediction_only_the_benchmark_runs_other_code(self):
        self.assertEqual(self.sides(28.0), {"inlined": True})

    def test_between_and_near_both_the_gap_is_split(self):
        self.assertEqual(self.sides(15.0, predicted=20.0), {"split": True})

    def test_beyond_both_or_not_run_says_nothing(self):
        self.assertEqual(self.sides(100.0), {})
        self.assertEqual(self.sides(None), {})


if __name__ == "__main__":
    unittest.main()


class MachinesSideBySide(unittest.TestCase):
    """The every-machine verdict: which machines agree on the fastest implementation."""

    @staticmethod
    def report(times, noise=0.05):
        rows = [{"benchmark": "b", "backend": name, "ns_per_op": ns, "baseline": "swar",
                 "speedup_vs_baseline": times["swar"] / ns} for name, ns in times.items()]
        return {"noise": noise, "results": rows,
                "machine": {"cpu": "CPU", "cpu_details": "family 1, model 2, stepping 3"}}

    def test_machines_agree_over_what_both_ran(self):
        from gen.verdicts import machines_verdict
        zen5 = self.report({"swar": 10.0, "avx2": 5.0, "avx512": 2.0})
        zen3 = self.report({"swar": 10.0, "avx2": 5.0})
        text = machines_verdict("b", [("m3", zen3), ("m5", zen5)])
        self.assertIn("The machines agree", text)
        self.assertIn("| `m5` | CPU, family 1, model 2 | `avx512` | 5.0× | `swar` | none |", text)

    def test_a_different_fastest_is_a_disagreement_and_names_both(self):
        from gen.verdicts import machines_verdict
        one = self.report({"swar": 10.0, "sse2": 4.0, "avx2": 6.0})
        two = self.report({"swar": 10.0, "sse2": 6.0, "avx2": 4.0})
        text = machines_verdict("b", [("m1", one), ("m2", two)])
        self.assertIn("disagree", text)
        self.assertIn("`m1` (`sse2`) against `m2` (`avx2`)", text)

    def test_a_tie_within_the_floor_is_no_disagreement(self):
        from gen.verdicts import machines_verdict
        one = self.report({"swar": 10.0, "sse2": 4.0, "avx2": 4.1})
        two = self.report({"swar": 10.0, "sse2": 4.1, "avx2": 4.0})
        self.assertIn("agree", machines_verdict("b", [("m1", one), ("m2", two)]))


class ArmModelPage(unittest.TestCase):
    """The ARM model page: inherited and loop rows marked, a file without ARM cores refused."""

    def test_marks_and_refusal(self):
        import json
        import tempfile
        from pathlib import Path
        from gen.inputs import InputError
        from gen.model_arm import arm_page, cell
        self.assertEqual(cell({"cycles_per_call": 2.0, "support": "inherited from swar"}), "2.00 †")
        self.assertEqual(cell({"cycles_per_call": 2.0, "support": "native"}), "2.00")
        self.assertEqual(cell(None), "–")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "model.json")
            path.write_text(json.dumps({"cpus": [], "predictions": []}))
            with self.assertRaises(InputError):
                arm_page(path)


class DefaultMachine(unittest.TestCase):
    """The machine the book shows: the one it shows now while that report is complete, else the
    complete report that times the most backends."""

    def reports(self, tmp, machines):
        import json
        from pathlib import Path
        for name, backends, date, complete in machines:
            folder = Path(tmp, name)
            folder.mkdir()
            rows = [{"benchmark": "b", "backend": b, "ns_per_op": 1.0, "baseline": "scalar",
                     "speedup_vs_baseline": 1.0} for b in backends]
            report = {"machine": {"id": name, "date": date}, "results": rows}
            (folder / "results.json").write_text(json.dumps(report))
            for needed in ("dispatch.json", "perft.json") if complete else ():
                (folder / needed).write_text("{}")
        return Path(tmp)

    def test_the_shown_machine_stays_while_complete(self):
        import tempfile
        from gen.machines import default_machine
        with tempfile.TemporaryDirectory() as tmp:
            root = self.reports(tmp, [("old", ["scalar", "avx2"], "2026-01-01", True),
                                      ("new", ["scalar", "avx2", "avx512"], "2026-02-01", True),
                                      ("bare", ["scalar", "avx2", "avx512"], "2026-03-01", False)])
            self.assertEqual(default_machine(root, "old"), "old")
            self.assertEqual(default_machine(root, None), "new")
            self.assertEqual(default_machine(root, "bare"), "new")
            self.assertEqual(default_machine(root, "gone"), "new")
