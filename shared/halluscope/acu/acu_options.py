"""dlsd_acu's score-changing options: the presets of its two hosts (FIZZ and FENICE,
docs/papers.md#hosts-fizz-and-fenice) and :class:`AcuOptions`, each field declared in
:data:`halluscope.options.OPTIONS`. The signature written from them is
:mod:`halluscope.acu.dlsd_signature`'s; the scoring that reads them,
:mod:`halluscope.acu.scoring`'s."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import options_for


@dataclass(frozen=True)
class HostPreset:
    """What a host system fixes: aggregation, alignment and granularity expansion."""

    aggregation: str
    alignment: str
    expansion: bool


HOSTS: dict[str, HostPreset] = {
    "fizz": HostPreset(aggregation="min", alignment="ent", expansion=True),
    "fenice": HostPreset(aggregation="mean", alignment="ent-neutral", expansion=False),
}


_DECLARED = options_for("dlsd_acu")


#: the AcuOptions fields (the other dlsd_acu options choose models and batching)
ACU_FIELDS = (
    "host",
    "sd_acu",
    "top_k",
    "aggregation",
    "alignment",
    "expansion",
    "expansion_threshold",
    "mix_weight",
    "filter_acus",
    "coref",
)


@dataclass(frozen=True)
class AcuOptions:
    """Every option that changes a dlsd_acu score (all of them go into the signature);
    each is declared, with its default and allowed values, in
    :data:`halluscope.options.OPTIONS`."""

    host: str = _DECLARED["host"].default
    sd_acu: bool = _DECLARED["sd_acu"].default
    top_k: int | None = _DECLARED["top_k"].default
    aggregation: str | None = _DECLARED["aggregation"].default  # None: the host's
    alignment: str | None = _DECLARED["alignment"].default  # None: the host's
    expansion: bool | None = _DECLARED["expansion"].default  # None: the host's
    expansion_threshold: float = _DECLARED["expansion_threshold"].default
    mix_weight: float = _DECLARED["mix_weight"].default
    filter_acus: bool = _DECLARED["filter_acus"].default
    coref: str = _DECLARED["coref"].default

    def __post_init__(self) -> None:
        for name in ACU_FIELDS:
            _DECLARED[name].check(getattr(self, name))

    @property
    def resolved(self) -> HostPreset:
        preset = HOSTS[self.host]
        return HostPreset(
            aggregation=self.aggregation or preset.aggregation,
            alignment=self.alignment or preset.alignment,
            expansion=preset.expansion if self.expansion is None else self.expansion,
        )
