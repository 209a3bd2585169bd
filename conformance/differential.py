#!/usr/bin/env python3
"""Differential conformance test: utter against the reference engine.

Generates agent projects from a seed (memory.yml with typed entries, skill.md,
responses.yml with random conditions, templates and metadata), then

* validation: runs `utter check --format json` and the reference's
  `collect_project_findings` (what `rasa data validate` runs) on each project
  and compares the error findings per response;
* delivery: for every response of a valid project and random memories and
  active skills, runs `utter render --format json` and the reference's
  `select_variant` + `substitute_memory_placeholders` over a real
  `MemoryManager`, and compares text, rephrase flag and fallback.

Each disagreement is agreed, documented (keyed to a row of docs/semantics.md's
"Differences from the reference engine" table) or unexpected. Run through
run.sh, which installs rasa-pro 3.21.0 into a throwaway venv.

    differential.py --utter PATH [--cases 5000] [--seed 1] [--keep DIR]
"""
import argparse
import json
import logging
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
logging.disable(logging.CRITICAL)

from rasa.mantle.content.validation import load_project_responses_for_validation  # noqa: E402
from rasa.mantle.memory.manager import MemoryManager  # noqa: E402
from rasa.mantle.orchestration.memory_utils import substitute_memory_placeholders  # noqa: E402
from rasa.mantle.skills.catalog import (  # noqa: E402
    SkillCatalog,
    load_default_skill_catalog_result,
    load_skill_catalog_result,
)
from rasa.mantle.validation import _load_project_memory, collect_project_findings  # noqa: E402

# Findings about files utter does not read (agent.yml, integrations.yml).
CONFIG_CODES = {
    "mantle.validation.config.missing_agent_yml",
    "mantle.validation.config.missing_integrations",
}

# Documented differences: a finding only utter reports is documented when it
# matches one of these (code prefix, message pattern), keyed to the first
# column of the "Differences from the reference engine" table (docs/semantics.md).
DOCUMENTED = {
    "typed-conditions": ("utter.validation.condition.", ""),
    "python-accidents": ("mantle.validation.response.invalid_condition", r"comments|bytes|complex|Ellipsis|\\N\{|not a Unicode scalar value"),
    "condition-depth": ("mantle.validation.response.invalid_condition", r"nested deeper than|operands"),
    "non-mapping-metadata": ("mantle.validation.response.invalid_variant_shape", r"`metadata` must be a mapping"),
    "text-shape": ("mantle.validation.response.invalid_variant_shape", r"`text` must be a string"),
    "rephrase-bool": ("utter.validation.response.invalid_rephrase", ""),
    "unknown-type": ("utter.validation.memory.unknown_type", ""),
    # Reference findings utter leaves out (matched in classify_validation).
    "no-cascade": (None, None),
    # Deliveries only: a variant written as a bare YAML boolean (`- true`).
    "yaml-1.2": (None, None),
}


def classify_delivery(mine, want):
    """None when agreed, a DOCUMENTED key, or 'unexpected'."""
    if mine == want:
        return None
    # The reference prints str(True); utter takes the scalar as written.
    if {**mine, "text": ""} == {**want, "text": ""} and want["text"] in ("True", "False") and mine["text"] == want["text"].lower():
        return "yaml-1.2"
    return "unexpected"

# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

TYPES = ["text", "int", "float", "bool", "categorical", "list", "any"]
WORDS = ["card", "ship", "ok", "Grüße", "naïve", "日本", "a b", "", "'q'", '"dq"', "x\\y", "100%"]
BUNDLED_REFS = [
    ("default_completed", "wants_to_continue", "bool"),
    ("default_continue_interrupted", "interrupted_task_name", "text"),
]
OVERRIDABLE = ["utter_hangup_goodbye", "utter_precondition_unmet", "utter_model_call_error"]


BAD_CONDITIONS = [
    "session.a", "session.a.b.c", "project.x.y", "x in y", "-1 < 2", "(True", "true",
    "1 +", "'open", "session.a.b = 1", "[1, 2]", "session.a.class", "f'x'", "",
    "True  # a comment", "b'x' == 1", "...", "1j",
]


