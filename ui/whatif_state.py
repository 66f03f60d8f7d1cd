"""The what-if of the open scenario, shared by the What-if tab and workshop mode: one
:class:`advisor.figures.whatif.WhatIf` (where the inputs are), one worker that re-advises the
changed scenario (debounced; a new move cancels the running one), Reset, and Apply to scenario
(one undoable step). Views subscribe to ``sig_inputs`` and ``sig_advice`` and move the state with
:meth:`QtWhatIfState.set`; the state never knows its views."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from advisor.figures.whatif import INPUTS, WhatIf
from ui.workers import TaskSlot


def advise_data(data: dict, kb, site, userdb_path, progress=None, cancel=None, catalogue=None):
    """Worker: the Advice for scenario data (the what-if variant), with the design's bill when
    there is a cost ``catalogue``, priced in the advice's engine context like the main card's (its
    alternatives keep the advised host count: a what-if stays fast)."""
    from advisor.engine import advise
    from knowledge.userdb import UserDatabase

    with UserDatabase(userdb_path) as db:
        advice = advise(data, kb=kb, site=site or None, userdb=db, progress=progress, cancel=cancel)
    if catalogue is not None:
        from advisor.cost import advice_cost

        advice.cost = advice_cost(advice, catalogue, advice.context(kb), resize=False)
    return advice


def planned_hosts(advice) -> int | None:
    """The hosts a what-if buys: the planned count, or the needed one where the plan has too few."""
    hc = advice.find("host_count") if advice is not None else None
    if hc is None or hc.value is None:
        return None
    return max(int(advice.scenario.hosts.count), int(round(hc.value)))


def planned_cost(advice, catalogue, kb):
    """The bill of ``advice`` at its planned hosts (:func:`planned_hosts`), in the advice's engine
    context (the power the main card counts); its alternatives keep the advised host count."""
    from advisor.cost import advice_cost

    return advice_cost(advice, catalogue, advice.context(kb), hosts=planned_hosts(advice), resize=False)


def state_for(session) -> QtWhatIfState:
    """The what-if state of ``session`` (made on first use; every view gets the same one)."""
    found = session.findChild(QtWhatIfState)
    return found if found is not None else QtWhatIfState(session)


class QtWhatIfState(QObject):
    """``sig_inputs(name)`` after an input moved (``""``: all of them, after a start or a reset);
    ``sig_advice(advice)`` with the advice the views show (the what-if one, or the scenario's
    while nothing that changes the scenario moved); ``sig_busy(bool)``."""

    sig_inputs = Signal(str)
    sig_advice = Signal(object)
    sig_busy = Signal(bool)

    def __init__(self, session):
        super().__init__(session)
        self.session = session
        self.model = WhatIf()
        self._cost_memo: list[tuple] = []
        self._charts: list[tuple] = []  # (key and inputs, scenario, advice, kb, spec), the latest 16
        self.task = TaskSlot("what-if advice", session.notifier, parent=self)
        self.task.sig_done.connect(self._on_advice)
        self.task.sig_started.connect(lambda: self.sig_busy.emit(True))
        self.task.sig_finished.connect(lambda: self.sig_busy.emit(False))
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.run_advice)
        self.on_settings_changed()
        session.sig_advice.connect(self._on_session_advice)
        if session.advice is not None or session.document.scenario is not None:
            self._on_session_advice(session.advice)

    # --- reading -----------------------------------------------------------------------------
    def chart(self, key: str, scenario, advice, inputs: dict):
        """The chart ``key`` at these inputs, made once for every view that shows it (the tab and
        the workshop draw the same what-if: entering the workshop reuses the tab's charts' data)."""
        from advisor.figures.charts import safe_chart

        kb = self.session.kb
        sig = (key, tuple(sorted(inputs.items())))
        for k, sc, adv, base, spec in self._charts:
            if k == sig and sc is scenario and adv is advice and base is kb:
                return spec
        spec = safe_chart(key, kb, scenario, advice, dict(inputs))
        self._charts = [*self._charts[-15:], (sig, scenario, advice, kb, spec)]
        return spec

    def cost_of(self, advice):
        """The bill of ``advice`` at its planned hosts (:func:`planned_hosts`; the advice's own
        bill prices the needed ones, so "Hosts planned" would not move it); None without prices."""
        catalogue = self.session.catalogue
        if advice is None or catalogue is None or getattr(advice, "cost", None) is None:
            return None
        for a, c, bill in self._cost_memo:
            if a is advice and c is catalogue:
                return bill
        bill = planned_cost(advice, catalogue, self.session.kb)
        self._cost_memo = [*self._cost_memo[-3:], (advice, catalogue, bill)]  # the what-if's and the scenario's
        return bill

    @property
    def inputs(self) -> dict[str, float]:
        return self.model.inputs

    @property
    def advice(self):
        """The advice the views show: the what-if one when inputs changed the scenario."""
        return self.model.advice if self.model.advice is not None else (
            None if self.model.moved() else self.session.advice)

    def moved(self) -> dict[str, float]:
        return self.model.moved()

    def busy(self) -> bool:
        return self.task.running or self._timer.isActive()

    def on_settings_changed(self) -> None:
        """The what-if delay of the preferences (the advice waits four times as long as a chart)."""
        self._timer.setInterval(max(1, self.session.settings.whatif_debounce_ms * 4))

    # --- moving ------------------------------------------------------------------------------
    def set(self, name: str, value: float) -> None:
        """Move input ``name``; a scenario input re-advises (debounced). Any move stops an advice
        that is running and starts it again once the inputs rest: beside a working advice each
        slider step of the GUI thread waited for the interpreter lock (10 to 40 times slower)."""
        if abs(self.model.inputs.get(name, float("nan")) - value) < 1e-12:
            return
        self.model.set(name, value)
        self.sig_inputs.emit(name)
        if INPUTS[name].kind == "scenario" or self.busy():
            self.task.cancel()
            self._timer.start()

    def reset(self) -> None:
        """Every input back where the scenario and its advice are."""
        self._timer.stop()
        self.task.cancel()
        self.model.reset()
        self.model.advice = self.session.advice
        if self.session.advice is not None:
            self.model.follow(self.session.advice)
        self.sig_inputs.emit("")
        self.sig_advice.emit(self.advice)

    def apply(self) -> bool:
        """Write the moved scenario inputs into the scenario (one undo step); False if none moved."""
        if not self.model.moved() or self.session.document.problems:
            return False
        text = f"Apply what-if ({self.model.describe()})"
        self.session.document.replace(self.model.scenario_data(), text)
        return True

    def run_advice(self) -> None:
        """Re-advise the what-if scenario in the worker."""
        from knowledge.infra.paths import user_db_path

        s = self.session
        if s.kb is None or s.document.problems:
            return
        if not self.model.moved():
            self.model.follow(s.advice)
            self.sig_advice.emit(self.advice)
            return
        self.task.start(advise_data, self.model.scenario_data(), s.kb, s.site, user_db_path(),
                        catalogue=getattr(s, "catalogue", None))

    # --- following -----------------------------------------------------------------------------
    def _on_session_advice(self, advice) -> None:
        doc = self.session.document
        # defaults made before the advice came (a panel built while the advice ran) are not the
        # advice's (over-allocation 1.5 for the advised 4:1): the advice's own numbers replace them
        if self.model.base != doc.data or not self.model.defaults or (advice is not None and self.model.started_from is not advice):
            self.model.rebase(doc.data, advice, doc.scenario)
        if advice is not None and not self.model.moved():
            self.model.follow(advice)
        self.sig_inputs.emit("")
        self.sig_advice.emit(self.advice)
        if self.model.moved():
            self._timer.start()

    def _on_advice(self, advice) -> None:
        self.model.follow(advice)
        self.sig_inputs.emit("vms_per_host")
        self.sig_advice.emit(advice)
