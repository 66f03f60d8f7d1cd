"""Figure text for front ends: :mod:`advisor.text` (kept there, below the decision catalogue,
which formats choices with it)."""

from advisor.text import figure_parts, figure_text, fmt_value

__all__ = ["figure_parts", "figure_text", "fmt_value"]
