"""Tests of reports/match.py's statistics and command-line parsing, on the standard library alone
(no python-chess, no engine):

    python3 -m unittest discover -s reports -p 'test_match.py'

The Elo cases with intervals are those of fastchess's own test suite (EloPentanomial 1 to 3), an
independent implementation of the same model; the others follow from the definitions.
"""

import argparse
import contextlib
import io
import json
import math
import signal
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # match.py beside this file, however run

import match  # noqa: E402


def counts(ll=0, ld=0, wl_dd=0, wd=0, ww=0):
    return [ll, ld, wl_dd, wd, ww]


class PentanomialElo(unittest.TestCase):
    def test_all_draws_is_zero_with_no_spread(self):
        estimate = match.pentanomial_elo(counts(wl_dd=100))
        self.assertEqual(estimate.score, 0.5)
        self.assertEqual(estimate.elo, 0.0)
        self.assertEqual(estimate.error, 0.0)
        self.assertEqual(estimate.text(), "+0.0 ± 0.0 (95%: +0.0 to +0.0)")

    def test_three_quarters_is_plus_191(self):
        # 400 log10(3) = 190.85: the score 0.75 whether every pair is a win and a draw...
        steady = match.pentanomial_elo(counts(wd=40))
        self.assertAlmostEqual(steady.elo, 400 * math.log10(3), places=9)
        self.assertEqual(round(steady.elo), 191)
        self.assertEqual(steady.error, 0.0)
        # ...or half the pairs are won twice and half split: same Elo, now with an interval
        # s = 0.75, var = 1/16, so s -/+ 1.96 * 0.25 / sqrt(40) = 0.75 -/+ 0.0775
        mixed = match.pentanomial_elo(counts(wl_dd=20, ww=20))
        self.assertAlmostEqual(mixed.elo, steady.elo, places=9)
        margin = match.Z95 * 0.25 / math.sqrt(40)
        self.assertAlmostEqual(mixed.low, match.elo_from_score(0.75 - margin), places=9)
        self.assertAlmostEqual(mixed.high, match.elo_from_score(0.75 + margin), places=9)
        self.assertLess(mixed.low, mixed.elo)
        self.assertGreater(mixed.high - mixed.elo, mixed.elo - mixed.low)  # logistic: skewed up

    def test_fastchess_cases(self):
        # fastchess's Stats(LL, LD, WL, DD, WD, WW): WL and DD are one class here.
        cases = [
            (counts(34, 54, 31 + 32, 64, 75), 55.58, 27.65),
            (counts(332, 433, 457 + 41, 333, 334), -8.64, 10.33),
            (counts(7895, 8757, 5485 + 200, 568, 9999), -21.04, 2.95),
        ]
        for pairs, elo, error in cases:
            with self.subTest(pairs=pairs):
                estimate = match.pentanomial_elo(pairs)
                self.assertAlmostEqual(estimate.elo, elo, delta=0.01)
                self.assertAlmostEqual(estimate.error, error, delta=0.01)

    def test_score_is_the_game_score(self):
        # Pairs (1, 0.5), (0, 0), (0.5, 0.5), (1, 1): W=3 D=3 L=2 over 8 games.
        games = [(1, 0.5), (0, 0), (0.5, 0.5), (1, 1)]
        pairs = [0] * 5
        for first, second in games:
            pairs[match.pair_class(first, second)] += 1
        self.assertEqual(pairs, counts(ll=1, wl_dd=1, wd=1, ww=1))
        self.assertEqual(match.pentanomial_elo(pairs).score, (3 + 3 / 2) / 8)

    def test_swapping_the_engines_negates_the_result(self):
        forward = match.pentanomial_elo(counts(3, 10, 40, 25, 7))
        backward = match.pentanomial_elo(counts(7, 25, 40, 10, 3))
        self.assertAlmostEqual(forward.elo, -backward.elo, places=9)
        self.assertAlmostEqual(forward.low, -backward.high, places=9)
        self.assertAlmostEqual(forward.error, backward.error, places=9)

    def test_more_pairs_narrow_the_interval(self):
        few = match.pentanomial_elo(counts(2, 5, 20, 10, 3))
        many = match.pentanomial_elo(counts(20, 50, 200, 100, 30))
        self.assertAlmostEqual(few.elo, many.elo, places=9)
        self.assertAlmostEqual(few.error / many.error, math.sqrt(10), delta=0.05)

    def test_a_clean_sweep_is_beyond_measure(self):
        for pairs, sign in ((counts(ww=10), math.inf), (counts(ll=10), -math.inf)):
            with self.subTest(pairs=pairs):
                estimate = match.pentanomial_elo(pairs)
                self.assertEqual(estimate.elo, sign)
                self.assertEqual(estimate.error, math.inf)
                self.assertIn("beyond measure", estimate.text())
                self.assertIsNone(estimate.to_json()["elo"])

    def test_a_bound_past_a_perfect_score_is_infinite(self):
        estimate = match.pentanomial_elo(counts(wd=1, ww=9))
        self.assertTrue(math.isfinite(estimate.elo))
        self.assertTrue(math.isfinite(estimate.low))
        self.assertEqual(estimate.high, math.inf)
        self.assertEqual(estimate.error, math.inf)
        self.assertTrue(estimate.text().endswith("to +inf)"), estimate.text())
        saved = estimate.to_json()
        self.assertIsNone(saved["high"])
        self.assertIsNone(saved["error_95"])
        self.assertIsNotNone(saved["low"])

    def test_refuses_what_is_not_a_pentanomial(self):
        with self.assertRaises(ValueError):
            match.pentanomial_elo(counts())
        with self.assertRaises(ValueError):
            match.pentanomial_elo([1, 2, 3])
        with self.assertRaises(ValueError):
            match.pentanomial_elo(counts(ll=-1, ww=2))


