#!/usr/bin/env python3
"""Compares utter's bundled layer with the installed reference's, structurally.

For every default skill and the system responses: the response names, and per
variant whether it has a condition (and which), its rephrase flag; per memory
entry its visibility, type and enum values. Wording is ours and not compared.
Prints every difference and exits 1 if there is one, so a new reference release
shows what changed.

    python conformance/bundled_layer.py [--reference DIR] [--utter DIR]
"""

import argparse
import sys
from pathlib import Path

import yaml


def responses(path):
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    for name, variants in (data.get("responses") or {}).items():
        shape = []
        for v in variants or []:
            if isinstance(v, str):
                shape.append((None, False))
                continue
            rephrase = bool(((v.get("metadata") or {}).get("rephrase")))
            shape.append((v.get("condition"), rephrase))
        out[name] = shape
    return out


def memory(path):
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    schema = data.get("schema") or {}
    for visibility in ("public", "private"):
        for name, attrs in (schema.get(visibility) or {}).items():
            attrs = attrs or {}
            out[name] = (visibility, attrs.get("type", "any"), tuple(attrs.get("enum_values") or ()))
    return out


def layer(root, system_file, maestro=False):
    skills = {}
    for skill in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")):
        if skill.name in ("system", "maestro"):
            continue
        if maestro and skill.name == "default_silence_timeout_hangup":
            continue  # not in the Maestro (3.20.x) layer
        own = root / "maestro" / skill.name / "responses.yml"
        source = own if maestro and own.exists() else skill / "responses.yml"
        skills[skill.name] = (responses(source), memory(skill / "memory.yml"))
    if maestro:
        for skill in sorted((root / "maestro").iterdir()):
            if skill.name not in skills and skill.name != "system":
                skills[skill.name] = (responses(skill / "responses.yml"), {})
    return skills, responses(system_file)


def main():
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", type=Path, help="rasa/mantle/default_skills of the installed reference")
    parser.add_argument("--utter", type=Path, default=here.parent / "crates/utter-compiler/bundled")
    parser.add_argument("--maestro", action="store_true", help="compare utter's Maestro layer (with --reference: 3.20.5's default_skills)")
    args = parser.parse_args()
    if args.reference is None:
        import rasa.mantle.default_skills as d

        args.reference = Path(d.__file__).parent
    ref_skills, ref_system = layer(args.reference, args.reference / "default_responses.yml")
    system = args.utter / ("maestro/system/responses.yml" if args.maestro else "system/responses.yml")
    our_skills, our_system = layer(args.utter, system, args.maestro)
    problems = []
    for skill in sorted(set(ref_skills) | set(our_skills)):
        if skill not in our_skills:
            # A skill without responses or memory (default_session_start) has
            # nothing utter bundles.
            if ref_skills[skill] != ({}, {}):
                problems.append(f"skill {skill}: in the reference only")
            continue
        if skill not in ref_skills:
            problems.append(f"skill {skill}: in utter only")
            continue
        (ref_r, ref_m), (our_r, our_m) = ref_skills[skill], our_skills[skill]
        compare(f"skill {skill}", ref_r, our_r, problems)
        for name in sorted(set(ref_m) | set(our_m)):
            if ref_m.get(name) != our_m.get(name):
                problems.append(f"skill {skill}, memory entry {name}: reference {ref_m.get(name)}, utter {our_m.get(name)}")
    compare("system responses", ref_system, our_system, problems)
    for p in problems:
        print(p)
    checked = sum(len(r) for r, _ in our_skills.values()) + len(our_system)
    print(f"bundled layer: {len(problems)} differences ({checked} responses, {sum(len(m) for _, m in our_skills.values())} memory entries compared)")
    return 1 if problems else 0


def compare(where, ref, ours, problems):
    for name in sorted(set(ref) | set(ours)):
        if name not in ours:
            problems.append(f"{where}: response {name} in the reference only")
        elif name not in ref:
            problems.append(f"{where}: response {name} in utter only")
        elif ref[name] != ours[name]:
            problems.append(f"{where}: response {name}: variants (condition, rephrase) reference {ref[name]}, utter {ours[name]}")


if __name__ == "__main__":
    sys.exit(main())
