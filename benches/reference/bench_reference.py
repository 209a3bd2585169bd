#!/usr/bin/env python3
"""Times the reference engine (rasa-pro, Python) on the benchmark agents:
`ResponseRegistry.from_yaml`, `select_variant`, condition evaluation and
placeholder substitution. Run through run.sh, which installs rasa-pro into a
throwaway venv; nothing of that package is part of this repository.

    bench_reference.py delivery AGENTS_DIR      # per-case medians (ns), JSON
    bench_reference.py first AGENTS_DIR N       # load n<N> and deliver one response (start-up)
"""
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import structlog  # noqa: E402

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))

from rasa.mantle.content.responses import ResponseRegistry  # noqa: E402
from rasa.mantle.orchestration.memory_utils import substitute_memory_placeholders  # noqa: E402
from rasa.mantle.skills.conditions import evaluate_expression  # noqa: E402

CASES = [
    ("literal", "utter_literal"),
    ("first_true", "utter_first_true"),
    ("last_true", "utter_last_true"),
    ("default_after_10", "utter_default_after_10"),
    ("error_skipped", "utter_error_skipped"),
    ("three_placeholders", "utter_three_placeholders"),
    ("missing_name", "utter_missing"),
]


class _Entry:
    def __init__(self, value):
        self.value = value


class _Memory:
    """The two reads `substitute_memory_placeholders` makes of the memory manager."""

    def __init__(self, skill, values):
        self.skill, self.values = skill, values

    def read_all(self, skill_id, flow_id):
        return {k: _Entry(v) for k, v in self.values.items()}

    def get(self, skill_id, flow_id, name):
        key = f"{self.skill}.{name}"
        return _Entry(self.values[key]) if key in self.values else None


class _Handle:
    def __init__(self, skill, values):
        self.memory = _Memory(skill, values)

    def memory_scope(self):
        return self.memory.skill, None


def deliver(registry, name, values, handle):
    """What the engine does for one response: select, then interpolate (or fail closed)."""
    variant = registry.select_variant(name, values)
    if variant is None:
        return name
    return substitute_memory_placeholders(variant.text, handle)


def median_ns(fn, loops=2000, repeats=15):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            fn()
        samples.append((time.perf_counter_ns() - start) / loops)
    return statistics.median(samples)


def delivery(agents):
    values = {"bench.reason": "lost", "bench.card": "Visa ending 4242", "bench.count": 3, "bench.fee": 2.5}
    path = Path(agents) / "bench" / "skills" / "bench" / "responses.yml"
    registry = ResponseRegistry.from_yaml(path)
    handle = _Handle("bench", values)
    results = {case: median_ns(lambda n=name: deliver(registry, n, values, handle)) for case, name in CASES}
    results["from_yaml"] = median_ns(lambda: ResponseRegistry.from_yaml(path), loops=20, repeats=7)
    results["condition"] = median_ns(lambda: evaluate_expression('session.bench.reason == "lost"', values))
    results["check"] = deliver(registry, "utter_three_placeholders", values, handle)
    print(json.dumps(results))


def first(agents, n):
    n = int(n)
    values = {"bench.reason": "lost", "bench.count": 1, "bench.name": "Ada"}
    path = Path(agents) / f"n{n}" / "skills" / "bench" / "responses.yml"
    registry = ResponseRegistry.from_yaml(path)
    print(deliver(registry, f"utter_scaled_{n // 2}", values, _Handle("bench", values)))


if __name__ == "__main__":
    {"delivery": delivery, "first": first}[sys.argv[1]](*sys.argv[2:])
