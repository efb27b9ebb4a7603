"""Extension modules made ahead of time (`postc compile --emit pyext`,
docs/aot.md): every program of tests/py is built into one and imported in
a virtual environment that has NumPy alone (no postc package, no C
compiler on the PATH); its cases, and calls with bad arguments, must give
what the package gives, to the bit and to the exception's type and text
(`pyext_cases.py` prints both transcripts). Every export pickles as
itself, and calls in a spawned process pool agree.

The build links postc-pyabi's static library: POSTC_PYABI_LIB names it
(driver/tests/python_package.rs builds it and sets it), as does
POSTC_PYEXT_VENV the NumPy-only environment it keeps between runs."""
import ast
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest
from pyext_cases import THREAD_FUNCTIONS

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAMS = sorted(p for p in (REPO / "tests" / "py").rglob("*.py") if p.with_suffix(".expected").is_file())
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{args} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r


def fresh_venv(venv, *packages, python=sys.executable):
    """A new virtual environment of `python` at `venv` with `packages`
    alone, installed by this environment's pip (a Debian Python's venv may
    have none)."""
    run([python, "-m", "venv", "--clear", "--without-pip", venv])
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet",
         "--disable-pip-version-check", *packages])


@pytest.fixture(scope="session")
def numpy_venv(tmp_path_factory):
    """The Python of a virtual environment with NumPy (this process's
    version) and nothing else."""
    where = os.environ.get("POSTC_PYEXT_VENV")
    venv = pathlib.Path(where) if where else tmp_path_factory.mktemp("numpy-venv")
    python = venv / "bin" / "python"
    wanted = f"numpy=={np.__version__}"
    probe = python.is_file() and subprocess.run([python, "-c", "import numpy; print(numpy.__version__)"],
                                                capture_output=True, text=True)
    if not probe or probe.returncode != 0 or probe.stdout.strip() != np.__version__:
        fresh_venv(venv, wanted)
    blocked = subprocess.run([python, "-c", "import postc"], capture_output=True)
    assert blocked.returncode != 0, "the NumPy-only environment can import postc"
    return python


@pytest.fixture(scope="session")
def extensions(tmp_path_factory):
    """Each program of tests/py built into `NAME<EXT_SUFFIX>` in one directory."""
    out = tmp_path_factory.mktemp("extensions")
    for program in PROGRAMS:
        target = out / f"{program.stem}{SUFFIX}"
        run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", program, "-o", target,
             "--python", sys.executable])
        assert target.is_file() and (out / f"{program.stem}.pyi").is_file()
    return out


def test_extension_modules_give_what_the_package_gives(numpy_venv, extensions):
    package = run([sys.executable, HERE / "pyext_cases.py", "package", *PROGRAMS])
    # The extension modules need NumPy alone: no compiler or linker on the
    # PATH, no postc on the module path.
    bare = {"PATH": str(numpy_venv.parent), "HOME": os.environ.get("HOME", "/tmp")}
    assert shutil.which("cc", path=bare["PATH"]) is None
    pyext = subprocess.run([numpy_venv, HERE / "pyext_cases.py", "pyext", extensions, *PROGRAMS],
                           capture_output=True, text=True, env=bare, cwd=extensions)
    assert pyext.returncode == 0, f"the extension modules' run failed:\n{pyext.stderr}"
    theirs, ours = package.stdout.splitlines(), pyext.stdout.splitlines()
    assert sum(line.startswith("case ") for line in theirs) > 1000
    assert sum(line.startswith("probe ") for line in theirs) > 500
    assert sum("raises" in line for line in theirs if line.startswith("case ")) > 20
    for i, (a, b) in enumerate(zip(theirs, ours)):
        assert a == b, f"line {i + 1} differs:\n package: {a}\n   pyext: {b}"
    assert len(theirs) == len(ours)


def test_type_stubs_declare_every_export(extensions):
    for program in PROGRAMS:
        stub = ast.parse((extensions / f"{program.stem}.pyi").read_text())
        declared = {n.name for n in stub.body if isinstance(n, ast.FunctionDef)}
        declared |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
        import postc

        assert declared == set(postc.compile(program).exports()) | THREAD_FUNCTIONS, program.name


