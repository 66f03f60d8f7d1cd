"""What the open window works with: the knowledge base, the user database, the trained models,
the scenario document and the latest advice. Panels receive this object and subscribe to it.

Opening the knowledge base (which may compile it on first run) and training the model families
run in a worker; ``sig_ready`` fires when they are done. Advice is recomputed in a worker after
each valid edit (debounced), one request at a time: a new edit cancels the running one.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from ui.document import ScenarioDocument
from ui.workers import Notifier, TaskSlot

if TYPE_CHECKING:
    from advisor.engine import Advice

log = logging.getLogger(__name__)


class SettingsStore(Protocol):
    """What the GUI needs of the application's preferences, injected by the application layer
    (``app.gui.SETTINGS_STORE``): ui/ never imports app/. The settings object itself is the
    application's (``app.settings.Settings``): the GUI reads and sets its fields."""

    #: the theme names the Preferences offer
    themes: tuple[str, ...]
    #: field -> (lowest, highest) the Preferences' editors allow
    limits: Mapping[str, tuple[float, float]]
    #: prefix of the environment variables that override a field for one run
    env_prefix: str
    #: the application's version (About)
    version: str

    def defaults(self) -> Any:
        """A settings object with the default values."""
        ...

    def save(self, settings: Any) -> Path:
        """Write ``settings`` (atomically); raises UserFacingError when it cannot."""
        ...


def _open_and_train(kb_path: Path | None, progress=None, cancel=None):
    """Worker: open the knowledge base and train (or load) every model family."""
    from advisor.progress import check, report
    from knowledge.store import KnowledgeBase

    report(progress, 0.05, "opening the knowledge base")
    kb = KnowledgeBase.open(kb_path)
    check(cancel)
    kb.all_measurements()
    try:
        from advisor.models import train_all

        train_all(kb, progress=lambda f, m="": report(progress, 0.2 + 0.8 * f, m), cancel=cancel)
    except ImportError:  # the models are optional for browsing the knowledge base
        log.warning("advisor.models unavailable; plots without model curves")
    return kb


def advise_scenario(scenario, kb, site: str | None, userdb, progress=None, cancel=None, catalogue=None) -> Advice:
    """Worker: the engine's advice for ``scenario`` (the typed :class:`~advisor.engine.Advice`),
    priced with the cost ``catalogue`` when there is one."""
    from advisor.engine import advise

    return advise(scenario, kb=kb, site=site or None, userdb=userdb, progress=progress, cancel=cancel,
                  catalogue=catalogue)


class Session(QObject):
    """Shared state of one main window (see the module doc)."""

    sig_ready = Signal()            # knowledge base open and models trained
    sig_advice = Signal(object)     # the engine's Advice for the current scenario (advisor.engine.Advice)
    sig_advice_busy = Signal(bool)
    sig_site = Signal(str)          # the calibration site changed ("" = none)
    sig_sites_changed = Signal()    # imports or sites were added or removed
    sig_catalogue = Signal(object)  # the cost catalogue changed (knowledge.costs.Catalogue or None)

    def __init__(self, store: SettingsStore, settings=None, kb_path: Path | None = None,
                 notifier: Notifier | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.settings = settings if settings is not None else store.defaults()
        self.notifier = notifier or Notifier(self)
        self.kb_path = kb_path
        self.kb = None
        self._userdb = None
        self.document = ScenarioDocument(parent=self)
        self.advice: Advice | None = None
        #: the user's cost catalogue (Edit > Cost catalogue...); None: the advice is not priced
        self.catalogue = None
        self.site: str = self.settings.site
        self.startup_task = TaskSlot("loading the knowledge base", self.notifier, parent=self)
        self.startup_task.sig_done.connect(self._on_ready)
        self.advice_task = TaskSlot("advice", self.notifier, parent=self)
        self.advice_task.sig_done.connect(self._on_advice)
        self.advice_task.sig_started.connect(lambda: self.sig_advice_busy.emit(True))
        self.advice_task.sig_finished.connect(lambda: self.sig_advice_busy.emit(False))
        self._debounce = QTimer(self, singleShot=True, interval=150)
        self._debounce.timeout.connect(self.advise_now)
        self._stale = False  # edited while automatic advice was off
        self.document.sig_changed.connect(self._on_document_changed)

    # --- start-up ------------------------------------------------------------------------
    def start(self) -> None:
        """Open the knowledge base and train the models in a worker."""
        self.startup_task.start(_open_and_train, self.kb_path)

    @property
    def ready(self) -> bool:
        return self.kb is not None

    def _on_ready(self, kb) -> None:
        self.kb = kb
        self.load_catalogue()
        self.sig_ready.emit()
        self.advise_now()

    def load_catalogue(self) -> None:
        """Read the stored cost catalogue (a user database that does not exist yet is not created)."""
        from knowledge.infra.errors import UserFacingError
        from knowledge.infra.paths import user_db_path

        if self._userdb is None and not user_db_path().exists():
            return
        try:
            self.catalogue = self.userdb.cost_catalogue()
        except UserFacingError as exc:
            self.notifier.failure("reading the cost catalogue", exc)
            return
        self.sig_catalogue.emit(self.catalogue)

    def set_catalogue(self, catalogue) -> None:
        """Price the advice with ``catalogue`` from now on (after Edit > Cost catalogue...)."""
        self.catalogue = catalogue
        self.sig_catalogue.emit(catalogue)
        self.advise_now()

    @property
    def userdb(self):
        """The user database (opened on first use)."""
        if self._userdb is None:
            from knowledge.userdb import UserDatabase

            self._userdb = UserDatabase()
        return self._userdb

    def close(self) -> None:
        """Cancel running tasks and close the databases."""
        self.startup_task.cancel()
        self.advice_task.cancel()
        if self._userdb is not None:
            self._userdb.close()
            self._userdb = None

    # --- advice --------------------------------------------------------------------------
    def set_site(self, name: str) -> None:
        """Calibrate the advice to site ``name`` ("" = the documents only)."""
        if name != self.site:
            self.site = name
            self.sig_site.emit(name)
            self.advise_now()

    def _on_document_changed(self, _path) -> None:
        if self.settings.auto_advise:
            self._debounce.start()
        else:
            self._stale = True

    def on_settings_changed(self) -> None:
        """Follow the preferences: automatic advice switched off drops a pending recomputation;
        switched on, the advice catches up with the edits made meanwhile."""
        if not self.settings.auto_advise:
            self._debounce.stop()
        elif self._stale:
            self.advise_now()

    def advise_now(self) -> None:
        """Recompute the advice for the current scenario if it is valid and the models are ready."""
        self._debounce.stop()
        scenario = self.document.scenario
        if self.kb is None or scenario is None or self.document.problems:
            return
        if not scenario.workloads:
            return
        self._stale = False
        self.advice_task.start(advise_scenario, scenario, self.kb, self.site, self.userdb, catalogue=self.catalogue)

    def _on_advice(self, advice: Advice) -> None:
        self.advice = advice
        self.sig_advice.emit(advice)
