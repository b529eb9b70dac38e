"""How the book prints a number: times and counts to about three significant digits, ratios with
two decimals or fewer as they grow, ratios far below 1 to two significant digits, the noise floor
as a percentage, instructions per cycle, llvm-mca's cycles, and lists and ranges of them in words;
each as the lab's own tables print the same figure.
"""

import math


def decimals_by_magnitude(x, most):
    """`x` with `most` decimals below 1 and one fewer for each digit before the point, down to
    none, as the lab's function of the same name (`crates/qbb-lab/src/report/table.rs`)."""
    decimals = most
    next_digit = 1
    while decimals > 0 and x >= next_digit:
        decimals -= 1
        next_digit *= 10
    return f"{x:.{decimals}f}"


def format_ns(ns):
    """Three significant digits or so, as the lab's own tables print them."""
    return decimals_by_magnitude(ns, 3)


def format_ratio(r):
    return decimals_by_magnitude(r, 2)


def format_fraction(r):
    """A ratio that may be far below 1 with two significant digits, as the lab prints it."""
    if r >= 1 or r <= 0:
        return format_ratio(r)
    unit = 10 ** (math.floor(math.log10(r)) - 1)
    rounded = math.floor(r / unit + 0.5) * unit  # half away from zero, as Rust rounds
    if rounded >= 1:
        return format_ratio(rounded)
    return f"{rounded:.{1 - math.floor(math.log10(rounded))}f}"


def format_speedup(ratio, interval, margin=0.0):
    """A speed-up with its 95 % interval, `r× (low–high)`, the three to the same decimals: three
    significant digits of the lower bound, one more while the two bounds would print alike or an
    end would print as a bound of the ties it is not (1, and 1 + margin and 1 / (1 + margin) where
    the report has a tie margin), up to the four decimals results.json keeps."""
    low, high = interval
    bounds = {1.0, 1 + margin, 1 / (1 + margin)}
    decimals = min(4, max(0, 2 - math.floor(math.log10(low)))) if low > 0 else 2

    def ambiguous(d):
        alike = f"{low:.{d}f}" == f"{high:.{d}f}"
        on_a_bound = any(f"{end:.{d}f}" == f"{bound:.{d}f}" and end != bound
                         for end in (low, high) for bound in bounds)
        return alike or on_a_bound

    while decimals < 4 and ambiguous(decimals):
        decimals += 1
    return f"{ratio:.{decimals}f}× ({low:.{decimals}f}–{high:.{decimals}f})"


def format_noise(noise):
    return f"{noise * 100:.1f} %"


def format_ipc(ipc):
    return f"{ipc:.2f}"


def cycles_text(x):
    """Three significant digits, as `qbb model` prints cycles."""
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def and_list(items):
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def ratio_range(values):
    """'a to b' with two decimals, as the perft table prints its ratios; one value if they agree."""
    lo, hi = f"{min(values):.2f}", f"{max(values):.2f}"
    return lo if lo == hi else f"{lo} to {hi}"
