"""The package's data folders: the Cypher (cypher/, queries/) and Browser's files (browser/).

They are folders of the repository's top level, not of paperkg/, and hold no Python: a wheel
carries them inside the package (pyproject.toml maps them there), and an editable install reads
them where the checkout keeps them."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

FOLDERS = ("cypher", "queries", "browser")
CHECKOUT = Path(__file__).resolve().parent.parent


def data_folder(name: str) -> Traversable:
    """The data folder `name` (one of FOLDERS) as this installation holds it."""
    if name not in FOLDERS:
        raise ValueError(f"{name!r} is not a data folder of paperkg: {', '.join(FOLDERS)}")
    installed = resources.files("paperkg") / name
    return installed if installed.is_dir() else CHECKOUT / name
