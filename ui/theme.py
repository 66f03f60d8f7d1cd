"""Light, dark and workshop (high-contrast, large) looks; "system" follows the desktop's scheme.

The palette colours fill the ``${name}`` placeholders of ``resources/styles/app.qss``; plots read
the same colours through :func:`plot_colors` so that curves and cards match.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from string import Template

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

STYLES_DIR = Path(__file__).resolve().parent.parent / "resources" / "styles"
#: the application icon
ICON = Path(__file__).resolve().parent.parent / "resources" / "icons" / "capadvisor.png"

LIGHT = dict(window="#f6f7f9", panel="#ffffff", field="#ffffff", text="#1c2430", muted="#5b6675",
             border="#d5dae1", accent="#1f6feb", on_accent="#ffffff", good="#1a7f37", good_bg="#e7f5ea",
             warn="#b35900", bad="#c62828", bad_bg="#fdecea")
DARK = dict(window="#1b1f24", panel="#242a31", field="#1f242a", text="#e6e9ee", muted="#9aa4b1",
            border="#39424d", accent="#4c9aff", on_accent="#0b1320", good="#3fb950", good_bg="#17301f",
            warn="#e3a21a", bad="#ff6b6b", bad_bg="#3a1e1e")
#: workshop mode: high contrast for projectors
WORKSHOP = dict(window="#000000", panel="#101418", field="#0b0d10", text="#ffffff", muted="#c8d0da",
                border="#5a6675", accent="#ffd23f", on_accent="#000000", good="#4ade80", good_bg="#0f2a18",
                warn="#ffb020", bad="#ff6b6b", bad_bg="#3a1010")

#: series colours of the plots, distinguishable in light, dark and on a projector
SERIES = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
SERIES_DARK = ("#4c9aff", "#ffa94d", "#51cf66", "#ff6b6b", "#b197fc", "#e0a872", "#f783ac", "#3bc9db")

_current: dict = dict(LIGHT)
_current_name = "light"


def system_is_dark() -> bool:
    """True if the desktop asks for a dark colour scheme (Qt 6.5+), else False."""
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    return bool(scheme and scheme() == Qt.ColorScheme.Dark)


def resolve(mode: str) -> str:
    """``"system"`` -> ``"light"`` or ``"dark"``; other modes unchanged."""
    if mode == "system":
        return "dark" if system_is_dark() else "light"
    return mode


PALETTES = {"light": LIGHT, "dark": DARK, "workshop": WORKSHOP}


def colors(name: str | None = None) -> dict:
    """The palette of the look ``name`` (default: the look in use)."""
    return dict(PALETTES[name] if name else _current)


def current_name() -> str:
    return _current_name


def plot_colors(name: str | None = None) -> dict:
    """Colours for plots (background, foreground, grid, accent, the series list) of the look
    ``name`` (default: the look in use; a widget with a look of its own names it)."""
    c = PALETTES[name] if name else _current
    dark = (name or _current_name) in ("dark", "workshop")
    return {"background": c["panel"], "foreground": c["text"], "muted": c["muted"], "grid": c["border"],
            "accent": c["accent"], "bad": c["bad"], "good": c["good"], "warn": c["warn"],
            "series": SERIES_DARK if dark else SERIES}


def desktop_font_pt() -> float:
    """The desktop's own base font size in points (10 if it does not say). Not ``QFont()``: that is
    the application font, which :func:`apply` has already changed (workshop mode, a chosen size)."""
    size = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).pointSizeF()
    return size if size > 0 else 10.0


def _qpalette(pal: dict) -> QPalette:
    qp = QPalette()
    roles = {QPalette.ColorRole.Window: "window", QPalette.ColorRole.Base: "field",
             QPalette.ColorRole.AlternateBase: "panel", QPalette.ColorRole.Text: "text",
             QPalette.ColorRole.WindowText: "text", QPalette.ColorRole.Button: "panel",
             QPalette.ColorRole.ButtonText: "text", QPalette.ColorRole.Highlight: "accent",
             QPalette.ColorRole.HighlightedText: "on_accent", QPalette.ColorRole.ToolTipBase: "panel",
             QPalette.ColorRole.ToolTipText: "text", QPalette.ColorRole.PlaceholderText: "muted",
             QPalette.ColorRole.Link: "accent"}
    for role, key in roles.items():
        qp.setColor(role, QColor(pal[key]))
    qp.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(pal["muted"]))
    qp.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(pal["muted"]))
    return qp


def _stylesheet(pal: dict, base: float) -> str:
    sizes = {"small": f"{base * 0.85:.1f}", "normal": f"{base:.1f}", "large": f"{base * 1.45:.1f}"}
    return Template((STYLES_DIR / "app.qss").read_text(encoding="utf-8")).safe_substitute(**pal, **sizes)


def apply(app: QApplication, mode: str = "system", font_pt: float = 0.0, style_sheet: bool = True) -> str:
    """Apply a look (``system``, ``light``, ``dark`` or ``workshop``) to ``app``; returns its name.
    ``style_sheet=False`` leaves the style sheet to :func:`apply_style_sheet`: the launcher builds
    the first window before it, so that each widget is polished once, not at every step of its
    construction (issue #30: a third of the start-up went there)."""
    global _current, _current_name
    name = resolve(mode)
    pal = PALETTES.get(name, LIGHT)
    _current, _current_name = dict(pal), name
    app.setStyle("Fusion")
    app.setPalette(_qpalette(pal))
    font = app.font()
    font.setPointSizeF(font_pt or desktop_font_pt())
    app.setFont(font)
    if style_sheet:
        apply_style_sheet(app, font_pt)
    return name


def apply_style_sheet(app: QApplication, font_pt: float = 0.0) -> None:
    """The style sheet of the look in use (:func:`apply`) at ``font_pt`` (0: the desktop's size)."""
    app.setStyleSheet(_stylesheet(_current, font_pt or desktop_font_pt()))


def apply_to(widget: QWidget, mode: str, font_pt: float) -> None:
    """Give ``widget`` and its children a look of their own (workshop mode), leaving the rest of
    the application as it is: nothing else is polished again, no other chart is redrawn."""
    pal = PALETTES[resolve(mode)]
    widget.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
    widget.setPalette(_qpalette(pal))
    font = QFont(widget.font())
    font.setPointSizeF(font_pt)
    widget.setFont(font)
    name = widget.objectName() or "look"
    widget.setObjectName(name)
    widget.setStyleSheet(f"QWidget#{name} {{ background: {pal['window']}; }}\n" + _stylesheet(pal, font_pt))


@contextmanager
def plot_palette(name: str = "light"):
    """Temporarily draw charts in another look (e.g. light charts for a printed report)."""
    global _current, _current_name
    saved = (_current, _current_name)
    _current = dict(PALETTES[name])
    _current_name = name
    try:
        yield
    finally:
        _current, _current_name = saved
