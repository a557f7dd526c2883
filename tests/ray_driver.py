"""A Ray driver the tests run inside a network namespace of their own
(tests/test_ray.py): ``python ray_driver.py JOB.json``.

JOB holds ``rows`` (the input rows), ``output`` (a JSONL path: one decoded record per
scored row), ``temp_dir`` (Ray's, short: Unix socket paths are limited to ~107
characters), ``address`` (None: start a local Ray of ``num_cpus`` CPUs) and
``score_dataset``'s keyword arguments under ``kwargs``. The driver writes ``output``
and, last, ``<output>.done`` holding the run's seconds, then shuts Ray down.
"""

from __future__ import annotations

import json
import sys
import time


def main(job_path: str) -> None:
    import ray
    from halluscope.ray import record, score_dataset

    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    started = time.perf_counter()
    if job.get("address"):
        ray.init(address=job["address"], log_to_driver=False)
    else:
        ray.init(
            num_cpus=job.get("num_cpus", 2),
            _temp_dir=job["temp_dir"],
            include_dashboard=False,
            object_store_memory=job.get("object_store_memory", 100 * 1024 * 1024),
            log_to_driver=False,
        )
    try:
        ds = ray.data.from_items(job["rows"], override_num_blocks=job.get("blocks", 4))
        kwargs = dict(job["kwargs"])
        if isinstance(kwargs.get("actors"), list):
            kwargs["actors"] = tuple(kwargs["actors"])
        scored = score_dataset(ds, **kwargs)
        with open(job["output"], "w", encoding="utf-8") as out:
            for row in scored.iter_rows():
                out.write(json.dumps(record(row), ensure_ascii=False, allow_nan=False) + "\n")
                out.flush()  # the tests watch the rows come out
        with open(job["output"] + ".done", "w", encoding="utf-8") as done:
            json.dump({"seconds": time.perf_counter() - started}, done)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
