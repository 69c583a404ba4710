"""The packages depend one way: phanthy_common at the bottom (it imports no other phanthy
package), perception and drivers on it (never on the agent, nor on each other), the agent on
common; only the `phanthy` command (phanthy_agent/cli.py) launches nodes of every package.
And no module imports itself back through others (no import cycle, type-only imports
included): the turn and the voice side see the core through narrow protocols (TurnHost,
VoiceHost), not by importing it."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("phanthy_common", "phanthy_perception", "phanthy_drivers", "phanthy_agent")
ALLOWED = {
    "phanthy_common": set(),
    "phanthy_perception": {"phanthy_common"},
    "phanthy_drivers": {"phanthy_common"},
    "phanthy_agent": {"phanthy_common"},
}
LAUNCHER = "phanthy_agent.cli"  # the one module above every package


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: pathlib.Path):
    """Modules imported, absolute names (those under `if TYPE_CHECKING:` too: a module that
    needs another's types only to be type-checked still depends on it)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target
            yield from (f"{target}.{alias.name}" for alias in node.names)


def graph():
    modules = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_packages_depend_one_way():
    wrong = []
    for module, targets in graph().items():
        package = module.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if other != package and other not in ALLOWED[package] and module != LAUNCHER:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_no_import_cycles():
    edges = graph()
    cycles, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert cycles == []
