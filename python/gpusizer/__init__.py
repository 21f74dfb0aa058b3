"""gpusizer: how much GPU memory a model needs, whether it fits, how fast it runs, what it costs.

The calculator's C++ core, for Python. Every function takes a configuration as a dict (or JSON
text) with the keys of docs/config.md, and answers the same JSON as the command line's
``gpusizer ... --json``, as a :class:`Result` (a dict) value for value::

    import gpusizer
    r = gpusizer.estimate({"model": "llama-3.1-8b", "weights": "q4_k_m", "gpu": "rtx-4060-ti-16gb"})
    r["fits"], r["memory"]["per_gpu"]["total"]

A bad key or value raises :class:`Error`, whose ``key`` names it. ``sweep`` turns a grid of
configurations into flat rows for ``pandas.DataFrame(rows)``.
"""

from __future__ import annotations

import html
import itertools
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

__all__ = [
    "Error", "Result", "estimate", "fit", "recommend", "plan", "simulate", "assumptions", "inspect",
    "models", "gpus", "link", "config_from_link", "sweep", "config_keys", "__version__",
]


class Error(ValueError):
    """A configuration, option or file the calculator refuses.

    ``code`` says what kind of failure it is (``bad_value``, ``unknown_id``, ``incompatible``,
    ``gpu_unsupported``, ``unreadable``, ``too_large``, ``too_deep``, ``internal``), ``key`` the
    configuration key, flag or file it is about ("" when none), and the message names both.
    """

    def __init__(self, message: str, code: str = "bad_value", key: str = "") -> None:
        if key and not message.startswith(key + ":"):
            message = f"{key}: {message}"   # as the core writes it: the key first
        super().__init__(message)
        self.message = message
        self.code = code
        self.key = key

    def __reduce__(self):  # picklable across processes (multiprocessing, joblib)
        return (type(self), (self.message, self.code, self.key))


from . import _core  # noqa: E402  (after Error: the module raises it)

_core._set_error_type(Error)
_core.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets"))

__version__: str = _core.version

Config = Union[Mapping[str, Any], str]


class Result(dict):
    """A result: the command line's JSON as a dict, shown as a table in notebooks."""

    def _repr_html_(self) -> str:
        return _html_of(self)

    def to_json(self, indent: Optional[int] = 2) -> str:
        """The result as JSON text, as ``gpusizer ... --json`` writes it."""
        return json.dumps(self, indent=indent)


def _text(value: Optional[Config], what: str) -> str:
    """A configuration or options object as JSON text; a str is taken as JSON text already."""
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value
    if not isinstance(value, Mapping):
        raise Error(f"must be a dict or JSON text, got {type(value).__name__}", "bad_value", what)
    try:
        return json.dumps(dict(value), allow_nan=False)
    except (TypeError, ValueError) as e:  # a value JSON cannot hold: a set, NaN, an object
        raise Error(f"cannot be written as JSON: {e}", "bad_value", what) from None


def _merged(options: Optional[Config], extra: Dict[str, Any], what: str) -> str:
    if not extra:
        return _text(options, what)
    base = json.loads(_text(options, what))
    if not isinstance(base, dict):
        raise Error("must be a JSON object", "bad_value", what)
    base.update(extra)
    return _text(base, what)


def _result(text: str) -> Result:
    return Result(json.loads(text))


def estimate(config: Config) -> Result:
    """Memory per GPU, whether it fits, speed, interconnect, power and cost of one configuration
    (``gpusizer estimate --json``)."""
    return _result(_core.estimate(_text(config, "config")))


def fit(config: Config) -> Result:
    """The largest context, batch and the smallest GPU count that fit (``gpusizer fit --json``)."""
    return _result(_core.fit(_text(config, "config")))


def recommend(config: Config, constraints: Optional[Config] = None, **kwargs: Any) -> Result:
    """GPUs that run the configuration, cheapest first (``gpusizer recommend --json``).

    ``constraints`` (or keyword arguments) as the answer's "query" object names them:
    budget_usd, power_cap_w, min_tokens_per_s, single_node, segments, max_gpus, sort."""
    return _result(_core.recommend(_text(config, "config"), _merged(constraints, kwargs, "constraints")))


