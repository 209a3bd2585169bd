"""Writes CPython's repr of doubles, one `hex-bits repr` pair a line, for
utter's float formatting test (tests/data/py_float_repr.txt).

    python3 tests/data/make_float_corpus.py [COUNT] > tests/data/py_float_repr.txt

Random bit patterns (every exponent), random integers near and beyond 2**53
(where 16- and 17-digit ties live), and decimal-looking values; seeded, so
the same COUNT gives the same file.
"""
import random
import struct
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = random.Random(20261203)
seen = set()
out = []
while len(out) < count:
    kind = rng.randrange(4)
    if kind == 0:
        bits = rng.getrandbits(64)
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
    elif kind == 1:
        x = float(rng.randrange(2**53, 2**70))
    elif kind == 2:
        x = float(rng.randrange(10**15, 10**17)) + rng.choice([0.25, 0.5, 0.75, 0.125])
    else:
        x = round(rng.uniform(-1e6, 1e6), rng.randrange(0, 8))
    if x != x or x in (float("inf"), float("-inf")):
        continue
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    if bits in seen:
        continue
    seen.add(bits)
    out.append(f"{bits:016x} {x!r}")
sys.stdout.write("\n".join(out) + "\n")