# Calls of tests/py/keywords.py's functions that leave parameters out or
# bind wrongly, and their signatures, printed by whichever `keywords`
# module is imported.
KEYWORD_CALLS = """
import inspect
import numpy as np
import keywords as m
calls = [("poly", (2.0,), {}), ("poly", (2.0,), {"c": 1, "a": 0.5}), ("poly", (), {"x": 2.0, "b": 0.25}),
         ("scaled", (np.float32(3.0),), {}), ("scaled", (np.float32(3.0),), {"shift": 3}),
         ("rotate", (1 + 2j,), {}), ("clip", (25,), {}), ("clip", (-25,), {"negative": True}),
         ("poly", (), {}), ("poly", (1.0, 2.0, 3.0, 4, 5), {}), ("poly", (1.0,), {"d": 1}),
         ("poly", (1.0, 2.0), {"a": 1.0})]
for name, args, kwargs in calls:
    try:
        print(name, complex(getattr(m, name)(*args, **kwargs)))
    except TypeError as e:
        print(name, "TypeError:", e)
for name in ["poly", "scaled", "rotate", "clip"]:
    print(name, [(p.name, p.kind, repr(p.default)) for p in inspect.signature(getattr(m, name)).parameters.values()])
"""


def test_defaults_bind_as_in_the_uncompiled_module(numpy_venv, extensions):
    """The extension module of tests/py/keywords.py fills in its functions'
    defaults and raises CPython's binding errors, as the module imported
    uncompiled (the `postyp` stand-ins) does; its stub shows the defaults."""
    bare = {"PATH": str(numpy_venv.parent), "HOME": os.environ.get("HOME", "/tmp")}
    pyext = run([numpy_venv, "-c", KEYWORD_CALLS], env=bare, cwd=extensions).stdout
    cpython = run([sys.executable, "-c", KEYWORD_CALLS], cwd=REPO / "tests" / "py").stdout
    assert pyext == cpython
    assert "poly (3+0j)" in cpython.splitlines()  # 1.0 * 2.0**2 - 2.0 * 2.0 + 3: the defaults
    sys.path.insert(0, str(REPO / "tests" / "py"))
    try:
        import keywords
    finally:
        sys.path.pop(0)
    stub = ast.parse((extensions / "keywords.pyi").read_text())
    shown = 0
    for f in (n for n in stub.body if isinstance(n, ast.FunctionDef) and n.name not in THREAD_FUNCTIONS):
        defaults = [eval(compile(ast.Expression(d), "keywords.pyi", "eval")) for d in f.args.defaults]
        actual = getattr(keywords, f.name).__defaults__ or ()
        assert len(defaults) == len(actual), f.name
        for shown_default, default in zip(defaults, actual):
            # An array default is an array the module makes: `...` in the stub.
            if isinstance(default, np.ndarray):
                assert shown_default is Ellipsis, f.name
            else:
                assert shown_default == default, f.name
        shown += len(defaults)
    assert shown >= 9


def test_a_module_of_another_name_is_refused(tmp_path):
    r = subprocess.run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", REPO / "examples" / "saxpy.py",
                        "-o", tmp_path / f"not-a-name{SUFFIX}", "--python", sys.executable],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "`not-a-name` is not a Python identifier in ASCII" in r.stderr


@pytest.fixture(scope="session")
def hatch_builder(tmp_path_factory):
    """The Python of a fresh environment where the postc wheel (POSTC_WHEEL,
    which driver/tests/python_package.rs builds), NumPy and hatchling alone
    are installed."""
    builder = tmp_path_factory.mktemp("builder")
    fresh_venv(builder, f"numpy=={np.__version__}", "hatchling", os.environ["POSTC_WHEEL"])
    return builder / "bin" / "python"