def plan(config: Config, query: Optional[Config] = None, **kwargs: Any) -> Result:
    """The layout search (``gpusizer plan --json``): the fewest GPUs and the split that run it.

    ``query`` (or keyword arguments): mode, top, target_rps, percentile, cheapest_gpu (every
    catalog GPU type at target_rps, cheapest per million tokens first), max_ttft_ms, max_tpot_ms,
    max_micro_batch, offload, expert_parallel, context_parallel, ..."""
    return _result(_core.plan(_text(config, "config"), _merged(query, kwargs, "query")))


def simulate(config: Config, options: Optional[Config] = None, **kwargs: Any) -> Result:
    """A request-level simulation of serving (``gpusizer simulate --json``): latency percentiles,
    goodput and KV occupancy over time.

    ``options`` (or keyword arguments): requests, seed, burstiness, lengths, length_spread,
    prefix_hit_rate, max_concurrency, slo_ttft_ms, slo_tpot_ms, timeline_points, and trace (the
    text of an Azure CSV or JSONL trace). The request rate is the configuration's request_rate, or
    with max_rate=True the highest rate whose latencies at ``percentile`` (50, 90 or 99; default
    99) meet the SLOs: ``result["simulation"]["max_rate"]["rps"]``, the run reported at it."""
    return _result(_core.simulate(_text(config, "config"), _merged(options, kwargs, "options")))


def assumptions(config: Config) -> List[Dict[str, Any]]:
    """What the estimate assumed, each with its source (``gpusizer estimate --assumptions``)."""
    return json.loads(_core.assumptions(_text(config, "config")))


def inspect(path: Union[str, os.PathLike]) -> Result:
    """What a GGUF file, a .safetensors file or index, or a model folder holds
    (``gpusizer inspect PATH --json``). Only the headers are read."""
    return _result(_core.inspect(os.fspath(path)))


def models() -> List[Dict[str, Any]]:
    """The catalog's models (``gpusizer models --json``)."""
    return json.loads(_core.models())


def gpus() -> List[Dict[str, Any]]:
    """The catalog's GPUs (``gpusizer gpus --json``)."""
    return json.loads(_core.gpus())


def link(config: Config) -> str:
    """The share link (``#v=1&...``) of a configuration; the app and the page open it."""
    return _core.link(_text(config, "config"))


def config_from_link(link_text: str) -> Dict[str, Any]:
    """The configuration a share link holds, with every key."""
    return json.loads(_core.config_from_link(link_text))


def config_keys() -> List[Dict[str, Any]]:
    """The configuration's keys: name, kind, unit, range, default, allowed values and meaning."""
    return _core.config_keys()


def flatten(value: Any, prefix: str = "") -> Dict[str, Any]:
    """A nested result as one level of dotted keys ("memory.per_gpu.total"); a list is kept as
    JSON text, so that each row holds scalars only."""
    out: Dict[str, Any] = {}
    if isinstance(value, Mapping):
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list):
        out[prefix] = json.dumps(value)
    else:
        out[prefix] = value
    return out


def sweep(config: Config, errors: str = "row", **axes: Iterable[Any]) -> List[Dict[str, Any]]:
    """Estimates over a grid: every combination of the values given for each key, as flat rows.

    ``sweep({"model": "llama-3.1-8b"}, gpu=["rtx-4090", "h100-sxm"], context=[8192, 32768])``
    gives four rows. Each row holds the swept keys first, then the report flattened to dotted keys
    (``fits``, ``memory.per_gpu.total``, ``speed.decode_tokens_per_s``, ...), ready for
    ``pandas.DataFrame(rows)``. A combination the calculator refuses gives a row with ``error``
    (its message) and ``error_key`` when ``errors="row"`` (the default), or raises with
    ``errors="raise"``."""
    if errors not in ("row", "raise"):
        raise Error(f"must be row or raise, got '{errors}'", "bad_value", "errors")
    base = json.loads(_text(config, "config"))
    if not isinstance(base, dict):
        raise Error("must be a JSON object", "bad_value", "config")
    names = list(axes)
    values = []
    for name in names:
        v = axes[name]
        values.append([v] if isinstance(v, (str, bytes, Mapping)) or not isinstance(v, Iterable) else list(v))
    rows: List[Dict[str, Any]] = []
    for combo in itertools.product(*values):
        swept = dict(zip(names, combo))
        row: Dict[str, Any] = {k: (json.dumps(v) if isinstance(v, (Mapping, list)) else v) for k, v in swept.items()}
        try:
            row.update(flatten(estimate({**base, **swept})))
            row["error"] = None
            row["error_key"] = None
        except Error as e:
            if errors == "raise":
                raise
            row["error"] = e.message
            row["error_key"] = e.key
        rows.append(row)
    return rows


