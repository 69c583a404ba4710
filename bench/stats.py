"""Distribution summaries for the benchmark scripts."""

import os
import statistics


def summary(name, values, unit="ms"):
    values = sorted(values)
    if os.environ.get("BENCH_RAW"):  # every value too, to pool runs (A/B comparisons)
        print(f"raw {name}: " + " ".join(f"{v:.1f}" for v in values))
    p95 = values[int(0.95 * (len(values) - 1))]
    return (f"{name}: n={len(values)} median {statistics.median(values):.1f} {unit}, "
            f"p95 {p95:.1f} {unit}, min {values[0]:.1f} {unit}, max {values[-1]:.1f} {unit}")
