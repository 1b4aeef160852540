"""The checkout must not shadow installed packages.

pytest puts ``tests/`` on ``sys.path`` (the conftest's folder), so a test folder named like a
third-party package (``tests/datasets``) turns ``import datasets`` into an empty namespace
package; lancedb (under SimpleMem) then failed on ``from datasets import Dataset``. A folder
at the repository root does the same whenever the root is the working directory
(``python -m ...``).
"""

from __future__ import annotations

from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _folders(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}


def test_no_test_folder_is_named_like_an_installed_package() -> None:
    installed = set(packages_distributions()) - {"bemula", "tests"}
    clashes = sorted(_folders(REPO / "tests") & installed)
    assert not clashes, f"folders shadow installed packages: {clashes}"


def test_well_known_dataset_package_names_are_not_folders_here() -> None:
    # `datasets` is only installed with some extras; pin the name that broke CI regardless.
    reserved = {"datasets", "inspect_ai", "ray", "pandas", "pyarrow", "torch", "openai"}
    assert not (_folders(REPO / "tests") | _folders(REPO)) & reserved
