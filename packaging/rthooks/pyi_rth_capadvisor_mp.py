"""PyInstaller run-time hook: multiprocessing support for the frozen app, only when it is needed.

PyInstaller's own hook imports multiprocessing (~20 ms) at every start. A frozen process is a
multiprocessing child only when started with ``--multiprocessing-fork`` (spawn, also used by
joblib/loky) or ``-c "from multiprocessing... import main"`` (resource tracker, forkserver);
only then is the module imported and ``freeze_support`` patched as PyInstaller does it
(``PyInstaller/hooks/rthooks/pyi_rth_multiprocessing.py``). The entry script calls
``multiprocessing.freeze_support()`` under the same condition (:func:`is_multiprocessing_child`).
"""

import sys


def _pyi_rthook():
    if "--multiprocessing-fork" not in sys.argv and "-c" not in sys.argv:
        return
    import multiprocessing
    import multiprocessing.spawn
    from subprocess import _args_from_interpreter_flags

    multiprocessing.process.ORIGINAL_DIR = None

    def _divert_multiprocessing_helper():
        try:
            command_switch_idx = sys.argv.index("-c")
        except ValueError:
            return
        if set(sys.argv[1:command_switch_idx]) != set(_args_from_interpreter_flags()):
            return
        if len(sys.argv) <= command_switch_idx + 1:
            return
        command = sys.argv[command_switch_idx + 1]
        prefixes = ("from multiprocessing.resource_tracker import main",
                    "from multiprocessing.forkserver import main",
                    "import sys; from multiprocessing.forkserver import main")
        if not command.startswith(prefixes):
            return
        exec(command)  # noqa: S102 - the helper command multiprocessing itself passed
        sys.exit()

    def _freeze_support():
        _divert_multiprocessing_helper()
        if multiprocessing.spawn.is_forking(sys.argv):
            kwds = {}
            for arg in sys.argv[2:]:
                name, value = arg.split("=")
                kwds[name] = None if value == "None" else int(value)
            multiprocessing.spawn.spawn_main(**kwds)
            sys.exit()

    multiprocessing.freeze_support = multiprocessing.spawn.freeze_support = _freeze_support


_pyi_rthook()
del _pyi_rthook
