"""The only threading code of the application: run plain functions off the GUI thread.

A long function of the core takes ``progress`` and ``cancel`` keyword arguments (see
:mod:`advisor.progress`). :class:`TaskSlot` runs such functions on a thread pool, one task per
slot (each panel owns one slot): starting a new task cancels the one still running, and results
of a superseded task are dropped. Every failure goes to one :class:`Notifier`, which the main
window shows to the user. Signals are connected before the task starts; handlers run on the GUI
thread (queued connections), so a done-handler may safely start the next task.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from advisor.progress import Cancelled, CancelToken

log = logging.getLogger(__name__)

#: seconds a worker keeps the interpreter (the GIL) before a waiting GUI thread gets it back (Python's
#: default is 5 ms), set while any task runs (:class:`_SwitchInterval`). The GUI thread lets go of it at
#: each call into Qt; beside a computing worker every such call could wait that long (a what-if slider
#: step 30-100 ms beside the re-advising worker on a loaded machine, #30). Shorter is not better: the GUI
#: thread's own Python work is then cut every interval too; at 0.5 ms the what-if step's p95 on a quiet
#: machine rose from 10 ms to 27 ms, at 2 ms it is 12-13 ms (tests/benchmarks/bench_gui.py --workshop,
#: load < 1).
GUI_SWITCH_INTERVAL_S = 0.002


class _SwitchInterval:
    """The interpreter's switch interval is :data:`GUI_SWITCH_INTERVAL_S` while a task of any slot runs
    (from :meth:`TaskSlot.start` until its function returns), and the one before when none does (it is
    process-wide: threads that are no tasks keep Python's, or the embedding program's, own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._before = GUI_SWITCH_INTERVAL_S

    def enter(self) -> None:
        with self._lock:
            if not self._running:
                self._before = sys.getswitchinterval()
                sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
            self._running += 1

    def leave(self) -> None:
        with self._lock:
            self._running -= 1
            if not self._running:
                sys.setswitchinterval(self._before)


_SWITCH = _SwitchInterval()


@dataclass(frozen=True)
class Failure:
    """A task that raised: where, a message meant for the user, and the traceback for bugs."""

    task: str
    message: str
    user_facing: bool
    details: str = ""


class Notifier(QObject):
    """Collects every error and notice of the application; the main window displays them."""

    sig_failure = Signal(object)   # Failure
    sig_message = Signal(str, int)  # text, timeout in ms (0 = until replaced)
    sig_success = Signal(str)       # a task or user action that succeeded (clears its error)

    def failure(self, task: str, exc: BaseException, details: str = "") -> Failure:
        """Report ``exc`` raised by ``task``; user-facing errors keep their message, others are bugs."""
        from knowledge.infra.errors import UserFacingError

        user = isinstance(exc, UserFacingError)
        text = str(exc) if user else f"{type(exc).__name__}: {exc}"
        if not user:
            log.error("task %s failed:\n%s", task, details or text)
        fail = Failure(task, text, user, details)
        self.sig_failure.emit(fail)
        return fail

    def message(self, text: str, timeout_ms: int = 4000) -> None:
        """A short notice for the status bar."""
        self.sig_message.emit(text, timeout_ms)

    def success(self, task: str) -> None:
        """``task`` succeeded: an error it reported earlier is out of date."""
        self.sig_success.emit(task)


class _Signals(QObject):
    progress = Signal(int, float, str)
    result = Signal(int, object)
    error = Signal(int, object, str)
    cancelled = Signal(int)


class _Job(QRunnable):
    def __init__(self, generation: int, fn: Callable, args: tuple, kwargs: dict, token: CancelToken,
                 signals: _Signals, with_progress: bool):
        super().__init__()
        self.setAutoDelete(True)
        self.generation, self.fn, self.args, self.kwargs = generation, fn, args, kwargs
        self.token, self.signals, self.with_progress = token, signals, with_progress

    def run(self) -> None:  # runs on a pool thread
        gen, sig = self.generation, self.signals
        kwargs = dict(self.kwargs)
        if self.with_progress:
            kwargs["progress"] = lambda f, m="": _safe_emit(sig.progress, gen, float(f), str(m))
            kwargs["cancel"] = self.token
        try:
            if self.token.cancelled:
                raise Cancelled()
            value = self.fn(*self.args, **kwargs)
        except Cancelled:
            outcome = (sig.cancelled, (gen,))
        except BaseException as exc:  # noqa: BLE001 - every failure goes to the notifier
            outcome = (sig.error, (gen, exc, traceback.format_exc()))
        else:
            outcome = (sig.result, (gen, value))
        finally:
            _SWITCH.leave()  # before the outcome: its handlers see the interval of the tasks still running
        try:
            outcome[0].emit(*outcome[1])
        except RuntimeError:  # the slot's owner was deleted meanwhile: nobody wants the outcome
            pass


class MainThreadGarbageCollector(QObject):
    """Run Python's cyclic garbage collector only on the GUI thread.

    Automatic collection may start in any thread that allocates, including a worker; if it
    then frees a Qt wrapper, the C++ object is destroyed on the wrong thread and the process
    can crash. This disables automatic collection and collects generation by generation
    from a timer on the GUI thread instead (as pyqtgraph's GarbageCollector does).
    """

    def __init__(self, parent: QObject | None = None, interval_ms: int = 1000):
        super().__init__(parent)
        import gc

        self._gc = gc
        self._threshold = gc.get_threshold()
        gc.disable()
        from PySide6.QtCore import QTimer

        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def check(self) -> int:
        """Collect the generations whose allocation counts passed their thresholds; returns objects freed."""
        gc = self._gc
        c0, c1, c2 = gc.get_count()
        t0, t1, t2 = self._threshold
        freed = 0
        if c0 > t0:
            freed += gc.collect(0)
            if c1 > t1:
                freed += gc.collect(1)
                if c2 > t2:
                    freed += gc.collect(2)
        return freed

    def keep_survivors(self) -> int:
        """Collect everything once, then leave the survivors (the knowledge base, the models, the
        window: alive for the whole session) out of later collections (``gc.freeze``): a full
        collection then visits only newer objects, a millisecond instead of ~50-90 ms on the GUI thread
        (it fell into e.g. the workshop's first entry). Reference counting still frees them; only a
        cycle among them outlives its last use. Returns the objects kept aside."""
        self._gc.collect()
        self._gc.freeze()
        return self._gc.get_freeze_count()

    def stop(self) -> None:
        """Collect everything now (the kept survivors too) and hand collection back to Python."""
        self._timer.stop()
        self._gc.unfreeze()
        self._gc.collect()
        self._gc.enable()


def _safe_emit(signal, *args) -> None:
    try:
        signal.emit(*args)
    except RuntimeError:  # owner deleted while the task ran
        pass


def shared_pool() -> QThreadPool:
    """The application's thread pool (Qt's global one, at least two threads)."""
    pool = QThreadPool.globalInstance()
    pool.setMaxThreadCount(max(2, pool.maxThreadCount()))
    return pool


class TaskSlot(QObject):
    """One task at a time for one panel; a new :meth:`start` cancels and supersedes the old one.

    ``sig_done(result)``, ``sig_failed(Failure)``, ``sig_progress(fraction, message)``;
    ``sig_finished()`` fires after any outcome of the current task (done, failed or cancelled).
    """

    sig_started = Signal()
    sig_progress = Signal(float, str)
    sig_done = Signal(object)
    sig_failed = Signal(object)
    sig_cancelled = Signal()
    sig_finished = Signal()

    def __init__(self, name: str, notifier: Notifier | None = None, pool: QThreadPool | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.name = name
        self.notifier = notifier
        self._pool = pool or shared_pool()
        self._signals = _Signals(self)
        self._signals.progress.connect(self._on_progress)
        self._signals.result.connect(self._on_result)
        self._signals.error.connect(self._on_error)
        self._signals.cancelled.connect(self._on_cancelled)
        self._generation = 0
        self._token: CancelToken | None = None
        self._running = False

    @property
    def running(self) -> bool:
        """True while the current task has not reported an outcome."""
        return self._running

    def start(self, fn: Callable, *args, with_progress: bool = True, **kwargs) -> int:
        """Run ``fn(*args, progress=..., cancel=..., **kwargs)`` (without the two when
        ``with_progress`` is False) on the pool; returns the task's generation number."""
        self.cancel()
        self._generation += 1
        self._token = CancelToken()
        self._running = True
        self.sig_started.emit()
        job = _Job(self._generation, fn, args, kwargs, self._token, self._signals, with_progress)
        _SWITCH.enter()  # the GUI thread stays responsive beside the worker (left when the job's function returns)
        self._pool.start(job)
        return self._generation

    def cancel(self) -> None:
        """Ask the current task to stop; its result, if any, will be dropped."""
        if self._token is not None:
            self._token.cancel()
        if self._running:
            self._running = False
            self.sig_cancelled.emit()
            self.sig_finished.emit()

    def _current(self, gen: int) -> bool:
        return gen == self._generation and self._running

    def _on_progress(self, gen: int, fraction: float, message: str) -> None:
        if self._current(gen):
            self.sig_progress.emit(fraction, message)

    def _on_result(self, gen: int, value: object) -> None:
        if self._current(gen):
            self._running = False
            self.sig_done.emit(value)
            if self.notifier is not None:
                self.notifier.success(self.name)
            self.sig_finished.emit()

    def _on_error(self, gen: int, exc: BaseException, details: str) -> None:
        if not self._current(gen):
            return
        self._running = False
        if self.notifier is not None:
            fail = self.notifier.failure(self.name, exc, details)
        else:
            from knowledge.infra.errors import UserFacingError

            fail = Failure(self.name, str(exc), isinstance(exc, UserFacingError), details)
        self.sig_failed.emit(fail)
        self.sig_finished.emit()

    def _on_cancelled(self, gen: int) -> None:
        if self._current(gen):  # cancelled from inside (the function raised Cancelled itself)
            self._running = False
            self.sig_cancelled.emit()
            self.sig_finished.emit()
