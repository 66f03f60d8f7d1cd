"""Entry point of the frozen ``capadvisor`` executable: the same CLI as ``python -m app``."""

import sys

if __name__ == "__main__":
    if "--multiprocessing-fork" in sys.argv or "-c" in sys.argv:  # a worker process (joblib/loky)
        import multiprocessing

        multiprocessing.freeze_support()  # runs the worker and exits (see rthooks/pyi_rth_capadvisor_mp.py)
    from app.cli import main

    raise SystemExit(main())
