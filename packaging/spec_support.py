"""What goes into the PyInstaller build: hidden imports, data files and exclusions.

Kept apart from ``capadvisor.spec`` so the test suite can check it without running a build.
Every module of the project's packages is listed by walking the source tree (not by importing
it), so a module that fails to import still ends up in the bundle and fails loudly there,
and the sub-command, importer and probe modules that are loaded by name are always carried.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the project's own packages; every module below them is a hidden import
PACKAGES = ("app", "advisor", "knowledge", "ui", "resources")

#: third-party modules imported by name at run time (the GUI stack), listed so that a GUI
#: module that fails to import during the build cannot silently drop them
EXTRA_HIDDEN_IMPORTS = (
    "PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "PySide6.QtPrintSupport",
    "pyqtgraph", "platformdirs", "psutil", "yaml",
    # estate imports (knowledge/inventory): imported inside the readers, listed so they are always carried
    "openpyxl", "defusedxml", "defusedxml.ElementTree",
    # the workbook and slide deck (advisor/deliverables): imported inside the commands; python-pptx
    # reads picture sizes with Pillow and its templates come with PyInstaller's hook for pptx
    "xlsxwriter", "pptx", "PIL.Image", "PIL.PngImagePlugin",
)



def platform_tag(system: str | None = None, machine: str | None = None) -> str:
    """The platform in build names: ``linux-x86_64`` (what ``packaging/build.sh`` builds),
    ``windows-x86_64``, ``macos-arm64``, ``macos-x86_64`` (the CI matrix of
    ``.github/workflows/build.yml``), from :func:`platform.system` and :func:`platform.machine`."""
    import platform

    system = (system or platform.system()).lower()
    machine = (machine or platform.machine()).lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    system = {"darwin": "macos"}.get(system, system)
    return f"{system}-{machine}"


#: the platform in build names (this machine's: the spec builds for the OS it runs on)
PLATFORM = platform_tag()

#: modules the app never needs; dropping them keeps the build small. Each is checked by
#: the tests against the project's own imports (nothing here may be imported by our code).
EXCLUDES = (
    # other Qt bindings pyqtgraph would otherwise probe for
    "PyQt5", "PyQt6", "PySide2",
    # Qt modules the app does not use (it needs QtCore, QtGui, QtWidgets, QtSvg, QtPrintSupport,
    # and QtOpenGL, which pyqtgraph imports unconditionally)
    "PySide6.QtNetwork", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets",
    "PySide6.QtSql", "PySide6.QtDBus",
    "PySide6.QtDesigner", "PySide6.QtUiTools", "PySide6.QtXml",
    "PySide6.QtConcurrent", "PySide6.QtHelp", "PySide6.QtStateMachine",
    # optional pyqtgraph parts: 3-D (needs PyOpenGL), notebook support, the demo gallery
    "pyqtgraph.opengl", "pyqtgraph.jupyter", "pyqtgraph.examples",
    # GUI toolkits and tools that are not part of the app
    "tkinter", "_tkinter", "turtle", "idlelib", "pydoc_data",
    "IPython", "matplotlib", "pandas",
    # development tools
    "pytest", "_pytest", "pytestqt", "hypothesis", "importlinter", "grimp", "setuptools",
    "pkg_resources", "pip",
    # the project's tests and test helpers of the libraries
    "tests", "numpy.tests", "scipy.conftest", "sklearn.conftest",
)

#: Qt plug-ins left out (paths under PySide6/Qt/plugins/, shell patterns). The GTK 3 theme would
#: load the system's GTK against the bundled GLib (a known crash); embedded-device and remote
#: platforms are not used on a desktop. Kept: xcb, wayland, offscreen, minimal and the rest.
QT_PLUGIN_EXCLUDES = (
    "platformthemes/libqgtk3.so",
    "platforms/libqeglfs.so", "platforms/libqminimalegl.so", "platforms/libqlinuxfb.so",
    "platforms/libqvnc.so", "platforms/libqvkkhrdisplay.so",
    "egldeviceintegrations/*", "generic/*",
)

#: PyInstaller run-time hooks replaced by ours in packaging/rthooks/: theirs import QtCore
#: (with Qt and ICU) and multiprocessing at every start, ~50 ms for a ~60 ms ``--version``
DROPPED_RUNTIME_HOOKS = ("pyi_rth_pyside6", "pyi_rth_multiprocessing")
RUNTIME_HOOKS = ("pyi_rth_capadvisor_qt.py", "pyi_rth_capadvisor_mp.py")

#: Qt platform plug-ins the app needs: offscreen (screenshots, CI) and xcb (X11 desktops)
REQUIRED_QT_PLATFORMS = ("libqoffscreen.so", "libqxcb.so")

_VERSION_RE = re.compile(r"""^__version__\s*=\s*["']([^"']+)["']""", re.MULTILINE)


def version(root: Path = ROOT) -> str:
    """The one version string, read from ``app/__init__.py`` without importing the app."""
    text = (root / "app" / "__init__.py").read_text(encoding="utf-8")
    match = _VERSION_RE.search(text)
    if not match:
        raise ValueError(f"no __version__ in {root / 'app' / '__init__.py'}")
    return match.group(1)


def build_name(root: Path = ROOT) -> str:
    """Base name of the build outputs, e.g. ``capadvisor-<version>-linux-x86_64``."""
    return f"capadvisor-{version(root)}-{PLATFORM}"


def _source_files(root: Path, folders: tuple[str, ...], pattern: str = "*.py") -> list[Path]:
    """Files matching ``pattern`` below each existing folder, sorted; hidden and cache folders skipped."""
    out = []
    for folder in folders:
        base = root / folder
        if base.is_dir():
            out += [p for p in sorted(base.rglob(pattern)) if p.is_file() and not any(
                part.startswith((".", "__pycache__")) for part in p.relative_to(root).parts)]
    return out


def project_modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Dotted names of every package and module under ``packages`` in the source tree, sorted.

    Directories without ``__init__.py`` (namespace folders) count as packages when they
    hold Python files; ``__pycache__`` and hidden folders are skipped.
    """
    names: set[str] = set()
    for path in _source_files(root, packages):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        for i in range(1, len(parts) + 1):  # parents too, so namespace folders are covered
            names.add(".".join(parts[:i]))
    return sorted(names)


