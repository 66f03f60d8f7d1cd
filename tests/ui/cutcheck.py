"""Find what a user would see cut off in a window: labels and buttons narrower than their text,
tab bars that hide tabs, forms that need horizontal scrolling, widgets running out of the window."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QTabBar,
    QToolBar,
    QToolButton,
    QWidget,
)


def _visible(w: QWidget, top: QWidget) -> bool:
    if not w.isVisibleTo(top) or w.width() <= 1 or w.height() <= 1:
        return False
    # inside a scroll area, what is scrolled away is not cut
    return True


def _name(w: QWidget) -> str:
    text = ""
    if isinstance(w, QLabel | QAbstractButton):
        text = w.text()
    elif isinstance(w, QComboBox):
        text = w.currentText()
    return f"{type(w).__name__}({w.objectName() or ''}) {text[:50]!r}"


def _plain(text: str) -> str:
    import re

    return re.sub(r"<[^>]+>", "", text).replace("&nbsp;", " ").replace("&amp;", "&")


def cut_widgets(top: QWidget) -> list[str]:
    """Every visible widget of ``top`` whose text or content does not fit (descriptions)."""
    problems: list[str] = []
    win = top.window()
    win_rect = win.rect()
    for w in top.findChildren(QWidget):
        if not _visible(w, top) or type(w).__name__ == "ElidedLabel":
            continue
        if w.property("elides"):
            continue
        # runs out of the window (not scrolled content: those are clipped by their viewport)
        if not _in_scroll_area(w):
            r = w.rect().translated(w.mapTo(win, w.rect().topLeft()))
            if r.right() > win_rect.right() + 1 or r.bottom() > win_rect.bottom() + 1:
                problems.append(f"{_name(w)} runs out of the window ({r.right()}x{r.bottom()} > "
                                f"{win_rect.right()}x{win_rect.bottom()})")
                continue
        fm = w.fontMetrics()
        if isinstance(w, QLabel) and w.wordWrap() and w.text() and not _in_scroll_area(w):
            need_h = w.heightForWidth(w.width())
            if need_h > w.height() + 2:
                problems.append(f"{_name(w)} is cut at the bottom: needs {need_h} px, has {w.height()}")
        if isinstance(w, QLabel) and not w.wordWrap() and w.text() and w.pixmap().isNull():
            text = _plain(w.text())
            if w.buddy() is not None:  # a mnemonic: the '&' is not drawn ('&&' is one)
                text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
            need = max(fm.horizontalAdvance(line) for line in text.splitlines() or [""])
            if need > w.contentsRect().width() + 1:
                problems.append(f"{_name(w)} is cut: needs {need} px, has {w.contentsRect().width()}")
        elif isinstance(w, QPushButton | QToolButton | QCheckBox | QRadioButton) and w.text():
            if w.sizeHint().width() > w.width() + 1:
                problems.append(f"{_name(w)} is cut: needs {w.sizeHint().width()} px, has {w.width()}")
        elif isinstance(w, QComboBox) and w.currentText():
            if fm.horizontalAdvance(w.currentText()) + 24 > w.width():
                problems.append(f"{_name(w)} is cut: '{w.currentText()}' in {w.width()} px")
        elif isinstance(w, QTabBar) and w.count():
            need = sum(w.tabSizeHint(i).width() for i in range(w.count()))
            if need > w.width() + 1:
                problems.append(f"tab bar hides tabs: needs {need} px, has {w.width()}")
        elif isinstance(w, QToolBar):
            hidden = [a.iconText() for a in w.actions() if not a.isSeparator() and a.isVisible()
                      and (w.widgetForAction(a) is None or not w.widgetForAction(a).isVisible())]
            if hidden:
                problems.append(f"tool bar hides {hidden}")
        elif isinstance(w, QScrollArea) and w.horizontalScrollBar().isVisible():
            problems.append(f"{_name(w)} needs horizontal scrolling ({w.widget().minimumSizeHint().width()} px "
                            f"in {w.viewport().width()})")
    return problems


def _in_scroll_area(w: QWidget) -> bool:
    p = w.parentWidget()
    while p is not None:
        if isinstance(p, QAbstractScrollArea) and p.viewport().isAncestorOf(w):
            return True
        p = p.parentWidget()
    return False


_ = QScrollArea  # (imported for the horizontal-scrolling check above)
