"""Where paperkg keeps what belongs to one user rather than to one server home."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def user_cache_dir() -> Path:
    """$XDG_CACHE_HOME/paperkg, else ~/.cache/paperkg: facts about files and builds that any run
    can recompute, never a graph."""
    cache_home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache_home) / "paperkg"


def keep(path: Path, data: bytes) -> None:
    """Write a cache file whole, through a temporary file and a rename, as two runs may write it at
    once. A cache that cannot be written only means recomputing next time, so that is no error."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