def hidden_imports(root: Path = ROOT) -> list[str]:
    """Every project module (:func:`project_modules`) plus :data:`EXTRA_HIDDEN_IMPORTS`."""
    return [*project_modules(root), *EXTRA_HIDDEN_IMPORTS]


def data_files(root: Path = ROOT, kb_path: Path | None = None) -> list[tuple[str, str]]:
    """``(source, destination folder)`` pairs for PyInstaller's ``datas``.

    The curated data and schema (for ``kb validate`` and ``kb build``), every non-Python file
    of ``resources/`` and, if given, the knowledge base compiled at build time, placed where
    :func:`knowledge.infra.paths.bundled_kb_path` looks for it (``resources/data/knowledge.sqlite``).
    """
    out: list[tuple[str, str]] = []
    for path in _source_files(root, ("knowledge/data", "knowledge/schema", "resources"), "*"):
        rel = path.relative_to(root)
        if path.suffix in (".py", ".pyc"):
            continue
        if kb_path is not None and rel.as_posix() == "resources/data/knowledge.sqlite":
            continue  # a stale local copy must not shadow the one compiled for this build
        out.append((str(path), str(rel.parent)))
    if kb_path is not None:
        out.append((str(kb_path), "resources/data"))
    return out


def keep_binary(dest: str) -> bool:
    """False for a Qt plug-in listed in :data:`QT_PLUGIN_EXCLUDES` (``dest`` is the path in the bundle)."""
    from fnmatch import fnmatch

    marker = "PySide6/Qt/plugins/"
    dest = dest.replace("\\", "/")
    if marker not in dest:
        return True
    plugin = dest.split(marker, 1)[1]
    return not any(fnmatch(plugin, pattern) for pattern in QT_PLUGIN_EXCLUDES)


def imported_top_modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> set[str]:
    """Every module name imported anywhere in the project's packages (``a.b.c`` gives a, a.b, a.b.c)."""
    found: set[str] = set()
    for path in _source_files(root, packages):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found
