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


# --- imports go one way ----------------------------------------------------------------------
#
# The stages of the harness, highest first. A module may import its own unit and any unit of
# a *lower* stage, never one of a higher stage (issue 17: the import structure stays
# one-directional). Imports under ``if TYPE_CHECKING:`` are types only and do not count.
# ``testing`` sits on top: it may use everything, and nothing imports it.

STAGES: dict[str, int] = {
    "testing": 100,
    "cli": 90, "__init__": 90,
    "sweep": 85,
    "pipeline": 80, "inspect_task": 80,
    "report": 70, "nearmiss": 70, "authoring": 70, "generate": 70, "export": 70,
    "metrics": 60,
    "judge": 50, "audit": 50,
    "run": 40,
    "backbones": 35,
    "runfolder": 30,
    "systems": 25,
    "agent": 22,
    "index": 20,
    "llm": 15,
    "validate": 12, "fidelity": 12, "stats": 12,
    "registry": 5, "dataset": 5, "safeio": 4, "model": 3, "text": 3, "__version__": 0,
}


def _unit(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return parts[0]


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    """(line, bemula module) of every import outside ``if TYPE_CHECKING:`` blocks."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("bemula.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "bemula":
                found += [(node.lineno, f"bemula.{a.name}") for a in node.names]
            elif node.module.startswith("bemula."):
                found.append((node.lineno, node.module))
    return found


def test_every_unit_of_the_package_has_a_stage() -> None:
    units = {_unit(p) for p in SRC.rglob("*.py")}
    assert not units - set(STAGES), f"give these a stage in STAGES: {sorted(units - set(STAGES))}"


def test_imports_go_from_higher_stages_to_lower_ones_only() -> None:
    upward = []
    for path in sorted(SRC.rglob("*.py")):
        unit = _unit(path)
        for line, module in _runtime_imports(path):
            target = module.split(".")[1]
            if target != unit and STAGES.get(target, 0) >= STAGES[unit]:
                upward.append(f"{path.relative_to(SRC.parent)}:{line} ({unit}, stage {STAGES[unit]}) "
                              f"imports {module} (stage {STAGES.get(target)})")
    assert not upward, "imports against the stages:\n" + "\n".join(upward)
