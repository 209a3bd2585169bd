#!/usr/bin/env python3
"""Conformance on the real agents rasa-pro ships: the project template that
`rasa init` creates for Mantle, and the end-to-end agent of its inspector.

Both are taken from the installed reference package at run time (never
copied into this repository). For each agent:

* validation: the error findings of `utter check` and of the reference's
  `collect_project_findings`, finding by finding (code and response);
* delivery: every response (the project's and the bundled ones) from every
  skill view for random memories that respect the declared types,
  through `utter deliver-batch` and the reference's `select_variant` +
  placeholder substitution: text, rephrase flag and fallback compared. The
  bundled responses' own wording is ours (docs/semantics.md, `system-wording`): for a
  bundled response the text may differ, nothing else.

    real_agents.py --utter PATH [--memories 200] [--seed 1]
"""

import argparse
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from differential import (  # noqa: E402
    MemoryManager,
    Reference,
    _Handle,
    classify_validation,
    reference_errors,
    substitute_memory_placeholders,
    utter_errors,
)


def real_agents():
    import rasa

    base = Path(rasa.__file__).parent
    return {
        "rasa init (mantle)": base / "cli/project_templates/mantle",
        "inspector e2e (mantle)": base / "core/channels/inspector-nextgen/e2e/agents/mantle",
    }


def declarations(root):
    """(namespace, entry, type, values) of every declared entry."""
    out = []
    memory = root / "memory.yml"
    if memory.exists():
        for name, attrs in (yaml.safe_load(memory.read_text()) or {}).items():
            attrs = attrs if isinstance(attrs, dict) else {}
            out.append(("project", name, attrs.get("type", "any"), attrs.get("enum_values") or []))
    for path in sorted((root / "skills").glob("*/memory.yml")):
        data = yaml.safe_load(path.read_text()) or {}
        for part in ("public", "private"):
            for name, attrs in ((data.get("schema") or {}).get(part) or {}).items():
                attrs = attrs if isinstance(attrs, dict) else {}
                out.append((path.parent.name, name, attrs.get("type", "any"), attrs.get("enum_values") or []))
    return out


def value_for(rng, ty, values):
    if ty == "text":
        return rng.choice(["", "card", "Ada", "lost", "4242", "naïve", "a b", "{x}"])
    if ty == "categorical" and values:
        return rng.choice(values)
    if ty == "int":
        return rng.choice([0, 1, 2, 5, 42, -3, 1000])
    if ty == "float":
        return rng.choice([0.0, 0.5, 1.0, 2.25, 9.99, 100.0, -1.5])
    if ty == "bool":
        return rng.choice([True, False])
    if ty == "list":
        return rng.choice([[], ["a"], [1, 2]])
    return rng.choice([None, "s", 3, 1.5, True, [1], {"k": "v"}])


def project_names(root):
    names = set()
    for path in [root / "responses.yml", *sorted((root / "skills").glob("*/responses.yml"))]:
        if path.exists():
            names.update(((yaml.safe_load(path.read_text()) or {}).get("responses") or {}).keys())
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--utter", required=True)
    ap.add_argument("--memories", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    unexpected = 0
    print("| agent | validation | deliveries | agreed | bundled wording | unexpected |")
    print("| - | - | -: | -: | -: | -: |")
    details = []
    for label, root in real_agents().items():
        (ours, messages), theirs = utter_errors(args.utter, root), reference_errors(root)
        verdict = classify_validation(ours, messages, theirs) or "agreed"
        if verdict != "agreed":
            unexpected += 1
            details.append(f"{label}: validation {verdict}: utter {sorted(ours)}, reference {sorted(theirs)}")
        reference = Reference(root)
        own = project_names(root)
        names = sorted(set(reference.registry.responses) | own) + ["utter_not_defined"]
        views = sorted(reference.catalog.skills)
        decls = declarations(root)
        requests, expected = [], []
        for _ in range(args.memories):
            slots, nested = {}, {}
            for ns, name, ty, values in decls:
                if rng.random() < 0.3:
                    continue
                value = value_for(rng, ty, values)
                slots[f"{ns}.{name}"] = value
                nested.setdefault(ns, {})[name] = value
            for skill in views:
                handle = _Handle(slots, skill)
                handle.memory = MemoryManager(reference.catalog, reference.project_memory, handle)
                values = {k: e.value for k, e in handle.memory.read_all(skill, skill).items()}
                for name in names:
                    variant = reference.registry.select_variant(name, values)
                    template = name if variant is None else variant.text
                    text = substitute_memory_placeholders(template, handle)
                    expected.append((name, skill, {"text": text, "rephrase": bool(variant and variant.rephrase), "fallback": variant is None}))
                    requests.append(json.dumps({"response": name, "skill": skill, "memory": nested}))
        run = subprocess.run([args.utter, "deliver-batch", str(root)], input="\n".join(requests) + "\n", capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{label}: utter deliver-batch failed: {run.stderr.strip()}")
            return 1
        tally = Counter()
        for (name, skill, want), line in zip(expected, run.stdout.splitlines()):
            got = json.loads(line)
            mine = {"text": got.get("text"), "rephrase": got.get("rephrase"), "fallback": got.get("fallback")}
            if mine == want:
                tally["agreed"] += 1
            elif name not in own and {**mine, "text": ""} == {**want, "text": ""}:
                tally["bundled wording"] += 1
            else:
                tally["unexpected"] += 1
                if len(details) < 20:
                    details.append(f"{label}: {name} from {skill}: utter {mine}, reference {want}")
        unexpected += tally["unexpected"]
        print(f"| {label} | {verdict} | {len(expected)} | {tally['agreed']} | {tally['bundled wording']} | {tally['unexpected']} |")
    for d in details:
        print(d)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