class Project:
    def __init__(self, rng, index):
        self.rng = rng
        self.defective = rng.random() < 0.35
        self.skills = [f"s{index}_{k}" for k in range(rng.randint(1, 3))]
        self.entries = []  # (namespace, name, visibility, type, enum values)
        for skill in self.skills:
            for e in range(rng.randint(2, 5)):
                ty = rng.choice(TYPES)
                values = ["lost", "stolen", "not received"][: rng.randint(2, 3)] if ty == "categorical" else []
                vis = rng.choice(["public", "private"])
                self.entries.append((skill, f"e{e}", vis, ty, values))
        for e in range(rng.randint(0, 3)):
            ty = rng.choice(["text", "int", "bool", "float"])
            self.entries.append(("project", f"p{e}", "project", ty, []))
        self.files = {}
        self.responses = []  # names defined by the project

    def readable(self, scope):
        """Entries a file of `scope` (a skill id or None for the root) may read."""
        out = [e for e in self.entries if e[2] != "private" or e[0] == scope]
        out += [(ns, n, "public", ty, []) for ns, n, ty in BUNDLED_REFS]
        return out

    # -- memory.yml ---------------------------------------------------------
    def memory_files(self):
        for skill in self.skills:
            lines = ["schema:"]
            for vis in ["public", "private"]:
                mine = [e for e in self.entries if e[0] == skill and e[2] == vis]
                if mine:
                    lines.append(f"  {vis}:")
                    for _, name, _, ty, values in mine:
                        lines.append(f"    {name}:")
                        lines.append(f"      type: {ty}")
                        if values:
                            lines.append(f"      enum_values: {json.dumps(values)}")
            self.files[f"skills/{skill}/memory.yml"] = "\n".join(lines) + "\n"
            self.files[f"skills/{skill}/skill.md"] = f"---\ndescription: Skill {skill}\n---\nBody.\n"
        project = [e for e in self.entries if e[0] == "project"]
        if project:
            self.files["memory.yml"] = "".join(f"{n}:\n  type: {ty}\n" for _, n, _, ty, _ in project)

    # -- conditions ---------------------------------------------------------
    def literal_for(self, ty, values):
        rng = self.rng
        if ty == "text":
            roll = rng.random()
            if roll < 0.1:
                return rng.choice(['"a" "b"', "'''tri'''", 'r"x\\y"', "'\\u00e9'", "'\\x41'", "'tab\\t'"])
            return py_str(rng.choice(WORDS))
        if ty == "categorical":
            return py_str(rng.choice(values))
        if ty == "int":
            return rng.choice(["0", "1", "5", "42", "1_000", "0x10", "1000000000000", "True"])
        if ty == "float":
            return rng.choice(["0.5", "1.0", "2.25", "1e3", "5", ".5", "1_0.0_1", "2210353320000000.25"])
        if ty == "bool":
            return rng.choice(["True", "False"])
        if ty == "list" and rng.random() < 0.9:
            return "None"  # a list never equals a scalar: utter says so (documented)
        return rng.choice(["None", "0", "''"])

    def comparison(self, scope):
        rng = self.rng
        ns, name, _, ty, values = rng.choice(self.readable(scope))
        ref = f"session.{ns}.{name}"
        roll = rng.random()
        if roll < 0.2:
            return ref  # truthiness
        if roll < 0.3:
            return f"{ref} {rng.choice(['==', '!='])} None"
        if ty in ("int", "float") and roll < 0.55:
            op = rng.choice(["<", "<=", ">", ">="])
            if rng.random() < 0.3:
                return f"{self.literal_for(ty, values)} {op} {ref} {op} 1000000"
            return f"{ref} {op} {self.literal_for(ty, values)}"
        if ty == "text" and roll < 0.45:
            return f"{ref} {rng.choice(['<', '>='])} {self.literal_for(ty, values)}"
        op = rng.choice(["==", "!=", "=="])
        return f"{ref} {op} {self.literal_for(ty, values)}"

    def decorated_condition(self, scope):
        """A condition, sometimes with a comment, a trailing newline or parentheses."""
        rng = self.rng
        text = self.condition(scope)
        roll = rng.random()
        if roll < 0.1:
            return text + "\n"
        if roll < 0.15:
            return f"(\n {text}\n)"
        return text

    def condition(self, scope, depth=0):
        rng = self.rng
        roll = rng.random()
        if depth < 2 and roll < 0.2:
            joiner = rng.choice([" and ", " or "])
            return joiner.join(self.condition(scope, depth + 1) for _ in range(rng.randint(2, 3)))
        if depth < 2 and roll < 0.3:
            return f"not ({self.condition(scope, depth + 1)})"
        if roll < 0.33:
            return rng.choice(["True", "'x'", "0"])
        return self.comparison(scope)

    # -- templates ----------------------------------------------------------
    def template(self, scope):
        rng = self.rng
        parts = []
        for _ in range(rng.randint(1, 4)):
            roll = rng.random()
            readable = self.readable(scope)
            if roll < 0.35:
                ns, name, *_ = rng.choice(readable)
                parts.append(f"{{session.{ns}.{name}}}")
            elif roll < 0.5:
                own = [e for e in self.entries if e[0] in (scope, "project")]
                name = rng.choice(own)[1] if own else "nothing"
                parts.append(f"{{{name}}}")
            elif roll < 0.55:
                parts.append(rng.choice(["{ }", "{session.}", "{session.x}", "{{x}}", "}{", "{unknown_x}"]))
            else:
                parts.append(rng.choice(WORDS + ["Hello", "your card", "Fee:"]))
        text = " ".join(parts).strip()
        return text or "empty"

    def response_file(self, scope, label):
        rng = self.rng
        lines = ["responses:"]
        count = rng.randint(2, 6)
        for r in range(count):
            if r == 0 and scope is None and rng.random() < 0.3:
                name = rng.choice(OVERRIDABLE)
            else:
                name = f"utter_{label}_{r}"
            self.responses.append(name)
            lines.append(f"  {name}:")
            variants = rng.randint(1, 4)
            default_at = rng.randrange(variants) if rng.random() < 0.95 else None
            for v in range(variants):
                if self.defective and rng.random() < 0.08:
                    lines.extend(self.defect(scope, v == default_at))
                    continue
                lines.append(f"    - text: {yaml_str(self.template(scope))}")
                if v != default_at:
                    lines.append(f"      condition: {yaml_str(self.decorated_condition(scope))}")
                if rng.random() < 0.2:
                    lines.append(f"      metadata:\n        rephrase: {rng.choice(['true', 'false'])}")
        return "\n".join(lines) + "\n"

    def defect(self, scope, is_default):
        """One variant with a mistake the reference reports."""
        rng = self.rng
        text = yaml_str(self.template(scope))
        kind = rng.randrange(7)
        if kind == 0:
            return ["    - text: " + rng.choice(['""', '"   "'])]
        if kind == 1:
            return [f"    - text: {text}", f"      conditon: {yaml_str(self.condition(scope))}"]
        if kind == 2:
            return [f"    - {rng.choice(['[a, b]', '5', 'true', '{}'])}"]
        if kind == 3:
            return [f"    - text: {text}", f"      condition: {yaml_str(rng.choice(BAD_CONDITIONS))}"]
        if kind == 4:
            ref = rng.choice(["session.nope.e", f"session.{scope or 'project'}.undeclared", "session.system.x", "session.project.zz"])
            return [f"    - text: {text}", f"      condition: {yaml_str(ref + ' == 1')}"]
        if kind == 5:
            return [f"    - text: {text}", "      metadata: [rephrase]"]
        # A second default (or a first one where every other variant is conditioned).
        return [f"    - text: {text}"] + ([] if is_default else [f"    - text: {text}"])

    def generate(self):
        self.memory_files()
        for skill in self.skills:
            self.files[f"skills/{skill}/responses.yml"] = self.response_file(skill, skill)
        self.files["responses.yml"] = self.response_file(None, "root")
        return self

    # -- memories -----------------------------------------------------------
    def odd_string(self):
        """Text whose repr inside a list or dict needs Python's escaping rules."""
        rng = self.rng
        pool = ["\u0600", "\u061c", "\u0378", "\U000e0001", "\ufffc", "\ufffd", "\x7f", "\x85",
                "\u00a0", "\u2028", "\t", "\n", "'", '"', "\\", "é", "😀", "\u200b", "a"]
        return "".join(rng.choice(pool) for _ in range(rng.randint(0, 4)))

    def random_float(self):
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:
            # Any finite double: its shortest repr must match CPython's.
            while True:
                x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
                if math.isfinite(x):
                    return x
        if roll < 0.7:
            return round(rng.uniform(-1e6, 1e6), rng.randint(0, 6))
        return rng.choice([0.0, -0.0, 0.5, 2.25, 1e3, 1e16, 1e22, 2210353320000000.25, 0.1 + 0.2, -1.5e-7, 5.0, 123456789012345678.0])

    def value_for(self, ty, values):
        rng = self.rng
        if rng.random() < 0.15:
            return None
        if ty == "text":
            return rng.choice(WORDS + ["lost", "1", "True", self.odd_string()])
        if ty == "categorical":
            return rng.choice(values)
        if ty == "int":
            return rng.choice([0, 1, 5, 42, -3, 10**12, 2**53 + 1, 2**63 - 1, -(2**63), rng.randint(-10**6, 10**6)])
        if ty == "float":
            return self.random_float()
        if ty == "bool":
            return rng.choice([True, False])
        if ty == "list":
            return rng.choice([[], [1, "a"], ["x", ["y", None]], [True, 2.5], [self.odd_string(), self.random_float()]])
        return rng.choice([None, "s", 3, self.random_float(), True, [1], {"k": "v", "n": [1, 2]}, {},
                           {self.odd_string(): [self.odd_string(), -0.0, None, False]}])

    def memory(self):
        """A memory as the reference's slots and as utter's JSON."""
        slots, nested = {}, {}
        for ns, name, _, ty, values in self.entries + [(a, b, "public", c, []) for a, b, c in BUNDLED_REFS]:
            if self.rng.random() < 0.3:
                continue  # unset
            value = self.value_for(ty, values)
            slots[f"{ns}.{name}"] = value
            nested.setdefault(ns, {})[name] = value
        return slots, nested