@pytest.mark.parametrize("abi3", [False, True], ids=["per-version", "abi3"])
def test_a_wheel_built_by_the_hatch_hook_needs_numpy_alone(tmp_path, hatch_builder, abi3):
    """examples/aot-package: `pip wheel` runs the `postc` hatchling hook
    where the postc wheel is installed, with no POSTC_* variable or cargo
    build to find postc-pyabi's static library by: the wheel ships it. The
    project's wheel installs into a fresh environment with NumPy alone,
    where its function and its ufunc give NumPy's results and raise as the
    package does. With `abi3 = true` the wheel is tagged for the stable ABI
    and is installed where the latest later CPython on this machine runs,
    if there is one."""
    project = tmp_path / "aot-package"
    shutil.copytree(REPO / "examples" / "aot-package", project)
    if abi3:
        with open(project / "pyproject.toml", "a") as f:
            f.write("abi3 = true\n")
    quiet = {"PATH": f"{hatch_builder.parent}:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "--python", hatch_builder, "wheel", "--quiet", "--no-deps",
         "--no-build-isolation", "--disable-pip-version-check", "-w", dist, project], env=quiet)
    wheels = list(dist.glob("aot_demo-0.1.0-*.whl"))
    assert len(wheels) == 1, wheels
    assert ("-cp311-abi3-" in wheels[0].name) == abi3, wheels[0].name
    fresh = tmp_path / "venv"
    later = later_pythons()
    fresh_venv(fresh, f"numpy=={np.__version__}", wheels[0], python=later[-1] if abi3 and later else sys.executable)
    check = """
import pickle, numpy as np, aot_demo
from aot_demo import kernels
assert kernels.__file__.endswith(%r), kernels.__file__
x = np.linspace(-1.0, 2.0, 7); w = np.arange(7.0)
assert aot_demo.weighted_sum(x, w) == np.float64(sum(x[i] * w[i] for i in range(7)))
assert isinstance(aot_demo.hypot, np.ufunc)
a = np.array([3.0, 5.0, -8.0]); b = np.array([4.0, 12.0, 15.0])
assert (aot_demo.hypot(a, b) == np.sqrt(a * a + b * b)).all()
assert kernels.__name__ == "aot_demo.kernels"
assert pickle.loads(pickle.dumps(aot_demo.hypot)) is aot_demo.hypot
assert pickle.loads(pickle.dumps(aot_demo.weighted_sum)) is aot_demo.weighted_sum
try:
    aot_demo.weighted_sum(x, w[:3])
except ValueError as e:
    print(e)
""" % (".abi3.so" if abi3 else SUFFIX)
    bare = {"PATH": str(fresh / "bin"), "HOME": os.environ.get("HOME", "/tmp")}
    r = run([fresh / "bin" / "python", "-c", check], env=bare, cwd=tmp_path)
    assert r.stdout.startswith("x and w differ in length at "), r.stdout
    assert subprocess.run([fresh / "bin" / "python", "-c", "import postc"], capture_output=True).returncode != 0


def test_another_python_version_is_refused(tmp_path):
    """The static library is built for one CPython version: an interpreter
    of another version gets no module that would crash it."""
    other = tmp_path / "python3.99"
    other.write_text("#!/bin/sh\nprintf '.cpython-399-x86_64-linux-gnu.so\\n3.99\\n'\n")
    other.chmod(0o755)
    r = subprocess.run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", REPO / "examples" / "saxpy.py",
                        "-o", tmp_path / "saxpy.cpython-399-x86_64-linux-gnu.so", "--python", other],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    want = "was built for CPython %d.%d, and `--python` is CPython 3.99" % sys.version_info[:2]
    assert want in r.stderr, r.stderr
    assert not (tmp_path / "saxpy.cpython-399-x86_64-linux-gnu.so").exists()


@pytest.mark.parametrize("backend", ["c", "qbe"])
def test_other_backends_make_the_same_modules(numpy_venv, tmp_path, backend):
    """The C and QBE backends' objects make extension modules that behave
    as the package's LLVM-compiled modules do (ufuncs, panics, outputs,
    arrays made in kernels, strings)."""
    programs = [REPO / "tests" / "py" / f"{n}.py" for n in ("ufuncs", "panics", "saxpy", "numpy_arrays", "strings")]
    for program in programs:
        run([sys.executable, "-m", "postc", "compile", "--backend", backend, "--emit", "pyext", program,
             "-o", tmp_path / f"{program.stem}{SUFFIX}", "--python", sys.executable])
    package = run([sys.executable, HERE / "pyext_cases.py", "package", *programs])
    bare = {"PATH": str(numpy_venv.parent), "HOME": os.environ.get("HOME", "/tmp")}
    pyext = run([numpy_venv, HERE / "pyext_cases.py", "pyext", tmp_path, *programs], env=bare, cwd=tmp_path)
    assert sum(line.startswith("case ") for line in package.stdout.splitlines()) > 100
    assert pyext.stdout == package.stdout


