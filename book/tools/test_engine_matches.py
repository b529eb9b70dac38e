"""The engine chapter's match tables (gen/engine_matches.py): a rung against Stockfish is told by
its UCI_Elo option, the verdict on the ladder's goal is the latest rung on its terms (UCI_Elo
2600, 40 games or more, 10+0.1), and the self-play table leaves out the ladder and the NNUE
chapter's matches.

    python3 -m unittest discover -s book/tools -p 'test_engine_matches.py'
"""

import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True

from gen.engine_matches import ladder, self_play, stockfish_elo  # noqa: E402


def summary(first, second, tc=(10.0, 0.1), games=40, score=0.5):
    """A results.json as reports/match.py writes it, with what the tables read."""
    return {
        "started": "2026-01-01T00:00:00+00:00",
        "complete": True,
        "engines": [first, second],
        "games": games,
        "wins": 10, "draws": 20, "losses": 10,
        "score": score,
        "elo": {"text": "+0.0 ± 50.0 (95%: -50.0 to +50.0)"},
        "time_control": {"base_seconds": tc[0], "increment_seconds": tc[1],
                         "text": f"{tc[0]:g}+{tc[1]:g}"},
        "machine": {"load_average_start": [0.1, 0.2, 0.3]},
    }


def stockfish(elo):
    return {"name": f"sf{elo}", "options": {"UCI_LimitStrength": "true", "UCI_Elo": str(elo)}}


QBB = {"name": "qbb", "options": {}}


class EngineMatches(unittest.TestCase):
    def reports(self, matches):
        root = Path(tempfile.mkdtemp())
        for name, m in matches.items():
            folder = root / "amd-test" / "match" / name
            folder.mkdir(parents=True)
            (folder / "results.json").write_text(json.dumps(m))
        return root

    def test_a_rung_is_told_by_its_uci_elo(self):
        self.assertEqual(stockfish_elo(stockfish(2600)), 2600)
        self.assertIsNone(stockfish_elo({"options": {"UCI_Elo": "2600"}}))
        self.assertIsNone(stockfish_elo(QBB))

    def test_the_goal_is_met_only_on_its_terms(self):
        short = self.reports({"sf2600": summary(QBB, stockfish(2600), tc=(5.0, 0.05), score=0.6)})
        self.assertIn("No rung against UCI_Elo 2600", ladder("", short))
        few = self.reports({"sf2600": summary(QBB, stockfish(2600), games=20, score=0.6)})
        self.assertIn("No rung against UCI_Elo 2600", ladder("", few))
        below = self.reports({"sf2600": summary(QBB, stockfish(2600), score=0.45)})
        self.assertIn("scored 0.45 over 40 games: below half", ladder("", below))

        def played_at(started, score):
            m = summary(QBB, stockfish(2600), score=score)
            m.update(started=started)
            return m
        met = self.reports({"a": played_at("2026-01-01T01", 0.45),
                            "b": played_at("2026-01-01T02", 0.55)})
        self.assertIn("scored 0.55 over 40 games: at least half", ladder("", met))
        self.assertIn("1 rung of earlier versions", ladder("", met))
        lost = self.reports({"a": played_at("2026-01-01T01", 0.55),
                             "b": played_at("2026-01-01T02", 0.45)})
        self.assertIn("scored 0.45 over 40 games: below half", ladder("", lost))

    def test_rungs_are_ordered_by_strength(self):
        root = self.reports({"x": summary(QBB, stockfish(2800)), "y": summary(QBB, stockfish(2400))})
        text = ladder("", root)
        self.assertLess(text.index("| 2400 |"), text.index("| 2800 |"))

    def test_each_binarys_ladder_stays_together(self):
        def rung(elo, binary, started):
            m = summary(dict(QBB, sha256=binary * 64), stockfish(elo))
            m.update(started=started)
            return m
        root = self.reports({"old-2400": rung(2400, "a", "2026-01-01T01"),
                             "old-2800": rung(2800, "a", "2026-01-01T02"),
                             "new-2600": rung(2600, "b", "2026-01-02T01"),
                             "new-2400": rung(2400, "b", "2026-01-02T02")})
        rows = [line.split(" | ")[1:3] for line in ladder("", root).splitlines()
                if line.startswith("| `amd-test`")]
        self.assertEqual(rows, [["aaaaaaaa", "2400"], ["aaaaaaaa", "2800"],
                                ["bbbbbbbb", "2400"], ["bbbbbbbb", "2600"]])

    def test_self_play_leaves_out_the_ladder_and_the_networks(self):
        threads = summary({"name": "t2", "options": {"Threads": "2"}},
                          {"name": "t1", "options": {"Threads": "1"}})
        nnue = summary({"name": "nnue", "options": {"Use NNUE": "true"}},
                       {"name": "hand", "options": {"Use NNUE": "false"}})
        root = self.reports({"threads": threads, "nnue": nnue,
                             "sf": summary(QBB, stockfish(2400))})
        text = self_play("", root)
        self.assertIn("`threads`", text)
        self.assertNotIn("`nnue`", text)
        self.assertNotIn("`sf`", text)


if __name__ == "__main__":
    unittest.main()
