"""The repetition check: long sentences on more than three pages are found, others are not."""

import tempfile
import unittest
from pathlib import Path

import said_once

LONG = ("This sentence has well over twenty words in it, so that the check counts it wherever "
        "it appears in the main text of a page.")


def page(text):
    return f"<html><body><nav>{LONG}</nav><main><p>{text}</p><pre>{LONG}</pre></main></body></html>"


class SaidOnce(unittest.TestCase):
    def repeated_in(self, texts):
        with tempfile.TemporaryDirectory() as tmp:
            for i, text in enumerate(texts):
                Path(tmp, f"p{i}.html").write_text(page(text))
            return said_once.repeated(Path(tmp))

    def test_a_long_sentence_on_four_pages_is_found(self):
        found = self.repeated_in([LONG] * 4)
        self.assertEqual(list(found), [LONG])
        self.assertEqual(len(found[LONG]), 4)

    def test_three_pages_short_sentences_code_and_navigation_pass(self):
        self.assertEqual(self.repeated_in([LONG] * 3 + ["Short."]), {})
        self.assertEqual(self.repeated_in(["Short and repeated."] * 6), {})


if __name__ == "__main__":
    unittest.main()
