"""Writing a tree of generated files into the user's output folder, confined and whole.

Every path is relative, without ``..``, and resolved below the output folder; every folder on the
way to a file (created here or found) must be a real folder, never a symbolic link, so nothing
is written or deleted outside the output folder whatever a prepared folder holds (a symlinked
sub-folder, a planted manifest listing other files). The files are first written into a
temporary folder inside the output folder and only then moved into place, one rename each and
the listing (manifest, plan.json) last: a full disk or any other failure while writing leaves
the earlier files and their listing as they were, and no half-written export.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path, PurePosixPath

from knowledge.infra.errors import InputError, UserFacingError


def output_root(out_dir: Path | str) -> Path:
    """The output folder, created if missing and resolved (the folder the user names may itself
    be a link); an InputError for a dangling link or a file in its place."""
    path = Path(out_dir)
    if path.is_symlink() and not path.exists():
        raise InputError(f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist; give an "
                         "existing folder or a new name")
    if path.exists() and not path.is_dir():
        raise InputError(f"{path}: is a file, not a folder; give a folder for the output")
    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserFacingError(f"cannot write under {path}: {blocker} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserFacingError(f"cannot create the folder {path}: {exc.strerror or exc}") from exc
    return path.resolve()


def relative_parts(rel: str) -> tuple[str, ...] | None:
    """The parts of a relative output path, or None when it is absolute, empty or climbs out."""
    p = PurePosixPath(rel.replace("\\", "/"))
    parts = p.parts
    if not parts or p.is_absolute() or any(x in ("..", ".", "") for x in parts) or ":" in parts[0]:
        return None
    return parts


def _real_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def folder_below(root: Path, parts: tuple[str, ...], create: bool) -> Path | None:
    """``root/parts...`` when every step is a real folder (created when missing and ``create``);
    None when a step is missing (and not created). A step that is a link or a file is an
    InputError: nothing is written through it."""
    here = root
    for part in parts:
        here = here / part
        if here.is_symlink():
            raise InputError(f"{here}: is a symbolic link inside the output folder {root}; the export does not "
                             "write or delete through it (remove the link or choose another folder)")
        if _real_folder(here):
            continue
        if here.exists():
            raise InputError(f"{here}: is a file where the export needs a folder")
        if not create:
            return None
        try:
            here.mkdir()
        except OSError as exc:
            raise UserFacingError(f"cannot create the folder {here}: {exc.strerror or exc}") from exc
    return here


def _stage(root: Path, files: dict[str, str]) -> Path:
    """Write every file into a new temporary folder inside ``root`` (removed again on failure)."""
    tmp = Path(tempfile.mkdtemp(prefix=".capadvisor-export-", dir=root))
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(path, 0o755 if rel.endswith(".sh") else 0o644)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserFacingError(f"cannot write the files under {root}: {exc.strerror or exc}; nothing was changed "
                              "there (the earlier files, if any, are as they were)") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def write_tree(out_dir: Path | str, files: dict[str, str], last: str | None = None) -> list[Path]:
    """Write ``files`` (relative path -> text) under ``out_dir`` as the module doc says, shell
    scripts executable, ``last`` (the listing) moved into place after every other file; the paths."""
    root = output_root(out_dir)
    for rel in files:
        if relative_parts(rel) is None:
            raise ValueError(f"{rel!r}: not a relative path inside the output folder")
    for rel in files:  # refuse a linked or blocked folder before anything is written
        parts = relative_parts(rel) or ()
        folder_below(root, parts[:-1], create=False)
        target = root.joinpath(*parts)
        if _real_folder(target):
            raise InputError(f"{target}: is a folder where the export writes a file")
    tmp = _stage(root, files)
    written = []
    try:
        order = [r for r in files if r != last] + ([last] if last in files else [])
        for rel in order:
            parts = relative_parts(rel) or ()
            folder = folder_below(root, parts[:-1], create=True) or root
            os.replace(tmp / rel, folder / parts[-1])
            written.append(folder / parts[-1])
    except OSError as exc:
        raise UserFacingError(f"cannot move the files into {root}: {exc.strerror or exc}") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written


def remove_stale(out_dir: Path, previous, current, under: str = "") -> list[Path]:
    """Remove the files a previous run wrote (``previous``, paths relative to ``out_dir``) that this
    run did not write again (``current``), and the folders that leaves empty. Only regular files
    below ``out_dir/under`` that the previous run listed, reached through real folders only: a
    user's own files, links, anything through a linked folder and folders that still hold
    anything stay."""
    root = Path(out_dir).resolve()
    keep = set(current)
    removed = []
    for rel in sorted(set(previous) - keep):
        parts = relative_parts(rel)
        if parts is None or not rel.startswith(under):
            continue
        try:
            folder = folder_below(root, parts[:-1], create=False)
        except InputError:
            continue  # a link or a file on the way: not ours to follow
        path = (folder or root) / parts[-1]
        if folder is None or path.is_symlink() or not path.is_file():
            continue
        path.unlink()
        removed.append(path)
        parent = path.parent
        while parent != root and root in parent.parents:
            try:
                parent.rmdir()  # only when empty
            except OSError:
                break
            parent = parent.parent
    return removed
