#!/usr/bin/env python3
"""Writes the committed seed corpora, fuzz/seeds/<target>/, from the project's own files: the
perft suites (crates/qbb-corpus/data), the opening book (reports/openings.epd) and the embedded
network (crates/qbb-engine/nets/default.nnue). Deterministic: the same files give the same seeds.

    python3 fuzz/make-seeds.py
"""
import hashlib
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
DATA = ROOT / "crates" / "qbb-corpus" / "data"


def suite(name, every=1):
    lines = (DATA / f"{name}.epd").read_text().splitlines()
    return [l for l in lines if l.strip() and not l.startswith("#")][::every]


def openings(every=1):
    lines = (ROOT / "reports" / "openings.epd").read_text().splitlines()
    return [l for l in lines if l.strip() and not l.startswith("#")][::every]


def opening_moves(line):
    """The opening's moves (the c0 operation, in SAN) are not UCI: take only its FEN."""
    return " ".join(line.split()[:4])


def fen_of(epd_line):
    return epd_line.split(";")[0].strip()


def write(target, items):
    folder = SEEDS / target
    folder.mkdir(parents=True)
    for data in items:
        if isinstance(data, str):
            data = data.encode()
        (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def positions():
    fens = [fen_of(l) for l in suite("standard") + suite("tricky")]
    fens += [fen_of(l) for l in suite("fischer", 48) + suite("random", 340)]
    fens += [opening_moves(l) + " 0 1" for l in openings(10)]
    return fens


def uci_scripts():
    fens = positions()[::8]
    options = [
        "setoption name Hash value 2",
        "setoption name Clear Hash",
        "setoption name Threads value 1",
        "setoption name Backend value scalar",
        "setoption name Backend value auto",
        "setoption name Move Overhead value 0",
        "setoption name MultiPV value 3",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value true",
        "setoption name Use NNUE value false",
        "setoption name EvalFile value good.nnue",
        "setoption name Attacks value backend",
    ]
    gos = [
        "go depth 3",
        "go nodes 2000",
        "go movetime 5",
        "go wtime 50 btime 50 winc 5 binc 5",
        "go wtime 50 btime 50 movestogo 3",
        "go mate 2",
        "go infinite",
        "go ponder wtime 50 btime 50",
        "go depth 2 searchmoves e2e4 d2d4",
        "go perft 2",
    ]
    scripts = []
    for i, fen in enumerate(fens):
        lines = [
            "uci",
            options[i % len(options)],
            "ucinewgame",
            f"position fen {fen}",
            gos[i % len(gos)],
            "stop" if i % 2 else "ponderhit",
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
            gos[(i + 3) % len(gos)],
            "isready",
        ]
        scripts.append("\n".join(lines) + "\n")
    scripts.append("\n".join(options + gos + ["stop", "quit"]) + "\n")
    scripts.append("joho isready\nposition fen 8/8/8 w - -\ngo depth x\nsetoption name\n\x00\x1b[2J\n")
    return scripts


def networks():
    net = (ROOT / "crates" / "qbb-engine" / "nets" / "default.nnue").read_bytes()
    header = net[:32]
    version = header[:8] + (2).to_bytes(4, "little") + header[12:]
    shape = header[:12] + (769).to_bytes(4, "little") + header[16:]
    return [header, net[:512], net[:4096], version, shape, b"QBBNNUE\0", b"\x00" * 64]


def main():
    if SEEDS.exists():
        shutil.rmtree(SEEDS)
    fens = positions()
    write("fen", fens)
    write("movelist", fens)
    epd = suite("standard", 4) + suite("tricky") + suite("fischer", 96) + suite("random", 680)
    epd += [l for l in openings(20)]
    write("epd", epd + ["\n".join(suite("standard")[:8]) + "\n"])
    write("uci", uci_scripts())
    write("network", networks())
    total = sum(f.stat().st_size for f in SEEDS.rglob("*") if f.is_file())
    count = sum(1 for f in SEEDS.rglob("*") if f.is_file())
    print(f"{count} seeds, {total} bytes, in {SEEDS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
