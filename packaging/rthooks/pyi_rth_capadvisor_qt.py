"""PyInstaller run-time hook: point Qt at the bundled plug-ins without importing Qt.

Replaces PyInstaller's own PySide6 hook, which imports PySide6.QtCore (and with it Qt and
ICU, ~30 ms) at every start, even for ``capadvisor --version`` and other commands that never
touch Qt. The PySide6 wheels' Qt is relocatable, so the plug-in path is all Qt needs.
"""

import os
import sys

_qt = os.path.join(sys._MEIPASS, "PySide6", "Qt")
os.environ["QT_PLUGIN_PATH"] = os.path.join(_qt, "plugins")
os.environ["QML2_IMPORT_PATH"] = os.path.join(_qt, "qml")
del _qt
