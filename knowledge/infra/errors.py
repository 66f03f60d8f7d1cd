"""Errors that carry a message meant for the user (file, line or field included).

The CLI prints them without a traceback and exits with ``exit_code``; the GUI shows
them in its notifier. Anything else that escapes is a bug.
"""

from __future__ import annotations


class UserFacingError(Exception):
    """An error whose message is complete and readable by a user."""

    exit_code = 1


class DatabaseError(UserFacingError):
    """A database file is missing, unreadable, corrupt or of an unknown newer schema."""

    exit_code = 3


class InputError(UserFacingError):
    """A file or argument given by the user is invalid (bad format, unit, field)."""

    exit_code = 2


class RegistryError(InputError):
    """A registry (of importers, of probes) refused a request: an unknown name, a name already
    taken, an object that is not a plug-in of its kind. Each registry raises its own subclass."""
