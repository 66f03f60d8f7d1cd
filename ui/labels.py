"""Text of actions and tabs (here, below the main window, so dialogs can use it without an import
cycle)."""

from __future__ import annotations


def strip_mnemonic(text: str) -> str:
    """``"Save &as…"`` -> ``"Save as…"``, ``"Sites && imports"`` -> ``"Sites & imports"``."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")
