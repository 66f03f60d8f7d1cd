"""Screenshots of the cost views (not a test): the cost lines on the cards, the Optimize tab with
its Pareto chart, and Edit ▸ Cost catalogue…, at 1280x720 and 1920x1080 (and 1024x700).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.ui.cost_screenshots resources/screenshots``
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZES = ((1280, 720), (1920, 1080), (1024, 700))


def main(outdir: Path) -> int:
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix="capadvisor-shots-"))
    for name in ("DATA", "CACHE", "CONFIG"):
        os.environ[f"CAPADVISOR_{name}_DIR"] = str(home / name.lower())
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    from advisor.scenario import read_scenario_data
    from app.gui import settings_store
    from knowledge.costs import load_catalogue
    from ui.main_window import MainWindow
    from ui.screenshots import quiet_offscreen_warnings, settle, wait_until
    from ui.session import Session

    app = QApplication.instance() or QApplication(sys.argv)
    quiet_offscreen_warnings()
    from ui import theme

    theme.apply(app, "light")
    session = Session(settings_store())
    window = MainWindow(session)
    window.show()
    session.document.load_data(read_scenario_data(ROOT / "resources" / "examples" / "scenario.yaml"))
    session.start()
    settle(window)
    catalogue = load_catalogue(ROOT / "resources" / "examples" / "costs-example.yaml")
    session.userdb.save_cost_catalogue(catalogue)
    session.set_catalogue(catalogue)
    settle(window)
    written = []
    for w, h in SIZES:
        folder = outdir / f"{w}x{h}"
        folder.mkdir(parents=True, exist_ok=True)
        window.resize(w, h)
        cards = window.show_view("recommendations")
        cards.scope.setCurrentText("cluster")
        settle(window, cards)
        cards.render()
        # the cards render() replaced are deleted when the event loop runs: do it before the grab
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        settle(window, cards)
        window.grab().save(str(folder / "cost_cards.png"))
        written.append(folder / "cost_cards.png")
        panel = window.show_view("optimize")
        if panel.result is None:
            panel.run()
            wait_until(lambda p=panel: not p.busy(), 300)
        settle(window, panel)
        window.grab().save(str(folder / "optimize_pareto.png"))
        written.append(folder / "optimize_pareto.png")
        dlg = window.show_cost_catalogue()
        dlg.resize(min(1180, w - 40), min(640, h - 60))
        settle(window)
        dlg.grab().save(str(folder / "cost_catalogue.png"))
        written.append(folder / "cost_catalogue.png")
        dlg.reject()
        settle(window)
    for p in written:
        print(p)
    session.document.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "resources/screenshots")))