def py_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def yaml_str(s):
    return json.dumps(s, ensure_ascii=False)


# ---------------------------------------------------------------------------
# The reference engine
# ---------------------------------------------------------------------------


class _Handle:
    """The tracker reads `MemoryManager` and placeholder substitution make."""

    def __init__(self, slots, skill):
        self.slots, self.skill, self.memory = slots, skill, None

    def get_slot(self, name):
        return self.slots.get(name)

    def memory_scope(self):
        return self.skill, self.skill


class Reference:
    def __init__(self, root):
        default = load_default_skill_catalog_result()
        project = load_skill_catalog_result(root, inherit_flags_from=default.catalog.skills)
        self.catalog = SkillCatalog(skills={**default.catalog.skills, **project.catalog.skills})
        self.project_memory = _load_project_memory(root)
        self.registry, _, _ = load_project_responses_for_validation(root)

    def deliver(self, name, skill, slots):
        handle = _Handle(slots, skill)
        handle.memory = MemoryManager(self.catalog, self.project_memory, handle)
        values = {k: e.value for k, e in handle.memory.read_all(skill, skill).items()}
        variant = self.registry.select_variant(name, values)
        template = name if variant is None else variant.text
        text = substitute_memory_placeholders(template, handle)
        return {"text": text, "rephrase": bool(variant and variant.rephrase), "fallback": variant is None}


