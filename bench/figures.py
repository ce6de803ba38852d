"""What every benchmark prints: the machine and its load, each figure beside a floor measured in
the same run on the same machine, and the ratio; with one machine-readable line per figure.

A figure is worth comparing across machines only as a ratio to its floor: the floor is the
least a task of the same kind costs on that machine at that moment (a bare authenticated
request, reading the same rows with one query and writing the same bytes, an empty page), so
a faster or busier machine moves both. `bench/compare.py` reads the machine-readable lines:

    FIGURE <name> <value> <unit>

one per figure, its floor (`<name>.floor`) and their ratio (`<name>.ratio`, unit `x`); a
name has no spaces, a value is a plain decimal number. Lines that do not start with `FIGURE `
are for people.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

PREFIX = "FIGURE "


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> tuple[float, float, float]:
    """The load averages over 1, 5 and 15 minutes, as `uptime` prints them."""
    return os.getloadavg()


def machine() -> str:
    """One line naming the machine and its load now."""
    one, five, fifteen = load()
    return (
        f"machine: {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}; "
        f"load average {one:.2f} {five:.2f} {fifteen:.2f} (uptime)"
    )


def print_machine(label: str = "") -> None:
    print(f"{label}{machine()}", flush=True)
    print(f"{PREFIX}load {load()[0]:.2f} load", flush=True)


def figure(name: str, value: float, unit: str) -> None:
    """Print one machine-readable figure line."""
    if " " in name or " " in unit:
        raise ValueError("a figure's name and unit have no spaces")
    print(f"{PREFIX}{name} {value:.6g} {unit}", flush=True)


def beside_floor(
    name: str, value: float, floor: float, unit: str, *, what: str, floor_what: str
) -> float:
    """Print a figure, its floor and their ratio, for people and for compare.py; return the
    ratio. `what` and `floor_what` say in words what was measured."""
    ratio = value / floor if floor > 0 else float("inf")
    print(
        f"{what}: {value:.4g} {unit}; floor ({floor_what}): {floor:.4g} {unit}; ratio {ratio:.2f}x",
        flush=True,
    )
    figure(name, value, unit)
    figure(f"{name}.floor", floor, unit)
    figure(f"{name}.ratio", ratio, "x")
    return ratio


def best_of(call: Callable[[], object], repeat: int, clock=time.perf_counter) -> float:
    """The least time of `repeat` calls, in seconds (the least is the one least disturbed)."""
    times = []
    for _ in range(repeat):
        started = clock()
        call()
        times.append(clock() - started)
    return min(times)