class PairClass(unittest.TestCase):
    def test_classes(self):
        self.assertEqual(match.pair_class(0, 0), 0)
        self.assertEqual(match.pair_class(0.5, 0), 1)
        self.assertEqual(match.pair_class(1, 0), 2)
        self.assertEqual(match.pair_class(0.5, 0.5), 2)
        self.assertEqual(match.pair_class(0.5, 1), 3)
        self.assertEqual(match.pair_class(1, 1), 4)

    def test_refuses_other_points(self):
        with self.assertRaises(ValueError):
            match.pair_class(0.25, 1)


class CommandLine(unittest.TestCase):
    def test_engine_spec(self):
        spec = match.parse_engine_spec(
            "name=nnue,cmd=target/release/qbb-engine,option.Use NNUE=true")
        self.assertEqual(spec.name, "nnue")
        self.assertEqual(spec.command, ("target/release/qbb-engine",))
        self.assertEqual(spec.options, {"Use NNUE": "true"})

    def test_stockfish_spec_and_default_name(self):
        spec = match.parse_engine_spec(
            "cmd=/usr/games/stockfish,option.UCI_LimitStrength=true,option.UCI_Elo=2000")
        self.assertEqual(spec.name, "stockfish")
        self.assertEqual(spec.options, {"UCI_LimitStrength": "true", "UCI_Elo": "2000"})

    def test_command_with_arguments(self):
        spec = match.parse_engine_spec("cmd=taskset -c 1 /opt/engine")
        self.assertEqual(spec.command, ("taskset", "-c", "1", "/opt/engine"))

    def test_bad_specs(self):
        for text in ("name=x", "cmd=a,colour=red", "cmd=a,option.Hash=1,option.Hash=2", "cmd=a,b",
                     "cmd="):
            with self.subTest(text=text), self.assertRaises(argparse.ArgumentTypeError):
                match.parse_engine_spec(text)

    def test_time_control(self):
        self.assertEqual(match.parse_time_control("5+0.05"), (5.0, 0.05))
        self.assertEqual(match.parse_time_control("60"), (60.0, 0.0))
        for text in ("", "fast", "0+1", "5+-1", "inf+0", "5+0.1+2"):
            with self.subTest(text=text), self.assertRaises(argparse.ArgumentTypeError):
                match.parse_time_control(text)

    def test_arguments(self):
        args = match.parse_args([
            "--engine", "name=a,cmd=x", "--engine", "name=b,cmd=x",
            "--tc", "1+0.01", "--games", "4", "--out", "/tmp/m",
        ])
        self.assertEqual([engine.name for engine in args.engine], ["a", "b"])
        self.assertEqual(args.concurrency, 1)
        self.assertEqual(args.openings, match.DEFAULT_OPENINGS)

    def test_refused_arguments(self):
        both = ["--engine", "name=a,cmd=x", "--engine", "name=b,cmd=x"]
        rest = ["--tc", "1", "--out", "/tmp/m"]
        for argv in (
            both + rest + ["--games", "3"],  # odd: a pair would be incomplete
            both[:2] + rest + ["--games", "2"],  # one engine
            ["--engine", "cmd=x", "--engine", "cmd=x"] + rest + ["--games", "2"],  # same name
            both + ["--games", "2", "--out", "/tmp/m"],  # no time control
        ):
            with self.subTest(argv=argv), self.assertRaises(SystemExit):
                with contextlib.redirect_stderr(io.StringIO()):  # argparse's usage message
                    match.parse_args(argv)


