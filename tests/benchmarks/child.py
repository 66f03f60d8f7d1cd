"""What every benchmark's fresh interpreter starts with: the project on its path and ``rss(field)``, a
``/proc/self/status`` memory figure in MiB (``VmRSS``, ``VmHWM``). A benchmark's child code is
``PRELUDE + its own lines``, formatted with ``root=`` the checkout."""

PRELUDE = r'''import json, sys, time
sys.path.insert(0, {root!r})
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
'''

