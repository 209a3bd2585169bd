#!/usr/bin/env python3
"""Every witness of utter's variant analysis, delivered by the reference.

For every response of each agent folder given, runs `utter explain --format
json` and, for each variant it calls reachable, delivers the response through
rasa-pro 3.21.0's `select_variant` + placeholder substitution with the witness
memory: the reference must deliver the same text with the same rephrase flag.
A witness is a claim that a memory state delivers a variant; here the
reference engine checks the claim. Run through run.sh.

    witnesses.py --utter PATH AGENT_DIR [AGENT_DIR ...]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from differential import Reference  # noqa: E402


def response_names(root):
    names = set()
    for path in [root / "responses.yml", *sorted((root / "skills").glob("*/responses.yml"))]:
        if path.exists():
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            names.update((data.get("responses") or {}).keys())
    return sorted(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--utter", required=True)
    ap.add_argument("agents", nargs="+")
    args = ap.parse_args()
    checked = disagreements = 0
    for agent in map(Path, args.agents):
        reference = Reference(agent)
        for name in response_names(agent):
            run = subprocess.run([args.utter, "explain", str(agent), name, "--format", "json"], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{agent}: utter explain {name} failed: {run.stderr.strip()}")
                disagreements += 1
                continue
            explained = json.loads(run.stdout)
            skill = explained["skill"]
            for variant in explained["variants"]:
                if variant["verdict"] != "reachable":
                    continue
                if "witness" not in variant:
                    # A value memory JSON cannot hold (NaN): set from Rust only.
                    print(f"{agent}: {name} variant {variant['index']}: witness {variant['witness_in_words']} not expressible as JSON, skipped")
                    continue
                slots = {f"{ns}.{entry}": value for ns, entries in variant["witness"].items() for entry, value in entries.items()}
                want = reference.deliver(name, skill, slots)
                checked += 1
                if want["text"] != variant["text"] or want["rephrase"] != variant["rephrase"] or want["fallback"]:
                    disagreements += 1
                    print(f"{agent}: {name} variant {variant['index']} witness {slots}: utter {variant['text']!r}, reference {want}")
    print(f"witnesses: {checked} delivered by the reference, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
