#!/usr/bin/env python3
"""Writes every program of `tests/py/` with each value bound to a new
local before it is used, for the frontend's test that the typecheck
types what the lowering compiles (`frontend/tests/lowering.rs`,
`values_bound_to_locals_are_typed`): `return e` becomes `probe_value = e;
return probe_value`, and `x = e` / `x op= e` of a name become `probe_N =
e` first. A value the lowering compiles as an operand but the typecheck
leaves untyped is an internal error once bound.

    python3 tests/bind_probe.py OUT_DIR
"""
import ast
import os
import shutil
import sys

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "py")


class Bind(ast.NodeTransformer):
    """Binds returned and assigned values to fresh locals first."""

    def __init__(self):
        self.count = 0

    def fresh(self):
        self.count += 1
        return f"probe_{self.count}"

    def visit_Return(self, r):
        if r.value is None or isinstance(r.value, (ast.Tuple, ast.Constant)):
            return r
        name = self.fresh()
        return [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=r.value),
                ast.Return(value=ast.Name(id=name, ctx=ast.Load()))]

    def visit_Assign(self, a):
        # A list display is a list local's binding, not a value.
        if len(a.targets) != 1 or not isinstance(a.targets[0], ast.Name) or isinstance(a.value, (ast.List, ast.Constant)):
            return a
        name = self.fresh()
        return [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=a.value),
                ast.Assign(targets=a.targets, value=ast.Name(id=name, ctx=ast.Load()))]

    def visit_AugAssign(self, a):
        if not isinstance(a.target, ast.Name):
            return a
        name = self.fresh()
        return [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=a.value),
                ast.AugAssign(target=a.target, op=a.op, value=ast.Name(id=name, ctx=ast.Load()))]


def main(out):
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(PROGRAMS, out, ignore=shutil.ignore_patterns("__pycache__", "*.expected"))
    for root, _, files in os.walk(out):
        for fn in files:
            if not fn.endswith(".py") or fn == "oracle.py":
                continue
            path = os.path.join(root, fn)
            with open(path) as f:
                tree = ast.parse(f.read())
            # The module level's constants and aliases stay as they are.
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    Bind().visit(node)
            ast.fix_missing_locations(tree)
            with open(path, "w") as f:
                f.write(ast.unparse(tree))


if __name__ == "__main__":
    main(sys.argv[1])
