#!/usr/bin/env python3
"""Writes programs of `tests/py/` each with one value misused, for the
frontend's test that the typecheck refuses every program the lowering
cannot lower (`frontend/tests/lowering.rs`,
`misused_values_are_refused_by_the_typecheck`): one expression read as a
value in a function's body is replaced by a value of another kind
(`None`, a tuple, a string, a complex number, an array, a float, an
integer, a call of a function that returns nothing, a list display).
Each copy holds one replacement, so the rest of the program stays
valid: where the typecheck
accepts it, the lowering runs and must lower it, and where it cannot,
the typecheck should have said why (the lowering's own refusal is an
internal error).

    python3 tests/misuse_probe.py OUT_DIR [COUNT [SEED]]

COUNT copies are written (default 400), chosen by SEED (default 0) among
every expression and replacement; `0` writes every one.
"""
import ast
import os
import random
import shutil
import sys

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "py")

# What an expression is replaced by: its source, and what the module needs
# for it (`nothing()` is defined in every copy).
REPLACEMENTS = ["None", "(1, 2)", "'s'", "1j", "np.zeros(3)", "2.5", "7", "nothing()", "(np.zeros(2), 1)", "[1.0, 2.0]"]

HELPER = '''

def nothing() -> None:
    pass
'''

# Names read as modules or called, which are not values.
NOT_VALUES = {"np", "numpy", "math", "postc", "postyp", "range", "prange", "len", "print", "min", "max", "abs",
              "round", "int", "float", "bool", "complex", "enumerate", "zip", "sum", "type", "divmod"}


class Sites(ast.NodeVisitor):
    """The expressions of a function's body read as values, by the path
    of fields that reaches each from the function."""

    def __init__(self):
        self.sites = []
        self.path = []

    def visit_function(self, fn):
        for i, stmt in enumerate(fn.body):
            # The docstring is no value.
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue
            self.path.append(("body", i))
            self.visit(stmt)
            self.path.pop()

    def generic_visit(self, node):
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "decorator_list", "type_comment", "func", "ctx"):
                # A call's callee is walked for its base only (`a.sum`).
                if field == "func" and isinstance(value, ast.Attribute) and not self.module_name(value.value):
                    self.path += [("func", None), ("value", None)]
                    if isinstance(value.value, ast.expr) and self.is_value(value, "value", value.value):
                        self.sites.append(list(self.path))
                    self.visit(value.value)
                    del self.path[-2:]
                continue
            if isinstance(node, ast.Assign) and field == "targets":
                continue
            if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) and field == "target":
                continue
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items):
                if not isinstance(item, ast.AST):
                    continue
                self.path.append((field, i if isinstance(value, list) else None))
                if isinstance(item, ast.expr) and self.is_value(node, field, item):
                    self.sites.append(list(self.path))
                self.visit(item)
                self.path.pop()

    def module_name(self, e):
        return isinstance(e, ast.Name) and e.id in NOT_VALUES

    def is_value(self, parent, field, e):
        if isinstance(e, (ast.Starred, ast.Slice)) or self.module_name(e):
            return False
        if isinstance(parent, ast.Attribute) and self.module_name(parent.value):
            return False
        # `dtype=` names a dtype, not a value.
        if isinstance(parent, ast.keyword) and parent.arg == "dtype":
            return False
        return not isinstance(getattr(e, "ctx", ast.Load()), (ast.Store, ast.Del))


def replace(fn, path, source):
    """`fn` with the expression at `path` replaced by `source`."""
    node = fn
    for field, i in path[:-1]:
        node = getattr(node, field)
        node = node[i] if i is not None else node
    field, i = path[-1]
    new = ast.parse(source, mode="eval").body
    if i is None:
        setattr(node, field, new)
    else:
        getattr(node, field)[i] = new


def main(out, count, seed):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    # The modules some programs import, beside the copies.
    for sub in os.listdir(PROGRAMS):
        if os.path.isdir(os.path.join(PROGRAMS, sub)) and sub != "__pycache__":
            shutil.copytree(os.path.join(PROGRAMS, sub), os.path.join(out, sub),
                            ignore=shutil.ignore_patterns("__pycache__", "*.expected"))
    candidates = []
    for fn_name in sorted(os.listdir(PROGRAMS)):
        if not fn_name.endswith(".py") or fn_name == "oracle.py":
            continue
        with open(os.path.join(PROGRAMS, fn_name)) as f:
            source = f.read()
        tree = ast.parse(source)
        for k, node in enumerate(tree.body):
            if not isinstance(node, ast.FunctionDef):
                continue
            sites = Sites()
            sites.visit_function(node)
            for path in sites.sites:
                for r in REPLACEMENTS:
                    candidates.append((fn_name, k, path, r))
    chosen = candidates if count == 0 else random.Random(seed).sample(candidates, min(count, len(candidates)))
    sources = {}
    for n, (fn_name, k, path, r) in enumerate(chosen):
        if fn_name not in sources:
            with open(os.path.join(PROGRAMS, fn_name)) as f:
                sources[fn_name] = f.read()
        tree = ast.parse(sources[fn_name])
        replace(tree.body[k], path, r)
        ast.fix_missing_locations(tree)
        text = ast.unparse(tree)
        if "import numpy as np" not in text:
            text = "import numpy as np\n" + text
        with open(os.path.join(out, f"m{n:05}_{fn_name}"), "w") as f:
            f.write(f"# {tree.body[k].name}: {'/'.join(str(p) for p in path)} -> {r}\n{text}{HELPER}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 400, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
