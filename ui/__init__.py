"""The Qt user interface (PySide6 + pyqtgraph). Nothing in advisor/ or knowledge/ imports it."""

from ui import pyside_fix as _pyside_fix

_pyside_fix.install()
