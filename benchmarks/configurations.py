"""The harness's metric configurations: the named ones (:data:`NAMED_CONFIGS`), the
dlsd_acu hosts with their SD-ACU and DL-ACU variants, and ``NAME=METRIC:key=value``
specifications, as ``python -m benchmarks.harness run --config`` reads them
(docs/benchmarks.md, "How these numbers are made")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from halluscope.option_types import METRIC_SPECS

#: per-example score lists each metric's api result carries (``<dimension>_scores``): chi's
#: own and the dimensions of each metric's spec (halluscope.options.METRIC_SPECS, which a
#: test checks against the dimension registry), dlsd_acu's own
METRIC_DIMENSIONS = {
    name: (("chi",) if name == "chi" else ()) + (spec.dimensions or (name,)) for name, spec in METRIC_SPECS.items()
}
#: the configuration name of the word-overlap baseline's result rows
BASELINE = "baseline"


@dataclass(frozen=True)
class MetricConfig:
    """A named configuration: ``halluscope.api.score_<metric>(..., **kwargs)``."""

    name: str
    metric: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dimensions(self) -> tuple[str, ...]:
        return METRIC_DIMENSIONS[self.metric]


#: the papers exactly: their formulas, unit-against-unit matching (halluscope >= the
#: `formula`/`grounding` options; older checkouts had only these behaviours)
SEED_EXACT = {
    "formula": "paper",
    "grounding": "units",
    "truecase": False,
    "relation_slots": "head",
    "intransitive": "none",
}

#: chi-family configurations by name. "chi" is the default configuration;
#: "chi-units" the default without text grounding; "chi-no-attribution",
#: "chi-no-truecase", "chi-head-slots", "chi-no-intransitive", "chi-no-lexical" and
#: "chi-no-wordnet"
#: the default with one step off ("chi-all-pairs": subject-verb pairs for every
#: object-less verb); "-paper", "-minmax" and the rhi variants are the papers' formulas
#: (chi-paper also with the CHI paper's sentence matching), as the issue asks to keep
#: them reproducible (formula="paper" also turns the lexical weight off)
NAMED_CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "chi": ("chi", {}),
    "chi-units": ("chi", {"grounding": "units"}),
    # ablations of the default: one of its steps off
    "chi-no-attribution": ("chi", {"attribution": False}),
    "chi-no-truecase": ("chi", {"truecase": False}),
    "chi-head-slots": ("chi", {"relation_slots": "head"}),
    "chi-no-intransitive": ("chi", {"intransitive": "none"}),
    "chi-all-pairs": ("chi", {"intransitive": "all"}),
    "chi-no-lexical": ("chi", {"lexical_weight": 0.0}),
    "chi-no-wordnet": ("chi", {"wordnet": False}),
    "chi-paper": ("chi", {**SEED_EXACT, "normalize": "paper", "relation_matching": "sentence"}),
    "chi-minmax": ("chi", {**SEED_EXACT, "normalize": "minmax"}),
    "ehi": ("ehi", {}),
    "qhi": ("qhi", {}),
    "rhi-linear": ("rhi", {**SEED_EXACT, "variant": "linear"}),
    "rhi-softmax": ("rhi", {**SEED_EXACT, "variant": "softmax"}),
}
#: dlsd_acu configurations per host: suffix -> (sd_acu, discourse links)
DLSD_VARIANTS = {"": (False, False), "+SD": (True, False), "+DL": (False, True), "+SD+DL": (True, True)}


def dlsd_config(host: str, variant: str, options: Mapping[str, Any]) -> MetricConfig:
    """``<host><variant>`` (e.g. ``fizz+SD``) with the run's NLI/decomposer options;
    +SD sets ``sd_acu`` (with ``top_k``), +DL sets ``dl_acu`` to the run's backend."""
    sd_acu, links = DLSD_VARIANTS[variant]
    kwargs = {"host": host, "sd_acu": sd_acu, "dl_acu": options.get("dl_acu", "auto") if links else "none"}
    for key in ("nli_model", "decomposer", "decomposer_model", "coref", "device", "dtype", "batch_size"):
        if options.get(key) is not None:
            kwargs[key] = options[key]
    if sd_acu and options.get("top_k") is not None:
        kwargs["top_k"] = options["top_k"]
    return MetricConfig(f"{host}{variant}", "dlsd_acu", kwargs)


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_configs(specs: Sequence[str], options: Mapping[str, Any]) -> list[MetricConfig]:
    """Configuration names to :class:`MetricConfig`: a name of :data:`NAMED_CONFIGS`;
    ``fizz``/``fenice`` with ``+SD``/``+DL``/``+SD+DL``; ``dlsd`` (the four of
    ``options["host"]``); or ``NAME=METRIC[:key=value,...]`` (values read as JSON when
    they parse). ``device``/``batch_size`` of ``options`` go to chi-family metrics too."""
    configs: list[MetricConfig] = []
    for spec in specs:
        if spec == "dlsd":
            configs += [dlsd_config(options.get("host", "fizz"), v, options) for v in DLSD_VARIANTS]
            continue
        host = next((h for h in ("fizz", "fenice") if spec == h or spec.startswith(h + "+")), None)
        if host is not None:
            variant = spec[len(host) :]
            if variant not in DLSD_VARIANTS:
                raise ValueError(f"unknown dlsd configuration {spec!r}; variants: {list(DLSD_VARIANTS)}")
            configs.append(dlsd_config(host, variant, options))
            continue
        if "=" in spec:
            name, _, rest = spec.partition("=")
            metric, _, arguments = rest.partition(":")
            kwargs = {k: _parse_value(v) for k, _, v in (a.partition("=") for a in arguments.split(",") if a)}
        elif spec in NAMED_CONFIGS:
            name, (metric, kwargs) = spec, NAMED_CONFIGS[spec]
        else:
            raise ValueError(
                f"unknown configuration {spec!r}; named: {sorted(NAMED_CONFIGS)}, fizz[+SD][+DL], "
                "fenice[...], dlsd, or NAME=METRIC:key=value,..."
            )
        if metric not in METRIC_DIMENSIONS:
            raise ValueError(f"unknown metric {metric!r} in {spec!r}; metrics: {sorted(METRIC_DIMENSIONS)}")
        kwargs = dict(kwargs)
        if metric != "dlsd_acu":
            for key in ("device", "batch_size"):
                if options.get(key) is not None:
                    kwargs.setdefault(key, options[key])
        configs.append(MetricConfig(name, metric, kwargs))
    return configs
