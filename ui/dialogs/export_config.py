"""File ▸ Export configuration…: the current advice as libvirt, Xen, Proxmox VE or OpenStack files.

The dialog only collects the target, the folder and whether to check the files; writing and
checking run in the application's worker (:func:`advisor.export.export_to`, progress and cancel
in the dialog) and the outcome is listed: files written, checks passed or failed, notes.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox

from ui.dialogs.folder_task import FolderTaskDialog

#: (target key, label); "all" writes every target
TARGET_CHOICES = (("libvirt", "libvirt (KVM/QEMU domain XML)"), ("xen", "Xen (xl configuration, RTDS commands)"),
                  ("proxmox", "Proxmox VE (qm commands, hook scripts)"),
                  ("openstack", "OpenStack (flavors, nova.conf)"), ("all", "All four"))


#: the target that configures a hypervisor the advice can choose
HYPERVISOR_TARGETS = {"xen": "xen", "kvm": "libvirt"}


def advised_target(advice) -> tuple[str, str]:
    """(target key, why) the dialog starts with: the advised hypervisor's own target, else libvirt
    and a sentence saying why."""
    rec = advice.first("hypervisor", "cluster") if advice is not None else None
    if rec is None:
        return "libvirt", ""
    choice = str(rec.choice)
    key = HYPERVISOR_TARGETS.get(choice.lower())
    if key is not None:
        return key, f"The advice chose {choice}: its target is selected."
    return "libvirt", (f"The advice chose {choice}, which none of the targets configures: libvirt (KVM) is "
                       "selected; choose another target if you build the cluster on it.")


class ExportConfigDialog(FolderTaskDialog):
    """Target, folder, check; the export runs in a worker and its outcome is listed."""

    def __init__(self, session, parent=None):
        advice = session.advice
        intro = ("There is no advice yet: open or edit a scenario first." if advice is None else
                 f"The settings the advice for <b>{escape(advice.scenario.name)}</b> chose, per workload group, as "
                 "the platform's own files. Every setting carries a comment with its recommendation and sources; "
                 "<i>export-manifest.json</i> maps each value back.")
        super().__init__(session, "Export configuration", "exporting the configuration", "&Export",
                         Path.home() / "capadvisor-config", intro, parent)
        self.outcomes: list = []
        self.target = QComboBox()
        for key, label in TARGET_CHOICES:
            self.target.addItem(label, key)
        self.folder.setToolTip("The files go to <folder>/<target>/ (files of the same name are replaced)")
        self.check = QCheckBox("&Check the files with the platforms' own tools (virt-xml-validate, xl's parser, ...)")
        self.check.setChecked(True)
        self.form.addRow("&Target:", self.target)
        self.add_folder_row()
        self.form.addRow("", self.check)
        self.log.setPlaceholderText("What was written, and what the checks found, appears here.")
        self.export_button = self.action_button
        self.export_button.setEnabled(self.ready)
        key, why = advised_target(advice)
        self.target.setCurrentIndex(self.target.findData(key))
        self.target_note = why  # shown in the log until the export runs
        if why:
            self.log.setPlainText(why)
        self.resize(760, 480)

    @property
    def ready(self) -> bool:
        return self.session.advice is not None

    def targets(self) -> list[str]:
        key = self.target.currentData()
        return [k for k, _ in TARGET_CHOICES if k != "all"] if key == "all" else [key]

    def run(self) -> None:
        from advisor.export import export_to

        if not self.folder.text().strip():
            self.log.setPlainText("Choose a folder first.")
            return
        self.start(export_to, self.session.advice, self.targets(), self.folder_path(), self.check.isChecked(),
                   message="Writing…")

    def on_done(self, outcomes: list) -> str:
        self.outcomes = outcomes
        lines = []
        for o in outcomes:
            lines.append(o.summary())
            lines.append(f"  folder: {self.folder_path() / o.target}")
            lines += [f"  check failed: {f}" for f in o.failed]
            lines += [f"  not checked: {f}" for f in o.unchecked]
            lines += [f"  note: {n}" for n in [*o.export.plan.notes, *o.export.notes]]
        return "\n".join(lines)
