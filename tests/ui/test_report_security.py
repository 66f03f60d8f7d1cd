"""The GUI's report export (HTML with inlined charts, PDF) goes through the one renderer: hostile
names come out as text, never as markup or script (issue #19 point 1)."""

from __future__ import annotations

import shutil
import subprocess

from PySide6.QtGui import QColor, QImage

from tests.advisor.test_render import HOSTILE, HTML_TAGS, _hostile_advice, _parse
from tests.knowledge.conftest import kb, kb_path  # noqa: F401 - fixtures
from ui.report import write_html, write_pdf


def test_exported_html_and_pdf_are_inert(kb, tmp_path, qapp):  # noqa: F811
    advice = _hostile_advice(kb)
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    images = {"cache_mode": image, HOSTILE: image}
    page = write_html(tmp_path / "r.html", HOSTILE, advice, images, {HOSTILE: HOSTILE}).read_text(encoding="utf-8")
    parsed = _parse(page)
    assert {t for t, _a in parsed.tags} <= HTML_TAGS
    srcs = [dict(a)["src"] for t, a in parsed.tags if t == "img"]
    assert len(srcs) == 2 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not any(n.startswith("on") for _t, attrs in parsed.tags for n, _v in attrs)
    assert "<script>alert(\"1\")</script>" in "".join(parsed.text)
    pdf = write_pdf(tmp_path / "r.pdf", HOSTILE, advice, images, {HOSTILE: HOSTILE})
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"/JavaScript" not in data and b"/JS" not in data
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "<script>alert" in text  # printed as the name it is
