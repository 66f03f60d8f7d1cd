"""The replay as text and Markdown (the JSON is :meth:`ReplayResult.to_dict`)."""

from __future__ import annotations

from advisor.replay.results import BAR, ReplayResult


# --- output ----------------------------------------------------------------------------------
def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    return f"{x:.4g}"


def _shown(case: dict, missing: str) -> tuple[str, str]:
    """(the expected figure as ``value [low, high] unit`` or ``missing`` with the problem, the measured
    number's qualifier unless exact) of one case of :meth:`ReplayResult.to_dict`."""
    exp = case["expected"]
    shown = (f"{_fmt(exp['value'])} [{_fmt(exp['low'])}, {_fmt(exp['high'])}] {exp['unit'] or ''}"
             if exp else missing.format(case.get("problem", "")))
    return shown, "" if case["qualifier"] == "=" else case["qualifier"]


def _host_check_lines(checks: list[dict]) -> list[str]:
    """The documents' setups against the advised host count (replay.hosts), Markdown."""
    if not checks:
        return []
    lines = ["", f"The advised host count equals the hosts the document ran for {sum(c['agrees'] for c in checks)} of "
             f"{len(checks)} setups:", "", "| setup | document | ran on | advised | why they differ |",
             "|---|---|---|---|---|"]
    lines += [f"| {c['setup']} | {c['document']} {c['locator']} | {c['document_hosts']} | {c['advised_hosts']} | "
              f"{c.get('why', '-')} |" for c in checks]
    return lines


def _side_by_side(d: dict) -> list[str]:
    """Held out and in-sample, one line each (held out first: it is the headline): experiments and
    values inside the intervals, their median width, option pairs in the documents' order."""
    out = []
    for mode in ("held_out", "in_sample"):
        h = d["side_by_side"].get(mode)
        if h is None:
            continue
        width = "-" if h["interval_median_width"] is None else f"{h['interval_median_width']:.2f}"
        out.append(f"{mode.replace('_', '-')}: {h['passed']}/{h['experiments']} experiments "
                   f"({100 * h['share']:.0f} %), {h['cases_within']}/{h['cases']} values inside the "
                   f"{100 * d['summary']['level']:.0f} % intervals ({100 * h['values_share']:.0f} %), median width "
                   f"{width} of the value, {h['zero_width_echoes']} zero-width echoes, option pairs in the "
                   f"documents' order {100 * h['order_share']:.0f} % of {h['order_pairs']}")
    if "held_out" not in d["side_by_side"]:
        out.append("held-out: `capadvisor replay --held-out` (each experiment left out of the models)")
    return out


def _known(n: int) -> str:
    return f"{n} known failure{'' if n == 1 else 's'}"


def _verdict(d: dict, s: dict) -> str:
    """PASS or FAIL against the in-sample bar (the exit status says the same); held out the figures
    are reported, not judged (the command exits 0)."""
    if d["mode"] != "in-sample":
        return "reported, not judged (the bar is the in-sample replay's)"
    return "PASS" if s["ok"] else "FAIL"


