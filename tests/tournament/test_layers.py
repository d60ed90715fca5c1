"""The app's import graph points down: the data layers never reach up to what uses them."""

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "tournament"
# Lowest first. A module of one of these imports only from its own layer or one before it; everything else of
# the app (forms, views, the API, printing, commands...) stands above them all.
LAYERS = ["errors", "typed", "roles", "models", "wording", "selectors", "pagecache", "services"]


def _imports(path: Path) -> set[str]:
    """The app's top-level modules and packages that ``path`` imports (``tournament.<name>``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.update(name.split(".")[1] for name in names if name.startswith("tournament."))
    return found


def test_no_data_layer_imports_one_above_it():
    upward = []
    for path in sorted(APP.rglob("*.py")):
        layer = path.relative_to(APP).parts[0].removesuffix(".py")
        if layer not in LAYERS:
            continue
        allowed = set(LAYERS[: LAYERS.index(layer) + 1])
        upward += [f"{path.relative_to(APP.parent)} imports tournament.{name}" for name in _imports(path) - allowed]
    assert upward == []


# What may use the views: the URL map, and the tag that draws a form's once-token as the views check it.
VIEWS_USED_BY = {"urls.py", "templatetags/once.py"}


def test_nothing_the_views_use_imports_them():
    users = {
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        if path.relative_to(APP).parts[0] != "views" and "views" in _imports(path)
    }
    assert users <= VIEWS_USED_BY
