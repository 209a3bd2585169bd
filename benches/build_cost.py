#!/usr/bin/env python3
"""Build cost of a crate using include_responses!, per form of generated code.

    python3 benches/build_cost.py [N ...]      # default: 1000 3000 10000
    python3 benches/build_cost.py --shapes     # by distinct shapes: BUILD-COST-SHAPES.md

For each N (a scaled agent: 3 variants, 2 conditions each) and each form
(`straight_line`, `compact`), a crate of its own under target/buildcost with
a copy of the agent, dependencies built once. Per profile (dev, release):
a full build of the crate (`cargo clean -p` first), then a build after a
one-line edit of responses.yml (one text changed: the expansion changes, as
it does for a real edit). Then the release binary's size. Prints a Markdown
table and writes benches/BUILD-COST.md. Wall times from one run.
`FORMS=compact` measures one form only (the table is then printed, not written).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# FORMS=compact (or straight_line) measures one form only.
FORMS = tuple(os.environ.get("FORMS", "straight_line compact").split())


def agents_dir():
    found = (HERE / "target" / "release" / "build").glob("utter-benches-*/out/agents")
    return max(found, key=lambda p: p.stat().st_mtime)


def cargo(args, crate, env):
    subprocess.run(["cargo", *args], cwd=crate, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(args, crate, env):
    """Wall seconds and peak memory (bytes, the largest process: rustc) of
    a cargo command, through GNU time."""
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, "cargo", *args], cwd=crate,
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        return elapsed, int(peak.read().split()[-1]) * 1024


def make_crate(work, name, agent, form):
    crate = work / name
    shutil.rmtree(crate, ignore_errors=True)
    (crate / "src").mkdir(parents=True)
    shutil.copytree(agent, crate / "agent")
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\n\n'
        f'[dependencies]\nutter = {{ package = "utter-rs", path = "{HERE.parent / "crates" / "utter"}" }}\n\n[workspace]\n'
    )
    # Both APIs, as an application using typed memory and data-driven names
    # would: every generic instance is built.
    (crate / "src" / "main.rs").write_text(
        f'mod responses {{\n    utter::include_responses!("agent", {form});\n}}\n\n'
        'fn main() {\n    let memory = responses::memory();\n    let ctx = utter::Context::new(&memory);\n'
        '    let name = std::env::args().nth(1).unwrap_or_default();\n'
        '    println!("{}", responses::deliver_name(&name, &ctx).text);\n'
        '    let typed = responses::Memory::new();\n'
        '    if let Some(response) = responses::Response::from_name(&name) {\n'
        '        println!("{}", typed.view(None).deliver(response).text);\n    }\n}\n'
    )
    return crate


def measure(n, form, work, env):
    name = f"cost-{form.replace('_', '-')}-n{n}"
    # Cleaned first: cargo's fingerprints would otherwise keep the target of a previous run.
    crate = make_crate(work, name, agents_dir() / f"n{n}", form)
    yml = next((crate / "agent").rglob("responses.yml"))
    original = yml.read_text()
    row = {}
    for profile, flags in (("dev", []), ("release", ["--release"])):
        cargo(["clean", "-q", "-p", name, *flags], crate, env)
        row[f"{profile}_full"], row[f"{profile}_peak"] = timed(["build", "-q", *flags], crate, env)
        # One line of one text changed.
        yml.write_text(original.replace("Response 7, default", "Response 7, edited default", 1))
        row[f"{profile}_edit"], _ = timed(["build", "-q", *flags], crate, env)
        yml.write_text(original)
    binary = env["CARGO_TARGET_DIR"] + f"/release/{name}"
    row["size"] = Path(binary).stat().st_size
    out = subprocess.run([binary, "utter_scaled_7"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("Response 7") and out.count("Response 7") == 2, out
    return row


def table(sizes):
    """The Markdown table for `sizes`, each row printed as it is measured."""
    subprocess.run(["cargo", "build", "-q", "--release", "--lib"], cwd=HERE, check=True)
    work = HERE / "target" / "buildcost"
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(work / "target"))
    # Dependencies built once per profile, by a small crate sharing the target.
    warm = make_crate(work, "cost-warm", agents_dir() / "n10", "compact")
    for flags in ([], ["--release"]):
        cargo(["build", "-q", *flags], warm, env)
    lines = ["| N | form | dev build | dev, after a YAML edit | release build | release, after a YAML edit | release peak memory | release binary |",
             "| - | - | - | - | - | - | - | - |"]
    for n in sizes:
        for form in FORMS:
            r = measure(n, form, work, env)
            line = (f"| {n:,} | {form} | {r['dev_full']:.1f} s | {r['dev_edit']:.1f} s | "
                    f"{r['release_full']:.1f} s | {r['release_edit']:.1f} s | "
                    f"{r['release_peak'] / 1048576:,.0f} MiB | {r['size'] / 1048576:.1f} MiB |")
            print(line, flush=True)
            lines.append(line)
    return lines


def shapes_table():
    """Release build of straight-line code for agents of N responses and S
    distinct shapes of selection (`shaped-n{N}-s{S}`, written by build.rs),
    and the form `Strategy::Auto` picks for each (`utter expand`)."""
    subprocess.run(["cargo", "build", "-q", "--release", "--lib"], cwd=HERE, check=True)
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "utter-cli"], cwd=HERE.parent,
                   check=True)
    utter = HERE.parent / "target" / "release" / "utter"
    work = HERE / "target" / "buildcost"
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(work / "target"))
    warm = make_crate(work, "cost-warm", agents_dir() / "n10", "compact")
    cargo(["build", "-q", "--release"], warm, env)
    lines = ["| responses | shapes of selection | straight-line release build | peak memory | `Auto` picks |",
             "| - | - | - | - | - |"]
    agents = sorted(agents_dir().glob("shaped-n*-s*"),
                    key=lambda p: tuple(int(x[1:]) for x in p.name.split("-")[1:]))
    for agent in agents:
        n, s = (int(x[1:]) for x in agent.name.split("-")[1:])
        crate = make_crate(work, f"cost-{agent.name}", agent, "straight_line")
        cargo(["clean", "-q", "-p", crate.name, "--release"], crate, env)
        seconds, peak = timed(["build", "-q", "--release"], crate, env)
        expanded = subprocess.run([str(utter), "expand", str(agent)], capture_output=True,
                                  text=True, check=True).stdout
        picks = "compact" if "static PROGRAM" in expanded else "straight-line"
        line = f"| {n:,} | {s:,} | {seconds:.1f} s | {peak / 1048576:,.0f} MiB | {picks} |"
        print(line, flush=True)
        lines.append(line)
    return lines


def main():
    if sys.argv[1:] == ["--shapes"]:
        text = "\n".join(shapes_table()) + "\n"
        (HERE / "BUILD-COST-SHAPES.md").write_text(text)
        print(text)
        return
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 3000, 10000]
    text = "\n".join(table(sizes)) + "\n"
    if "FORMS" not in os.environ:
        (HERE / "BUILD-COST.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