def to_markdown(result: ReplayResult) -> str:
    """The replay as Markdown: per-document summary, then every experiment and case."""
    d = result.to_dict()
    s = d["summary"]
    lines = [f"# Replay of the documents ({d['mode']})", "",
             f"{s['passed']} of {s['experiments']} experiments pass ({100 * s['share']:.1f} %; bar "
             f"{100 * BAR:.0f} %); {s['cases_within']} of {s['cases']} measured values lie within the advice's "
             f"interval; {s['setups_with_host_count']} of {s['setups']} setups get a host count; "
             f"{_known(s['xfail'])}. **{_verdict(d, s)}**", "",
             *_side_by_side(d), "",
             "| document | experiments | passed | known failures | values | within |", "|---|---|---|---|---|---|"]
    for doc, c in d["documents"].items():
        lines.append(f"| {doc} | {c['experiments']} | {c['passed']} | {c['xfail']} | {c['cases']} | "
                     f"{c['cases_within']} |")
    if s["infeasible_setups"]:
        lines += ["", "Setups without a host count: " + ", ".join(s["infeasible_setups"])]
    lines += _host_check_lines(d["host_checks"])
    if d["coverage"]:
        lines += ["", "## Coverage of the documents' rows", "",
                  "| document | rows | locators | experiments | locators replayed | locators on setups only | "
                  "locators that are not experiments (by reason class; a locator may have two) | rows unaccounted |",
                  "|---|---|---|---|---|---|---|---|"]
        for doc, c in d["coverage"].items():
            nots = ", ".join(f"{k} {v}" for k, v in sorted(c["not_experiment_locators"].items())) or "-"
            lines.append(f"| {doc} | {c['rows']} | {c['locators']} | {c['experiments']} | {c['replayed_locators']} | "
                         f"{c['setup_locators']} | {c['not_experiment_locator_count']}: {nots} | "
                         f"{len(c['unaccounted']) + len(c['problems'])} |")
        lines += ["", "| document | locator | rows | replayed by | not an experiment |", "|---|---|---|---|---|"]
        for doc, c in d["coverage"].items():
            for loc, x in c["locators_detail"].items():
                left = f"; {len(x['unaccounted'])} UNACCOUNTED" if x["unaccounted"] else ""
                lines.append(f"| {doc[:3]} | {loc} | {x['rows']} | {', '.join(x['experiments']) or '-'} | "
                             f"{', '.join(x['reasons']) or '-'}{left} |")
    lines += ["", "| experiment | locator | decision / figure | rows | measured | expected [low, high] | "
                  "within | hosts |", "|---|---|---|---|---|---|---|---|"]
    for e in d["experiments"]:
        mark = "pass" if e["passed"] else ("FAIL (known: " + e["xfail"] + ")" if e["xfail"] else "FAIL")
        lines.append(f"| **{e['id']}** {e['title']} | {e['document'][:3]} {e['locator']} | {e['decision']} / "
                     f"{e['figure']} | | | | **{mark}** | |")
        for c in e["cases"]:
            shown, q = _shown(c, 'missing: {}')
            lines.append(f"| {c['id']} | | {c['choice'] or '(chosen)'}{' ' + c['key'] if c['key'] else ''} | "
                         f"{', '.join(c['rows'])} | {q}{_fmt(c['measured'])} | {shown} | "
                         f"{'yes' if c['within'] else 'no'} | {c['host_count']} |")
    return "\n".join(lines) + "\n"


def to_text(result: ReplayResult) -> str:
    """A compact listing: one line per case, the summary last."""
    d = result.to_dict()
    out = []
    for e in d["experiments"]:
        status = "PASS" if e["passed"] else ("XFAIL" if e["xfail"] else "FAIL")
        out.append(f"{status:5} {e['id']}  {e['document'][:3]} {e['locator']}: {e['title']}"
                   + (f"  [known: {e['xfail']}]" if e["xfail"] and not e["passed"] else ""))
        for c in e["cases"]:
            shown, q = _shown(c, 'missing ({})')
            out.append(f"   {'ok ' if c['within'] else 'OUT'} {','.join(c['rows']):<24} measured {q}{_fmt(c['measured'])}"
                       f"  expected {shown}  ({c['decision']}"
                       f"{' ' + c['choice'] if c['choice'] else ''} {c['figure']}{' ' + c['key'] if c['key'] else ''};"
                       f" hosts {c['host_count']})")
    for doc, c in d["coverage"].items():
        nots = ", ".join(f"{k} {v}" for k, v in sorted(c["not_experiment_locators"].items())) or "none"
        out.append(f"coverage {doc[:3]}: {c['rows']} rows in {c['locators']} locators; {c['experiments']} experiments "
                   f"replay {c['replayed_locators']} locators, {c['setup_locators']} rest on setups; "
                   f"{c['not_experiment_locator_count']} are not experiments ({nots}); "
                   f"{len(c['unaccounted']) + len(c['problems'])} rows unaccounted")
    out += [f"hosts {c['setup']}: advised {c['advised_hosts']}, the document ran {c['document_hosts']}"
            + ("" if c["agrees"] else f": {c.get('why', '')}") for c in d["host_checks"]]
    s = d["summary"]
    out += _side_by_side(d)
    out.append(f"{s['passed']}/{s['experiments']} experiments pass ({100 * s['share']:.1f} %, bar {100 * BAR:.0f} %),"
               f" {s['cases_within']}/{s['cases']} values within, {s['setups_with_host_count']}/{s['setups']} setups "
               f"with a host count, {_known(s['xfail'])}: {_verdict(d, s)}")
    return "\n".join(out) + "\n"