RESPONSE_IN_MESSAGE = re.compile(r"response '([^']+)'")
# The reference names a variant in the message (`response 'x', variant 2`);
# a finding about the whole response names none. utter's `variant` must agree.
VARIANT_IN_MESSAGE = re.compile(r"response '[^']+', variant (\d+)")


def reference_errors(root):
    out = Counter()
    for f in collect_project_findings(root):
        if f.code in CONFIG_CODES or f.severity != "error":
            continue
        m = RESPONSE_IN_MESSAGE.search(f.message)
        v = VARIANT_IN_MESSAGE.search(f.message)
        out[(f.code, m.group(1) if m else None, int(v.group(1)) if v else None)] += 1
    return out


def utter_errors(utter, root):
    """Error findings by (code, response, variant), and each key's messages."""
    run = subprocess.run([utter, "check", str(root), "--format", "json"], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"utter check failed to run: {run.stderr}")
    out, messages = Counter(), {}
    for f in json.loads(run.stdout)["findings"]:
        if f["severity"] == "error":
            key = (f["code"], f["response"], f["variant"])
            out[key] += 1
            messages.setdefault(key, []).append(f["message"])
    return out, messages


def utter_render(utter, root, name, skill, memory_path):
    run = subprocess.run(
        [utter, "render", str(root), name, "--skill", skill, "--memory", str(memory_path), "--format", "json"],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        return {"error": run.stderr.strip()}
    d = json.loads(run.stdout)
    return {"text": d["text"], "rephrase": d["rephrase"], "fallback": d["fallback"]}


def documented_reason(code, message):
    for key, (prefix, pattern) in DOCUMENTED.items():
        if prefix is not None and code.startswith(prefix) and re.search(pattern, message):
            return key
    return None


def classify_validation(ours, messages, theirs):
    """None when agreed, else the DOCUMENTED key that explains every extra
    finding of utter's, or 'unexpected'."""
    extra, missing = ours - theirs, theirs - ours
    if not extra and not missing:
        return None
    reasons = set()
    # Defaults are not counted past a malformed variant (docs/semantics.md `no-cascade`).
    malformed = {r for (c, r, _) in ours if c in ("mantle.validation.response.invalid_variant_key", "mantle.validation.response.invalid_variant_shape")}
    for (code, response, variant) in list(missing):
        if code in ("mantle.validation.response.multiple_defaults", "mantle.validation.response.default_required") and response in malformed:
            del missing[(code, response, variant)]
            reasons.add("no-cascade")
    if missing:
        return "unexpected"
    for key, count in extra.items():
        code = key[0]
        explained = [r for r in (documented_reason(code, m) for m in messages[key]) if r]
        if len(explained) < count:
            return "unexpected"
        reasons.update(explained)
    return sorted(reasons)[0] if reasons else None


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--utter", required=True)
    ap.add_argument("--cases", type=int, default=5000, help="delivery cases to run (at least)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="folder to keep the projects of unexpected disagreements in")
    ap.add_argument("--show", type=int, default=0, help="print this many agreed deliveries that render a list, dict or float")
    ap.add_argument("--fixture", action="append", default=[], help="also compare the findings of this project folder")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="utter-conformance-"))
    keep = Path(args.keep) if args.keep else None
    tally = {kind: Counter() for kind in ("validation", "delivery")}
    unexpected = []
    shape = Counter()  # what the delivery cases exercised

    for fixture in args.fixture:
        (ours, messages), theirs = utter_errors(args.utter, fixture), reference_errors(Path(fixture))
        verdict = classify_validation(ours, messages, theirs)
        tally["validation"][verdict or "agreed"] += 1
        if verdict == "unexpected":
            unexpected.append(("validation", fixture, {"utter": sorted(ours), "reference": sorted(theirs)}))

    index = 0
    while tally["delivery"].total() < args.cases:
        project = Project(rng, index).generate()
        root = work / f"p{index}"
        for rel, text in project.files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        (ours, messages), theirs = utter_errors(args.utter, root), reference_errors(root)
        verdict = classify_validation(ours, messages, theirs)
        tally["validation"][verdict or "agreed"] += 1
        if verdict == "unexpected":
            unexpected.append(("validation", root, {"utter": sorted(ours), "reference": sorted(theirs)}))
        if not ours and not theirs:
            reference = Reference(root)
            for m in range(4):
                slots, nested = project.memory()
                memory_path = root / f"memory-{m}.json"
                memory_path.write_text(json.dumps(nested, ensure_ascii=False), encoding="utf-8")
                for name in project.responses + ["utter_not_defined"]:
                    skill = rng.choice(project.skills + ["default_completed"])
                    mine = utter_render(args.utter, root, name, skill, memory_path)
                    want = reference.deliver(name, skill, slots)
                    shape["fallback" if want["fallback"] else "variant"] += 1
                    shape["rephrase"] += want["rephrase"]
                    verdict = classify_delivery(mine, want)
                    tally["delivery"][verdict or "agreed"] += 1
                    if verdict is None and args.show and re.search(r"[\[{]'|\d\.\d|e[+-]\d", want["text"]):
                        args.show -= 1
                        print(f"agreed: {want['text']!r}")
                    if verdict == "unexpected":
                        unexpected.append(("delivery", root, {"response": name, "skill": skill, "memory": memory_path.name, "utter": mine, "reference": want}))
        if keep and unexpected and unexpected[-1][1] == root:
            shutil.copytree(root, keep / root.name, dirs_exist_ok=True)
        index += 1

    print(f"seed {args.seed}, {index} generated projects\n")
    print("| kind | cases | agreed | documented | unexpected |")
    print("| - | -: | -: | -: | -: |")
    for kind, counts in tally.items():
        documented = sum(v for k, v in counts.items() if k in DOCUMENTED)  # noqa: E501
        print(f"| {kind} | {counts.total()} | {counts['agreed']} | {documented} | {counts['unexpected']} |")
    print(f"\ndelivery cases: {shape['variant']} selected a variant, {shape['fallback']} fell back to the name, {shape['rephrase']} rephrase")
    for key in DOCUMENTED:
        n = sum(t[key] for t in tally.values())
        if n:
            print(f"documented `{key}` (docs/semantics.md, Differences): {n}")
    for kind, root, detail in unexpected[:20]:
        print(f"\nunexpected {kind} in {root}:\n  {json.dumps(detail, ensure_ascii=False)}")
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