# [SECTION] notebook display ---------------------------------------------------------------------

_GIB = 1024 ** 3


def _fmt(v: Any, unit: str = "") -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:,.3g} {unit}".strip() if abs(v) < 1000 else f"{v:,.0f} {unit}".strip()
    return f"{v:,} {unit}".strip() if isinstance(v, int) else html.escape(str(v))


def _html_of(r: Mapping[str, Any]) -> str:
    """An estimate as a short table (verdict, memory, speed, power, cost); other results as JSON."""
    mem = r.get("memory", {}).get("per_gpu") if isinstance(r.get("memory"), Mapping) else None
    if "fits" not in r or not isinstance(mem, Mapping):
        return "<pre>" + html.escape(json.dumps(r, indent=2)[:20000]) + "</pre>"
    cfg = r.get("config", {})
    cap = r["memory"].get("gpu_usable") or 0
    rows = [
        ("Model", html.escape(str(cfg.get("model", "")))),
        ("GPU", f"{html.escape(str(r.get('gpu', {}).get('name', cfg.get('gpu', ''))))} × {cfg.get('gpus', 1)}"),
        ("Verdict", "<b style='color:#137333'>fits</b>" if r["fits"] else "<b style='color:#b3261e'>does not fit</b>"),
        ("Memory per GPU", f"{mem.get('total', 0) / _GIB:,.2f} GiB of {cap / _GIB:,.2f} GiB"),
    ]
    for part in ("weights", "kv_cache", "activations", "optimizer", "gradients", "overhead"):
        if mem.get(part):
            rows.append((f"&nbsp;&nbsp;{part.replace('_', ' ')}", f"{mem[part] / _GIB:,.2f} GiB"))
    speed = r.get("speed", {}) if isinstance(r.get("speed"), Mapping) else {}
    for key, label, unit in (("decode_tokens_per_s", "Decode", "tokens/s"), ("prefill_tokens_per_s", "Prefill", "tokens/s"),
                             ("ttft_s", "Time to first token", "s")):
        if speed.get(key):
            rows.append((label, _fmt(speed[key], unit)))
    power = r.get("power", {}) if isinstance(r.get("power"), Mapping) else {}
    if power.get("wall_w"):
        rows.append(("Power at the wall", _fmt(power["wall_w"], "W")))
    cost = r.get("cost", {}) if isinstance(r.get("cost"), Mapping) else {}
    if cost.get("own_usd_per_million_tokens"):
        rows.append(("Cost (own)", _fmt(cost["own_usd_per_million_tokens"], "USD / M tokens")))
    body = "".join(f"<tr><th style='text-align:left'>{k}</th><td style='text-align:right'>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _key_doc() -> str:
    lines = ["", "Configuration keys (docs/config.md):"]
    for k in _core.config_keys():
        unit = f" [{k['unit']}]" if k["unit"] else ""
        lines.append(f"    {k['name']}{unit}: {k['meaning']}")
    return "\n".join(lines)


# The configuration's keys, from the key table, at the end of each function that takes one.
_KEYS_DOC = _key_doc()
for _f in (estimate, fit, recommend, plan, simulate, assumptions, link, sweep):
    _f.__doc__ = (_f.__doc__ or "") + "\n" + _KEYS_DOC
del _f
