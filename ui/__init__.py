"""The Qt user interface (PySide6 + pyqtgraph). Nothing in advisor/ or knowledge/ imports it."""