class Combine(unittest.TestCase):
    def summary(self, pentanomial, wins, draws, losses, sha="aa", tc="5+0.05"):
        return {
            "title": "a vs b",
            "engines": [{"name": "a", "sha256": sha, "options": {}},
                        {"name": "b", "sha256": "bb", "options": {}}],
            "time_control": {"text": tc},
            "max_plies": 300,
            "pentanomial": dict(zip(match.PAIR_CLASSES, pentanomial)),
            "wins": wins, "draws": draws, "losses": losses,
        }

    def folders(self, *summaries):
        root = Path(tempfile.mkdtemp())
        found = []
        for number, summary in enumerate(summaries):
            folder = root / str(number)
            folder.mkdir()
            (folder / "results.json").write_text(json.dumps(summary))
            found.append(folder)
        return found

    def test_the_pairs_of_both_matches_count_together(self):
        first = self.summary(counts(1, 2, 3, 4, 0), wins=9, draws=7, losses=4)
        second = self.summary(counts(0, 1, 5, 2, 2), wins=10, draws=8, losses=2)
        estimate, line = match.combine(self.folders(first, second))
        self.assertEqual(estimate, match.pentanomial_elo(counts(1, 3, 8, 6, 2)))
        self.assertIn("2 matches, 40 games: +19 =15 -6", line)
        self.assertIn(estimate.text(), line)

    def test_matches_on_other_terms_are_refused(self):
        base = self.summary(counts(1, 1, 1, 1, 1), wins=5, draws=0, losses=5)
        for other in (self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5, sha="cc"),
                      self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5, tc="10+0.1")):
            with self.subTest(other=other), self.assertRaises(SystemExit) as refused:
                match.combine(self.folders(base, other))
            self.assertIn("differ", str(refused.exception))

    def test_a_rebuilt_engine_is_matched_by_name_and_said(self):
        base = self.summary(counts(1, 1, 1, 1, 1), wins=5, draws=0, losses=5)
        rebuilt = self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5, sha="cc")
        engine = base["engines"][0]["name"]
        _, line = match.combine(self.folders(base, rebuilt), rebuilt=[engine])
        self.assertIn(f"({engine} rebuilt between the matches)", line)
        other = [e["name"] for e in base["engines"]][1]
        with self.assertRaises(SystemExit) as refused:
            match.combine(self.folders(base, rebuilt), rebuilt=[other])
        self.assertIn("differ", str(refused.exception))
        with self.assertRaises(SystemExit) as refused:
            match.combine(self.folders(base, rebuilt), rebuilt=["nobody"])
        self.assertIn("no engine named 'nobody'", str(refused.exception))

    def test_a_match_named_twice_is_refused(self):
        folder = self.folders(self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5))[0]
        with self.assertRaises(SystemExit) as refused:
            match.combine([folder, folder])
        self.assertIn("named twice", str(refused.exception))

    def test_a_summary_without_its_pair_counts_is_named(self):
        broken = self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5)
        del broken["pentanomial"]["WW"]
        folders = self.folders(self.summary(counts(1, 1, 1, 1, 1), 5, 0, 5), broken)
        with self.assertRaises(SystemExit) as refused:
            match.combine(folders)
        self.assertIn(f"{folders[1] / 'results.json'}: no match summary", str(refused.exception))

    def test_a_folder_without_a_summary_is_named(self):
        with self.assertRaises(SystemExit) as refused:
            match.combine([Path("/nonexistent/match")])
        self.assertIn("/nonexistent/match/results.json", str(refused.exception))


class Signals(unittest.TestCase):
    def setUp(self):
        saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        self.addCleanup(lambda: [signal.signal(n, h) for n, h in saved.items()])

    def test_sigint_and_sigterm_interrupt_even_when_sigint_was_ignored(self):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        match.stop_on_signals()
        for number in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=number), self.assertRaises(KeyboardInterrupt):
                signal.raise_signal(number)


if __name__ == "__main__":
    unittest.main()
