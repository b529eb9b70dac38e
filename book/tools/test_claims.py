"""The claim check: the comparisons it accepts, the ones it refuses, and the paragraphs it flags."""

import json
import tempfile
import unittest
from pathlib import Path

import claims
from gen.measurements import counted_times, counted_turns_text, lower_rank


def row(backend, ns, turns=None):
    r = {"benchmark": "b", "backend": backend, "ns_per_op": ns}
    if turns is not None:
        r["turn_ns"] = turns
    return r


def report(rows, noise=0.05):
    return {"noise": noise, "results": rows}


def claim(text, machine="m"):
    return claims.Claim("page.md", 1, f"<!-- claim {text} -->", machine)


class Statistics(unittest.TestCase):
    def test_the_sign_tests_ranks_are_the_labs(self):
        # benches/src/estimate.rs: lower_rank(30) == 9, (6) == 0, (100) == 40.
        self.assertEqual([lower_rank(n) for n in (30, 6, 100)], [9, 0, 40])

    def test_a_paired_interval_is_taken_over_the_turns_ratios(self):
        reference = [float(x) for x in range(1, 31)]
        self.assertEqual(claims.paired_interval(reference, [1.0] * 30), (10.0, 15.5, 21.0))
        self.assertIsNone(claims.paired_interval([1.0] * 5, [1.0] * 5))

    def test_the_turns_counted_are_the_usual_ones_or_an_older_reports_quiet_ones(self):
        turns = [5.0, 6.0, 7.0, 8.0]
        usual = {"turn_ns": turns, "usual_turns": [0, 2]}
        quiet = {"turn_ns": turns, "quiet_turns": [1, 3]}
        every = {"turn_ns": turns}
        self.assertEqual([counted_times(r) for r in (usual, quiet, every)],
                         [[5.0, 7.0], [6.0, 8.0], turns])
        # Named from any iterable of rows, a generator too.
        self.assertEqual(counted_turns_text(r for r in (quiet, usual)),
                         "the turns in the run's usual state")
        self.assertEqual(counted_turns_text(r for r in (every, quiet)), "the quiet turns")
        self.assertEqual(counted_turns_text([every]), "the turns")


class Holds(unittest.TestCase):
    def test_paired_rows_compare_by_their_interval(self):
        fast = row("fast", 1.0, [1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0])
        slow = row("slow", 2.0, [2.0, 2.1, 1.9, 2.0, 2.05, 1.95, 2.0])
        data = report([fast, slow])
        self.assertIsNone(claims.holds(claim("b: fast faster slow"), data))
        self.assertIsNone(claims.holds(claim("b: slow slower fast"), data))
        self.assertIsNone(claims.holds(claim("b: fast fastest"), data))
        self.assertIsNone(claims.holds(claim("b: slow slowest"), data))
        self.assertIn("faster", claims.holds(claim("b: fast ties slow"), data))
        self.assertIn("fast", claims.holds(claim("b: slow fastest"), data))

    def test_a_difference_that_changes_sign_from_turn_to_turn_is_a_tie(self):
        a = row("a", 1.0, [1.0, 1.2, 0.8, 1.1, 0.9, 1.0, 1.05, 0.95])
        b = row("b", 1.0, [1.0] * 8)
        data = report([a, b], noise=0.0)
        self.assertIsNone(claims.holds(claim("b: a ties b"), data))
        self.assertIsNotNone(claims.holds(claim("b: a faster b"), data))

    def test_unpaired_rows_tie_within_the_noise_floor_either_way(self):
        data = report([row("a", 1.0), row("b", 1.08), row("c", 1.2)], noise=0.1)
        self.assertIsNone(claims.holds(claim("b: a ties b"), data))
        self.assertIsNone(claims.holds(claim("b: b ties a"), data))
        self.assertIsNone(claims.holds(claim("b: a faster c"), data))
        self.assertIsNone(claims.holds(claim("b: a no-slower b"), data))
        self.assertIsNotNone(claims.holds(claim("b: c no-slower a"), data))

    def test_level_asks_for_three_per_cent_however_certain(self):
        data = report([row("a", 1.0), row("b", 1.02), row("c", 1.05)], noise=0.0)
        self.assertIsNone(claims.holds(claim("b: a level b"), data))
        self.assertIsNotNone(claims.holds(claim("b: a level c"), data))

    def test_an_unknown_row_or_benchmark_is_named(self):
        data = report([row("a", 1.0)])
        self.assertIn("no row `z`", claims.holds(claim("b: z ties a"), data))
        self.assertIn("no benchmark `x`", claims.holds(claim("x: a ties a"), data))

    def test_a_malformed_marker_is_refused(self):
        with self.assertRaises(ValueError):
            claim("b: a quicker b")
        with self.assertRaises(ValueError):
            claim("b: a fastest b")


class Pages(unittest.TestCase):
    def check(self, page_text):
        with tempfile.TemporaryDirectory() as tmp:
            src, reports = Path(tmp, "src"), Path(tmp, "reports")
            (src / "techniques").mkdir(parents=True)
            (src / "generated/results").mkdir(parents=True)
            (src / "generated/results/verdict.md").write_text(
                "<!-- from `reports/m/results.json` -->\n"
            )
            (src / "techniques/01.md").write_text(page_text)
            (reports / "m").mkdir(parents=True)
            data = report([row("a", 1.0), row("b", 2.0)], noise=0.01)
            (reports / "m/results.json").write_text(json.dumps(data))
            return claims.check(src, reports)

    def test_a_true_claim_passes_and_a_false_one_fails(self):
        problems, count = self.check("`a` is faster than `b`.\n<!-- claim b: a faster b -->\n")
        self.assertEqual((problems, count), ([], 1))
        problems, _ = self.check("`a` ties `b`.\n<!-- claim b: a ties b -->\n")
        self.assertEqual(len(problems), 1)
        self.assertIn("false: the data says `a` faster `b`", problems[0])

    def test_a_comparison_without_a_marker_is_flagged(self):
        problems, _ = self.check("Here a beats b.\n\nA paragraph that compares nothing.\n")
        self.assertEqual(problems, ["techniques/01.md:1: compares (`beats`) without a claim marker"])

    def test_code_blocks_and_exempt_paragraphs_are_not_read(self):
        text = "```text\nfaster\n```\n\n<!-- not measured: the model -->\nThe model is faster.\n"
        self.assertEqual(self.check(text), ([], 0))


if __name__ == "__main__":
    unittest.main()
