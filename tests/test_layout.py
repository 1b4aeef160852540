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


# --- product code must not depend on test support -------------------------------------------
#
# Fakes, scripted models and hand-made run folders live in ``bemula.testing``; that package may
# import the product, never the other way round (issue 17 item 5). Lazy imports inside
# functions count too: they are still a dependency, only a later one.

SRC = REPO / "src" / "bemula"
TEST_SUPPORT = "bemula.testing"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_test_support(module: str) -> bool:
    return module == TEST_SUPPORT or module.startswith(TEST_SUPPORT + ".")


def _test_support_imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported name) of every import in ``path`` that reaches ``bemula.testing``."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    hits: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hits += [(node.lineno, a.name) for a in node.names if _is_test_support(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
            hits += [(node.lineno, t) for t in targets if _is_test_support(t)][:1]
        elif isinstance(node, ast.Call):  # importlib.import_module("bemula.testing...")
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in {"import_module", "__import__"} and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and _is_test_support(str(first.value)):
                    hits.append((node.lineno, str(first.value)))
    return sorted(hits)


def test_product_does_not_import_test_support() -> None:
    testing = SRC / "testing"
    modules = [p for p in sorted(SRC.rglob("*.py")) if testing not in p.parents]
    assert len(modules) > 20, "the walk found too few modules; is SRC right?"
    found = [
        f"{path.relative_to(REPO)}:{line} imports {name}"
        for path in modules
        for line, name in _test_support_imports(path)
    ]
    assert not found, "product code imports test support (bemula.testing):\n" + "\n".join(found)