THREAD_ARGUMENTS = """
import sys
import numpy as np
threads = __import__(sys.argv[1])
print("default", threads.get_num_threads())
for bad in (0, -1, 5, 2**70, np.int64(9), np.uint8(0), True, np.bool_(True), 2.0, np.float64(2.0), "2", None):
    try:
        threads.set_num_threads(bad)
        print("accepted", repr(bad))
    except Exception as e:
        print(repr(bad), type(e).__name__, e)
print("kept", threads.get_num_threads())
threads.set_num_threads(np.int16(3))
print("set", threads.get_num_threads())
threads.set_num_threads(n=2)
print("set", threads.get_num_threads())
"""

THREAD_POOL = """
import os, sys
import prange_kernels as m

def os_threads():
    return len(os.listdir("/proc/self/task"))

bits = {}
for n in (1, 2, 1, 3):
    before = os_threads()
    m.set_num_threads(n)
    assert m.get_num_threads() == n
    results = (m.harmonic(300000), m.growth(300000), m.spread(300000), m.mixed(300000))
    bits.setdefault(n, []).append([float(r).hex() if isinstance(r, float) else int(r) for r in results])
    # The pool grows to n - 1 workers beside the calling thread at the
    # first loop that needs them, and never shrinks.
    print(n, os_threads() - before)
assert all(runs == bits[1][:1] * len(runs) for runs in bits.values()), bits
print(*bits[1][0])
"""


def test_set_num_threads_sets_the_pool_of_the_modules_prange_loops(numpy_venv, tmp_path):
    """Every extension module has the package's `set_num_threads` and
    `get_num_threads`, over the pool its `prange` loops run on: the same
    checks and messages as the package's, the getter reflects the setter,
    the pool runs on the threads set, and the results' bits do not depend on
    the count and are the package's."""
    program = HERE / "prange_kernels.py"
    run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", program, "-o", tmp_path / f"prange_kernels{SUFFIX}",
         "--python", sys.executable])
    script = tmp_path / "arguments.py"
    script.write_text(THREAD_ARGUMENTS)
    # POSTC_NUM_THREADS bounds `set_num_threads` in both, whatever the CPUs.
    bare = {"PATH": str(numpy_venv.parent), "HOME": os.environ.get("HOME", "/tmp"), "POSTC_NUM_THREADS": "4"}
    package = run([sys.executable, script, "postc"], env=dict(os.environ, POSTC_NUM_THREADS="4"))
    pyext = run([numpy_venv, script, "prange_kernels"], env=dict(bare, PYTHONPATH=str(tmp_path)), cwd=tmp_path)
    assert pyext.stdout == package.stdout
    lines = package.stdout.splitlines()
    assert lines[0] == "default 4" and lines[-3:] == ["kept 4", "set 3", "set 2"], lines
    assert sum("ValueError The number of threads must be between 1 and 4" in line for line in lines) == 6, lines
    assert sum("TypeError The number of threads specified must be an integer" in line for line in lines) == 6, lines

    script = tmp_path / "pool.py"
    script.write_text(THREAD_POOL)
    pool = run([numpy_venv, script], env=dict(bare, PYTHONPATH=str(tmp_path)), cwd=tmp_path).stdout.splitlines()
    assert pool[:4] == ["1 0", "2 1", "1 0", "3 1"], pool
    import postc

    m = postc.compile(program)
    want = [m.harmonic(300000).hex(), m.growth(300000).hex(), m.spread(300000).hex(), str(m.mixed(300000))]
    assert pool[4].split() == want


DASK = """
import sys

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster

import kernels

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        a = np.linspace(-4.0, 4.0, 1000)
        b = np.linspace(1.0, 3.0, 1000)
        got = kernels.hypot(da.from_array(a, chunks=100), da.from_array(b, chunks=100)).compute()
        assert (got == np.sqrt(a * a + b * b)).all()
        xs = [np.arange(float(n)) for n in range(1, 6)]
        sums = client.gather(client.map(kernels.weighted_sum, xs, [x[::-1].copy() for x in xs]))
        assert sums == [np.dot(x, x[::-1]) for x in xs], sums
        # The workers imported the module and ran it without the package.
        assert set(client.run(lambda: ("kernels" in sys.modules, "postc" in sys.modules)).values()) == {(True, False)}
        print("ok")
"""


