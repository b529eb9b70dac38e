"""The book's tools stay readable: no Python file under book/tools/ longer than 1,200 lines, and
no function (a nested one counted by its own span, the one around it by its whole span) longer
than 150 lines.

    python3 -m unittest discover -s book/tools -p 'test_*.py'
"""

import ast
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
MOST_LINES_PER_FILE = 1200
MOST_LINES_PER_FUNCTION = 150


def function_spans(source):
    """(name, first line, lines) of every function and method in `source`, nested ones included;
    a function's span runs from its first decorator to its last line."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            spans.append((node.name, first, node.end_lineno - first + 1))
    return spans


def too_long(source, most):
    """The functions of `source` longer than `most` lines, as `name (line N): L lines`."""
    return [f"{name} (line {first}): {lines} lines"
            for name, first, lines in function_spans(source) if lines > most]


def tool_files():
    return sorted(HERE.glob("**/*.py"))


class Sizes(unittest.TestCase):
    def test_the_tools_are_found(self):
        names = {f.relative_to(HERE).as_posix() for f in tool_files()}
        self.assertIn("generate.py", names)
        self.assertIn("gen/model.py", names)

    def test_no_file_is_too_long(self):
        for path in tool_files():
            with self.subTest(file=path.relative_to(HERE).as_posix()):
                lines = len(path.read_text().splitlines())
                self.assertLessEqual(lines, MOST_LINES_PER_FILE)

    def test_no_function_is_too_long(self):
        for path in tool_files():
            with self.subTest(file=path.relative_to(HERE).as_posix()):
                self.assertEqual(too_long(path.read_text(), MOST_LINES_PER_FUNCTION), [])

    def test_a_long_function_is_caught_with_the_one_around_it(self):
        body = "".join(f"        x{i} = {i}\n" for i in range(MOST_LINES_PER_FUNCTION))
        source = "def outer():\n    def inner():\n" + body + "    return inner\n"
        self.assertEqual(too_long(source, MOST_LINES_PER_FUNCTION), [
            f"outer (line 1): {MOST_LINES_PER_FUNCTION + 3} lines",
            f"inner (line 2): {MOST_LINES_PER_FUNCTION + 1} lines",
        ])

    def test_a_decorated_method_counts_from_its_decorator(self):
        source = "class A:\n    @staticmethod\n    def f():\n        return 1\n"
        self.assertEqual(function_spans(source), [("f", 2, 3)])


if __name__ == "__main__":
    unittest.main()
