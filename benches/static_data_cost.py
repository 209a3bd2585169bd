#!/usr/bin/env python3
"""What a compact agent's data would cost to build as Rust statics instead
of literals: the question behind "a pre-decoded program" (benches/README.md).

    python3 benches/static_data_cost.py [N ...]     # default: 1000 10000

For each N, two standalone crates under target/staticdata holding N
responses of 3 variants each (texts of about 60 bytes, names, a condition
offset, flags and a capacity per variant): `bytes`, everything in one
string literal and one byte-string literal, as the compact form embeds its
program; `records`, the same as static arrays of structs with `&'static str`
fields, what delivery could read without decoding. Prints the release build
time (a clean build of the crate alone; no dependencies) and peak memory
of each. Wall times from one run.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rust_str(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def source(n, form):
    texts = [f"Response {i} variant {v}: your card ending {i * 7 % 10000} is on its way."
             for i in range(n) for v in range(3)]
    names = [f"utter_response_{i}" for i in range(n)]
    if form == "records":
        variants = ",".join(
            f"Rec {{ text: {rust_str(t)}, condition: {k * 19}, flags: 2, capacity: {len(t)} }}"
            for k, t in enumerate(texts))
        responses = ",".join(
            f"Resp {{ name: {rust_str(name)}, first: {3 * i}, count: 3, default: 2 }}"
            for i, name in enumerate(names))
        return (
            "pub struct Rec { pub text: &'static str, pub condition: u32, pub flags: u8, pub capacity: u32 }\n"
            "pub struct Resp { pub name: &'static str, pub first: u32, pub count: u32, pub default: u32 }\n"
            f"pub static VARIANTS: [Rec; {len(texts)}] = [{variants}];\n"
            f"pub static RESPONSES: [Resp; {n}] = [{responses}];\n"
            "fn main() { let i = std::env::args().count(); let r = &RESPONSES[i];"
            " println!(\"{} {}\", r.name, VARIANTS[r.first as usize].text); }\n")
    # As many record bytes as the compact form's tables would hold.
    code = bytes((k * 31) % 256 for k in range(len(texts) * 17 + n * 24))
    return (
        f"pub static STRINGS: &str = {rust_str(''.join(texts) + ''.join(names))};\n"
        "pub static CODE: &[u8] = b\"" + "".join(f"\\x{b:02x}" for b in code) + "\";\n"
        "fn main() { let i = std::env::args().count();"
        " println!(\"{} {}\", &STRINGS[i..i + 3], CODE[i]); }\n")


def measure(n, form):
    crate = HERE / "target" / "staticdata" / f"{form}{n}"
    shutil.rmtree(crate, ignore_errors=True)
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "data-{form}-{n}"\nversion = "0.0.0"\nedition = "2024"\n\n[workspace]\n')
    (crate / "src" / "main.rs").write_text(source(n, form))
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, "cargo", "build", "-q",
                        "--release"], cwd=crate, check=True)
        elapsed = time.perf_counter() - start
        return elapsed, int(peak.read().split()[-1]) // 1024


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    print("| N | form | release build | peak memory |")
    print("| - | - | - | - |")
    for n in sizes:
        for form in ("bytes", "records"):
            elapsed, peak = measure(n, form)
            print(f"| {n:,} | {form} | {elapsed:.1f} s | {peak} MiB |")


if __name__ == "__main__":
    main()