def test_a_dask_local_cluster_runs_an_extension_module(tmp_path):
    """A function and a ufunc of an extension module run on the worker
    processes of a `dask.distributed` LocalCluster, which import the module
    from PYTHONPATH by the name it pickles as, and give NumPy's results."""
    modules = tmp_path / "modules"
    modules.mkdir()
    run([sys.executable, "-m", "postc", "compile", "--emit", "pyext",
         REPO / "examples" / "aot-package" / "src" / "aot_demo" / "kernels.py", "-o", modules / f"kernels{SUFFIX}",
         "--python", sys.executable])
    script = tmp_path / "cluster.py"
    script.write_text(DASK)
    env = dict(os.environ, PYTHONPATH=str(modules))
    r = run([sys.executable, script], env=env, cwd=tmp_path, timeout=600)
    assert r.stdout.splitlines()[-1] == "ok", r.stdout + r.stderr


ABI3_PROGRAMS = [REPO / "tests" / "py" / f"{n}.py" for n in ("ufuncs", "panics", "saxpy", "numpy_arrays", "strings")]


@pytest.fixture(scope="session")
def abi3_extensions(tmp_path_factory):
    """Five programs of tests/py built for CPython's stable ABI,
    `NAME.abi3.so`, with the package's `libpostc_pyabi_abi3.a`."""
    out = tmp_path_factory.mktemp("abi3")
    for program in ABI3_PROGRAMS:
        target = out / f"{program.stem}.abi3.so"
        run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", "--abi3", program, "-o", target,
             "--python", sys.executable])
    return out


def later_pythons():
    """The CPython interpreters of later versions than this one found on the
    PATH or among pyenv's versions, one per version."""
    pyenv = pathlib.Path(os.environ.get("PYENV_ROOT", pathlib.Path.home() / ".pyenv")) / "versions"
    directories = [pathlib.Path(d) for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    directories += sorted(pyenv.glob("*/bin"))
    found = {}
    for minor in range(sys.version_info.minor + 1, 20):
        for d in directories:
            exe = d / f"python3.{minor}"
            probe = exe.is_file() and subprocess.run([exe, "-c", "import sys; print(sys.version_info[:2])"],
                                                     capture_output=True, text=True)
            if probe and probe.returncode == 0 and probe.stdout.strip() == f"(3, {minor})":
                found[minor] = exe
                break
    return list(found.values())


def test_abi3_modules_give_what_the_package_gives(numpy_venv, abi3_extensions, tmp_path):
    """Modules built for the stable ABI behave as the package's modules, in
    this interpreter's NumPy-only environment and in one of each later
    CPython installed on this machine (with the same NumPy): one build
    serves them all."""
    package = run([sys.executable, HERE / "pyext_cases.py", "package", *ABI3_PROGRAMS])
    assert sum(line.startswith("case ") for line in package.stdout.splitlines()) > 100
    interpreters = [numpy_venv]
    for later in later_pythons():
        venv = tmp_path / later.name
        fresh_venv(venv, f"numpy=={np.__version__}", python=later)
        interpreters.append(venv / "bin" / "python")
    for python in interpreters:
        bare = {"PATH": str(python.parent), "HOME": os.environ.get("HOME", "/tmp")}
        pyext = run([python, HERE / "pyext_cases.py", "pyext", abi3_extensions, *ABI3_PROGRAMS], env=bare,
                    cwd=abi3_extensions)
        assert pyext.stdout == package.stdout, python


def test_an_abi3_module_refuses_an_earlier_python(tmp_path):
    """The stable ABI's library serves the version it was built for and
    later ones: an earlier `--python` is refused."""
    other = tmp_path / "python3.10"
    other.write_text("#!/bin/sh\nprintf '.cpython-310-x86_64-linux-gnu.so\\n3.10\\n.abi3.so\\n'\n")
    other.chmod(0o755)
    r = subprocess.run([sys.executable, "-m", "postc", "compile", "--emit", "pyext", "--abi3",
                        REPO / "examples" / "saxpy.py", "-o", tmp_path / "saxpy.abi3.so", "--python", other],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert re.search(r"was built for CPython 3\.1[1-9] and later, and `--python` is CPython 3\.10", r.stderr), r.stderr
    assert not (tmp_path / "saxpy.abi3.so").exists()
