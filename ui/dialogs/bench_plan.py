"""Sites tab ▸ Benchmark plan…: the runs that would calibrate the current advice to a site.

The dialog collects the site and the folder; planning runs in the application's worker
(:func:`advisor.benchplan.write_plan`) and the plan is listed. When the advice is calibrated to
that site already, it also lists which figures now rest on the site and which do not
(:func:`advisor.benchplan.calibration_status`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from ui.dialogs.folder_task import FolderTaskDialog


class BenchPlanDialog(FolderTaskDialog):
    """Site and folder; the plan is made in a worker, written and listed."""

    def __init__(self, session, site: str = "", parent=None):
        intro = ("The smallest set of fio, sysbench and PostMark runs that would calibrate this advice to your "
                 "hardware, a <i>run-all.sh</i> that runs them in bounded time and imports the results, and a "
                 "README for the site team. Run it on a disk like the hosts' disks, then come back here.")
        super().__init__(session, "Benchmark plan", "planning the benchmarks", "&Write plan",
                         Path.home() / "capadvisor-bench-plan", intro, parent)
        self.plan = None
        self.scenario = session.advice.scenario if session.advice is not None else session.document.scenario
        self.site = QLineEdit(site or session.site or "site")
        self.site.setToolTip("The site the results are imported under (run-all.sh imports them when capadvisor is "
                             "on the PATH)")
        self.form.addRow("&Site:", self.site)
        self.add_folder_row()
        self.log.setPlaceholderText("The runs, and what they calibrate, appear here.")
        self.plan_button = self.action_button
        self.plan_button.setEnabled(self.ready)
        self.preview = None  # the plan listed before anything is written
        self._listing = False
        self.list_button = self.buttons.addButton("&List the runs", QDialogButtonBox.ButtonRole.ActionRole)
        self.list_button.setToolTip("Which runs the plan holds and what they calibrate, before anything is written")
        self.list_button.setEnabled(self.ready)
        self.list_button.clicked.connect(self.list_runs)
        self.resize(820, 520)
        self.log.setPlainText(self.status_text())
        # the status follows the site typed (before a plan is written: then the log is the plan's)
        self.site.textChanged.connect(lambda _t: self.plan is None and self.log.setPlainText(self.status_text()))

    @property
    def ready(self) -> bool:
        return self.scenario is not None

    def status_text(self) -> str:
        """Which figures of the current advice rest on the site (when it is calibrated to it)."""
        from advisor.benchplan import calibration_status

        advice = self.session.advice
        site = self.site.text().strip()
        if advice is None or not site or advice.calibration.site != site:
            return ""
        if advice.calibration.rejected:
            return f"Site {site}: its figures are not used: {advice.calibration.rejected}"
        status = calibration_status(advice)
        on = [s for s in status if s.on_site]
        lines = [f"Site {site} now: {len(on)} figures calibrated to the site, {len(status) - len(on)} not:"]
        lines += [f"  site  {s.ref}" for s in on]
        lines += [f"  {s.basis}: {s.ref}" for s in status if not s.on_site]
        return "\n".join(lines)

    def run(self) -> None:
        from advisor.benchplan import write_plan

        site = self.site.text().strip()
        if not self.folder.text().strip() or not site:
            self.log.setPlainText("Give a site and a folder first.")
            return
        self.start(write_plan, self.scenario, self.folder_path(), site, self.session.kb_path,
                   message="Asking the engine which figures the site would calibrate…")

    def list_runs(self) -> None:
        """List the plan's runs (in the worker), writing nothing."""
        from advisor.benchplan import plan_scenario

        site = self.site.text().strip() or "site"
        self._listing = True
        self.start(plan_scenario, self.scenario, site, self.session.kb_path,
                   message="Asking the engine which figures the site would calibrate…")

    def on_done(self, plan) -> str:
        if self._listing:
            self._listing = False
            self.preview = plan
            lines = [f"The plan holds {len(plan.runs)} runs (nothing written yet; Write plan writes them and "
                     f"run-all.sh to {self.folder_path()}):", ""]
            return "\n".join(lines + [f"  {r.name}: {r.why}" for r in plan.runs])
        self.plan = plan
        folder, d = self.folder_path(), plan.deps
        lines = [f"Wrote {len(plan.runs)} runs to {folder}: run {folder / 'run-all.sh'} on a disk like the hosts' "
                 f"({(d.device or 'none declared').upper()}), then import the results under site {plan.site}.", ""]
        lines += [f"  {r.name}: {r.why}" for r in plan.runs]
        lines += ["", f"{len(d.calibrated)} figures would be calibrated to the site, {len(d.depends)} more use its "
                      f"figures, {len(d.documents)} do not depend on it."]
        if d.reason:
            lines.append(f"Note: {d.reason}")
        status = self.status_text()
        return "\n".join(lines + (["", status] if status else []))
