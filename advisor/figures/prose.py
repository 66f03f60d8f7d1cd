"""Figure text for front ends: :mod:`advisor.text` (kept there, below the decision catalogue,
which formats choices with it), and :func:`prose` (above the catalogue: it words its choices)."""

from __future__ import annotations

import re

from advisor.text import figure_parts, figure_text, fmt_value

__all__ = ["figure_parts", "figure_text", "fmt_value", "prose"]

_RULE_ID = re.compile(r"\s*\[(?:[a-z][a-z0-9_]*\.[a-z0-9_.\-]+)(?:,\s*[a-z][a-z0-9_]*\.[a-z0-9_.\-]+)*\]")
_CONFLICTS = re.compile(r"\s*Conflicts resolved:.*?(?:\.(?=\s+[A-Z])|\.?$)", flags=re.DOTALL)


def prose(text: str) -> str:
    """A rationale or warning as people read it: rule ids in brackets (``[hc.migration-headroom]``)
    and the sentence listing the rules that conflicted left out, the engine's identifiers of
    choices (``nfs_file``) in their words."""
    from advisor.recommend import catalog

    out = _RULE_ID.sub("", str(text))
    # the engine's account of rules that disagreed names them by id: that is for the JSON, not prose
    out = _CONFLICTS.sub("", out)
    for d in catalog.CATALOG:
        for ident, label in d.labels:
            if "_" in ident:
                out = re.sub(rf"\b{re.escape(ident)}\b", label, out)
    return out
