"""`@postc.jit` and `@postc.ufunc` as Numba users write them: in scripts
with ordinary Python around them, in notebook cells whose source is only in
`linecache`, under `python -c`; their options; and pickling of everything
the package makes, into spawned processes and a Dask cluster."""
import linecache
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import postc


def run_script(path, cache, *args, env=None):
    """Runs a script in a new interpreter; returns (stdout, stderr)."""
    e = dict(os.environ, POSTC_CACHE_DIR=str(cache))
    e.pop("POSTC_DISABLE_JIT", None)
    e.pop("POSTC_VERBOSE", None)
    e.update(env or {})
    r = subprocess.run([sys.executable, *map(str, [path, *args])], env=e, cwd=os.path.dirname(str(path)) or None,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr


SCRIPT = textwrap.dedent('''\
    """An ordinary script: NumPy at top level, a class, a main() that prints."""
    import math
    import sys

    import numpy as np

    import postc
    from postyp import Float64, Int64

    DATA = np.linspace(0.0, 1.0, 5)
    SCALE = 2.0
    OFFSET = np.float64(0.5)


    class Report:
        def __init__(self, rows):
            self.rows = rows

        def show(self):
            for r in self.rows:
                print(r)


    def norm(x: Float64, y: Float64) -> Float64:
        return math.sqrt(x * x + y * y)


    @postc.jit
    def walk(xs: Float64[:], n: Int64) -> Float64:
        total = 0.0
        for k in range(n):
            for i in range(len(xs)):
                total += norm(xs[i], SCALE) + OFFSET
        return total


    def main():
        got = walk(DATA, 3)
        want = walk.py_func(DATA, 3)
        Report([f"{got:.12f}", f"{want:.12f}", repr(walk)]).show()


    if __name__ == "__main__":
        main()
''')


def test_jit_in_a_script_compiles_the_function_not_the_file(tmp_path):
    script = tmp_path / "walker.py"
    script.write_text(SCRIPT)
    out, err = run_script(script, tmp_path / "cache")
    got, want, state = out.splitlines()
    assert got == want
    assert "(compiled)" in state
    assert err == ""


def test_a_compile_error_names_the_scripts_own_line(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text(SCRIPT.replace("total += norm(xs[i], SCALE) + OFFSET", "total += norm(xs[i], SCALE) + nowhere"))
    e = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, str(script)], env=e, capture_output=True, text=True, timeout=600)
    assert r.returncode != 0
    line = SCRIPT.splitlines().index("            total += norm(xs[i], SCALE) + OFFSET") + 1
    assert f"{script}:{line}:43" in r.stderr, r.stderr
    assert "undefined name `nowhere`" in r.stderr
    # One error: nothing else of the file was compiled.
    assert "aborting due to 1 error" in r.stderr


def define_cell(number, text, namespace):
    """What IPython does with a cell: its source goes to linecache under a
    pseudo-file name, then it runs."""
    name = f"<ipython-input-{number}-0123456789ab>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    exec(compile(text, name, "exec"), namespace)
    return name


CELL_1 = textwrap.dedent('''\
    import numpy as np
    import postc
    from postyp import Float64, Int64

    def square(x: Float64) -> Float64:
        return x * x
''')

CELL_2 = textwrap.dedent('''\
    @postc.jit
    def sum_of_squares(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += square(a[i])
        return s

    @postc.jit(opt=0)
    def broken(a: Int64) -> Int64:
        return a + missing
''')


def test_jit_in_notebook_cells():
    ns = {}
    define_cell(1, CELL_1, ns)
    cell2 = define_cell(2, CELL_2, ns)
    a = np.arange(5.0)
    assert ns["sum_of_squares"](a) == 30.0
    with pytest.raises(postc.CompileError) as e:
        ns["broken"](1)
    assert f"{cell2}:10:16" in str(e.value)
    assert "undefined name `missing`" in str(e.value)


def test_jupyter_cell_file_names_are_modules():
    # ipykernel names cells like files whose stems are numbers.
    ns = {}
    name = "/tmp/ipykernel_4242/1234567.py"
    linecache.cache[name] = (len(CELL_1), None, CELL_1.splitlines(True), name)
    exec(compile(CELL_1, name, "exec"), ns)
    define_cell(3, CELL_2, ns)
    assert ns["sum_of_squares"](np.array([3.0, 4.0])) == 25.0


def test_jit_under_python_c(tmp_path):
    code = ("import postc\nfrom postyp import Int64\n\n@postc.jit\ndef tri(n: Int64) -> Int64:\n"
            "    return n * (n + 1) // 2\n\nprint(tri(100))\n")
    e = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "5050"


def test_exec_without_source_is_a_clear_error():
    ns = {}
    exec("import postc\nfrom postyp import Int64\n\n@postc.jit\ndef f(n: Int64) -> Int64:\n    return n\n", ns)
    with pytest.raises(postc.CompileError, match="the source of `f` is not available"):
        ns["f"](1)


def test_globals_are_frozen_at_compile_time_and_checked():
    ns = {}
    text = textwrap.dedent('''\
        import numpy as np
        import postc
        from postyp import Float64

        K = 3.0
        TABLE = np.ones(3)
        NAMES = np.array(["a", "b"], dtype=object)

        @postc.jit
        def scale(x: Float64) -> Float64:
            return K * x

        @postc.jit
        def lookup(x: Float64) -> Float64:
            return TABLE[0] * x + NAMES.shape[0]

        @postc.jit
        def table(x: Float64) -> Float64:
            return TABLE[2] * x
    ''')
    cell = define_cell(4, text, ns)
    assert ns["scale"](2.0) == 6.0
    ns["K"] = 10.0  # as in Numba: the compiled function keeps the value it saw
    assert ns["scale"](2.0) == 6.0
    # A global array is frozen as well: its values when compiled.
    assert ns["table"](2.0) == 2.0
    ns["TABLE"][2] = 5.0
    assert ns["table"](2.0) == 2.0
    with pytest.raises(postc.CompileError) as e:
        ns["lookup"](1.0)
    assert "`NAMES` is a global NumPy array of dtype object" in str(e.value)
    assert f"{cell}:15:27" in str(e.value)


def test_functions_imported_from_numpy_compile():
    ns = {}
    text = textwrap.dedent('''\
        import postc
        from numpy import cross, interp, roll, sqrt
        from postyp import Float64

        @postc.jit
        def turned(r: Float64[:], v: Float64[:]) -> Float64[:]:
            return roll(cross(r, v), 1) * sqrt(2.0)

        @postc.jit
        def unknown(x: Float64[:]) -> Float64:
            return interp(0.5, x, x)
    ''')
    cell = define_cell(6, text, ns)
    r, v = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 2.0])
    assert np.array_equal(ns["turned"](r, v), np.roll(np.cross(r, v), 1) * np.sqrt(2.0))
    # One the compiler does not have is its located error, not the cut's.
    with pytest.raises(postc.CompileError) as e:
        ns["unknown"](r)
    assert "`numpy.interp` is a CPython function" in str(e.value) and f"{cell}:11:12" in str(e.value)


OPTIONS = textwrap.dedent('''\
    import postc
    from postyp import Float64, Int64

    def body(a: Float64[:], i: Int64) -> Float64:
        return a[i]

    def grow(n: Int64) -> Int64:
        return n * 4611686018427387904

    def total(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s
''')


def test_jit_options(tmp_path):
    ns = {}
    define_cell(5, OPTIONS, ns)
    a = np.arange(4.0)
    checked = postc.jit(ns["body"])
    with pytest.raises(IndexError, match="index out of bounds"):
        checked(a, 4)
    assert postc.jit(boundscheck=False)(ns["body"])(a, 3) == 3.0
    # Integer overflow panics at opt=0 and wraps from opt=1.
    with pytest.raises(OverflowError):
        postc.jit(opt=0)(ns["grow"])(4)
    assert postc.jit(opt=1)(ns["grow"])(4) == 0
    big = np.random.default_rng(1).standard_normal(10001)
    fast = postc.jit(fastmath=True)(ns["total"])
    assert fast(big) == pytest.approx(float(np.sum(big)), rel=1e-9, abs=1e-9)
    assert "reassoc" in fast.inspect("llvm-ir")
    assert "reassoc" not in postc.jit(ns["total"]).inspect("llvm-ir")
    with pytest.raises(ValueError, match="invalid optimisation level 9"):
        postc.jit(opt=9)


def test_cache_false_keeps_the_shared_cache_clean(tmp_path, monkeypatch):
    monkeypatch.setenv("POSTC_CACHE_DIR", str(tmp_path / "shared"))
    ns = {}
    define_cell(6, OPTIONS, ns)
    f = postc.jit(cache=False)(ns["total"])
    assert f(np.ones(3)) == 3.0
    libs = [n for _, _, fs in os.walk(tmp_path / "shared") for n in fs if n.endswith(".so")]
    assert libs == []
    assert postc.jit(ns["total"])(np.ones(3)) == 3.0
    libs = [n for _, _, fs in os.walk(tmp_path / "shared") for n in fs if n.endswith(".so")]
    assert len(libs) == 1


def test_verbose_prints_each_phase(tmp_path):
    script = tmp_path / "loud.py"
    script.write_text("import postc\nfrom postyp import Int64\n\n@postc.jit(verbose=True)\n"
                      "def f(n: Int64) -> Int64:\n    return n + 1\n\nprint(f(1))\n")
    out, err = run_script(script, tmp_path / "cache")
    assert out.strip() == "2"
    assert "postc: f: compiled in" in err and "frontend" in err and "codegen" in err and "link" in err
    out, err = run_script(script, tmp_path / "cache")
    assert "from the cache" in err
    quiet = tmp_path / "quiet.py"
    quiet.write_text(script.read_text().replace("@postc.jit(verbose=True)", "@postc.jit"))
    out, err = run_script(quiet, tmp_path / "cache2")
    assert err == ""
    out, err = run_script(quiet, tmp_path / "cache3", env={"POSTC_VERBOSE": "1"})
    assert "postc: f: compiled in" in err


def test_inspect_shows_the_code():
    ns = {}
    define_cell(7, OPTIONS, ns)
    f = postc.jit(ns["total"])
    assert "func total(" in f.inspect("pir")
    assert "define" in f.inspect("llvm-ir")
    assert "total" in f.inspect("asm")
    with pytest.raises(ValueError, match="unknown listing"):
        f.inspect("bytecode")


UFUNCS = textwrap.dedent('''\
    import postc
    from postyp import Float64, Int64

    @postc.ufunc
    def hyp(a: Float64, b: Float64) -> Float64:
        return (a * a + b * b) ** 0.5

    @postc.ufunc("(n)->()")
    def total(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    @postc.ufunc
    def idiv(a: Int64, b: Int64) -> Int64:
        return a // b
''')


def test_ufunc_decorator_compiles_to_a_numpy_ufunc():
    ns = {}
    define_cell(8, UFUNCS, ns)
    hyp, total = ns["hyp"], ns["total"]
    assert isinstance(hyp.compiled(), np.ufunc)
    assert hyp.types == ["dd->d"] and hyp.nin == 2 and hyp.signature is None
    np.testing.assert_allclose(hyp(np.array([3.0, 5.0]), np.array([4.0, 12.0])), [5.0, 13.0])
    out = np.zeros(2)
    hyp(np.array([3.0, 5.0]), 4.0, out=out)
    np.testing.assert_allclose(out, [5.0, np.hypot(5.0, 4.0)])
    assert hyp.reduce(np.array([3.0, 4.0])) == 5.0
    np.testing.assert_allclose(total(np.arange(6.0).reshape(2, 3)), [3.0, 12.0])
    assert total.compiled().signature == "(n)->()"


def test_ufunc_decorator_runs_python_when_disabled(monkeypatch):
    monkeypatch.setenv("POSTC_DISABLE_JIT", "1")
    ns = {}
    define_cell(9, UFUNCS, ns)
    np.testing.assert_allclose(ns["hyp"](np.array([3.0]), np.array([4.0])), [5.0])
    assert ns["hyp"]._compiled is None


# ---------------------------------------------------------------------------
# pickling

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels.py")


def test_everything_pickles_in_process():
    m = postc.compile(KERNELS)
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.library == m.library
    src = "from postyp import Int64\n\ndef add(a: Int64, b: Int64) -> Int64:\n    return a + b\n"
    s = postc.compile(src)
    assert pickle.loads(pickle.dumps(s)).add(2, 3) == 5
    f = pickle.loads(pickle.dumps(s.add))
    assert f(4, 5) == 9
    ns = {}
    define_cell(10, UFUNCS, ns)
    j = pickle.loads(pickle.dumps(ns["hyp"]))
    np.testing.assert_allclose(j(np.array([3.0]), 4.0), [5.0])
    u = ns["hyp"].compiled()
    assert pickle.loads(pickle.dumps(u)) is u  # the same library's ufunc
    assert pickle.loads(pickle.dumps(np.add)) is np.add  # NumPy's own still pickle by name


POOL = textwrap.dedent('''\
    """Pickles postc objects into spawned worker processes."""
    import multiprocessing as mp
    import sys
    from concurrent.futures import ProcessPoolExecutor

    import numpy as np

    import postc
    from postyp import Float64, Int64


    def bump(x: Float64) -> Float64:
        return x + 0.5


    @postc.jit
    def poly(x: Float64) -> Float64:
        return 3.0 * bump(x) * x + 1.0


    @postc.ufunc
    def hyp(a: Float64, b: Float64) -> Float64:
        return (a * a + b * b) ** 0.5


    def apply(f, *args):
        return f(*args)


    if __name__ == "__main__":
        mod = postc.compile(sys.argv[1])
        src = postc.compile("from postyp import Int64\\n\\ndef inc(a: Int64) -> Int64:\\n    return a + 1\\n")
        with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
            print(list(ex.map(poly, [1.0, 2.0])))
            print(list(ex.map(hyp, [3.0, 5.0], [4.0, 12.0])))
            print(ex.submit(apply, src.inc, 41).result())
            print(ex.submit(apply, mod.total, np.arange(4.0)).result())
            print(ex.submit(apply, hyp.compiled(), np.arange(3.0), 4.0).result())
''')


def test_pickling_into_spawned_processes(tmp_path):
    script = tmp_path / "pool.py"
    script.write_text(POOL)
    out, err = run_script(script, tmp_path / "cache", KERNELS)
    lines = out.splitlines()
    assert lines[0] == "[np.float64(5.5), np.float64(16.0)]"
    assert lines[1] == "[np.float64(5.0), np.float64(13.0)]"
    assert lines[2] == "42"
    assert lines[3] == "6.0"
    assert lines[4] == "[4.         4.12310563 4.47213595]"


DASK = textwrap.dedent('''\
    """A postc ufunc and a postc function over a chunked Dask array, on a
    LocalCluster of worker processes."""
    import dask.array as da
    import numpy as np
    from dask.distributed import Client, LocalCluster

    import postc
    from postyp import Float64


    @postc.ufunc
    def softplus(x: Float64) -> Float64:
        return postc.math.log(1.0 + postc.math.exp(x))


    @postc.jit
    def block_sum(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s


    if __name__ == "__main__":
        import postc.math
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
                Client(cluster) as client:
            x = da.linspace(-3.0, 3.0, 1000, chunks=100)
            y = softplus(x).compute()
            np.testing.assert_allclose(y, np.log1p(np.exp(np.linspace(-3.0, 3.0, 1000))), rtol=1e-12)
            partial = x.map_blocks(lambda b: np.array([block_sum(b)]), chunks=(1,)).compute()
            assert partial.shape == (10,)
            np.testing.assert_allclose(partial.sum(), np.linspace(-3.0, 3.0, 1000).sum(), atol=1e-9)
            futures = client.map(block_sum, [np.arange(float(n)) for n in range(1, 6)])
            print(client.gather(futures))
            print("ok")
''')


def test_a_dask_local_cluster_runs_postc_code(tmp_path):
    import dask  # noqa: F401
    import distributed  # noqa: F401

    script = tmp_path / "cluster.py"
    script.write_text(DASK)
    out, err = run_script(script, tmp_path / "cache")
    lines = out.splitlines()
    assert lines[-1] == "ok", out + err
    assert lines[-2] == "[np.float64(0.0), np.float64(1.0), np.float64(3.0), np.float64(6.0), np.float64(10.0)]"


TYPED = textwrap.dedent('''\
    import postc

    @postc.ufunc(["f8(f8, f8)", "float32(float32, float32)", "Int64(Int64, Int64)"])
    def addmul(a, b):
        return a * b + a

    @postc.ufunc(["i8(i8)"])
    def halve(a): return a // 2
''')


def test_ufunc_with_several_dtype_signatures_has_a_loop_each():
    ns = {}
    define_cell(11, TYPED, ns)
    u = ns["addmul"]
    assert u.types == ["dd->d", "ff->f", "ll->l"]
    r = u(np.arange(3, dtype=np.float32), np.float32(2))
    assert r.dtype == np.float32 and list(r) == [0.0, 3.0, 6.0]
    r = u(np.array([1.5]), 2.0)
    assert r.dtype == np.float64 and r[0] == 4.5
    # As NumPy picks a loop: the first the operands cast to safely.
    assert u(np.arange(3), 2).dtype == np.float64
    assert ns["halve"](np.array([7, -7])).tolist() == [3, -4]
    v = pickle.loads(pickle.dumps(u))
    assert v(np.arange(2, dtype=np.float32), np.float32(1)).dtype == np.float32
    with pytest.raises(ValueError, match="unknown dtype 'f9'"):
        postc.ufunc(["f9(f8)"])(lambda a: a)


def test_ufunc_with_dtype_signatures_under_cpython(monkeypatch):
    monkeypatch.setenv("POSTC_DISABLE_JIT", "1")
    ns = {}
    define_cell(12, TYPED, ns)
    r = ns["addmul"](np.arange(3, dtype=np.float32), np.float32(2))
    assert r.dtype == np.float32 and list(r) == [0.0, 3.0, 6.0]
    assert ns["halve"](np.array([7, -7])).tolist() == [3, -4]
    assert ns["addmul"](np.arange(3), 2).dtype == np.float64


def test_a_long_compile_says_so(monkeypatch, capfd, tmp_path):
    # A compile "takes long" after postc._NOTICE_AFTER seconds (1 by default).
    monkeypatch.setattr(postc, "_NOTICE_AFTER", 0.0)
    monkeypatch.setenv("POSTC_CACHE_DIR", str(tmp_path))
    ns = {}
    define_cell(13, OPTIONS, ns)
    f = postc.jit(ns["total"])
    assert f(np.ones(2)) == 2.0
    err = capfd.readouterr().err
    assert "postc: compiling total ..." in err and "postc: total: compiled in" in err
    # A cache hit starts no notice, and silence is silence.
    g = postc.jit(ns["total"])
    assert g(np.ones(2)) == 2.0
    err = capfd.readouterr().err
    assert "compiling" not in err and "postc: total: from the cache" in err
    h = postc.jit(verbose=False)(ns["body"])
    assert h(np.ones(2), 1) == 1.0
    assert capfd.readouterr().err == ""


def test_debug_builds_carry_dwarf_naming_the_source(tmp_path):
    ns = {}
    cell = define_cell(14, OPTIONS, ns)
    plain = postc.jit(ns["total"])
    debug = postc.jit(debug=True)(ns["total"])
    assert plain(np.ones(3)) == debug(np.ones(3)) == 3.0
    with_dwarf = open(debug._target.library, "rb").read()
    without = open(plain._target.library, "rb").read()
    assert debug._target.library != plain._target.library  # the cache keys on it
    assert b".debug_info" in with_dwarf and b".debug_line" in with_dwarf
    assert cell.encode() in with_dwarf
    assert b".debug_info" not in without


PLAIN_UFUNCS = textwrap.dedent('''\
    import numpy as np

    import postc
    from postc import ufunc
    from postyp import Float64


    def twice(x: Float64) -> Float64:
        return 2.0 * x

    def sum_of_squares(a: Float64[:]) -> Float64:
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i]
        return s


    @ufunc
    def half(x: Float64) -> Float64:
        return x / 2.0


    twice_u = postc.ufunc(twice)
    twice_typed = postc.ufunc(["f8(f8)", "f4(f4)"])(twice)
    sum_of_squares_u = postc.ufunc("(n)->()")(sum_of_squares)
''')


def test_ufunc_of_a_plain_function_and_a_bare_imported_decorator(tmp_path, monkeypatch):
    """Numba's `vectorize()(f)` style, `postc.ufunc(f)` of a function with
    no decorator, makes a ufunc too; `from postc import ufunc` then `@ufunc`
    is the decorator, not a function to compile."""
    (tmp_path / "plain_ufuncs.py").write_text(PLAIN_UFUNCS)
    monkeypatch.syspath_prepend(str(tmp_path))
    import plain_ufuncs as m

    x = np.arange(4.0)
    for u, want in [(m.twice_u, 2.0 * x), (m.half, x / 2.0), (m.twice_typed, 2.0 * x)]:
        assert isinstance(u.compiled(), np.ufunc)
        np.testing.assert_array_equal(u(x), want)
        again = pickle.loads(pickle.dumps(u))
        np.testing.assert_array_equal(again(x), want)
    assert m.twice_typed(x.astype(np.float32)).dtype == np.float32
    a = np.arange(6.0).reshape(2, 3)
    assert isinstance(m.sum_of_squares_u.compiled(), np.ufunc)
    assert m.sum_of_squares_u.signature == "(n)->()"
    np.testing.assert_array_equal(m.sum_of_squares_u(a), (a * a).sum(axis=1))
    again = pickle.loads(pickle.dumps(m.sum_of_squares_u))
    assert again.signature == "(n)->()"
    np.testing.assert_array_equal(again(a), (a * a).sum(axis=1))



KEYWORDS_SCRIPT = textwrap.dedent('''\
    """Keyword arguments and defaults between jitted functions."""
    import postc
    from postyp import Float64, Int64


    @postc.jit
    def poly(x: Float64, a: Float64 = 1.0, c: Int64 = 3) -> Float64:
        return a * x * x + c


    @postc.jit
    def caller(x: Float64) -> Float64:
        return poly(x, c=1) + poly(a=2.0, x=x) + poly(x)


    print(caller(2.0))
    print(poly(x=2.0, c=3, a=1.0))
    for args, kwargs in [((2.0,), {}), ((), {"c": 1}), ((2.0,), {"d": 1}), ((2.0, 1.0, 3, 4), {})]:
        try:
            print(poly(*args, **kwargs))
        except TypeError as e:
            print("TypeError:", e)
''')


def test_keywords_and_defaults_in_compiled_calls(tmp_path):
    """Compiled code binds keywords and defaults as CPython does, and so
    does a Python caller of the `@jit` function: the same script with the
    stand-ins is the oracle (docs/python.md)."""
    script = tmp_path / "keywords_script.py"
    script.write_text(KEYWORDS_SCRIPT)
    compiled, _ = run_script(script, tmp_path / "cache")
    cpython, _ = run_script(script, tmp_path / "cache", env={"POSTC_DISABLE_JIT": "1"})
    compiled, cpython = compiled.splitlines(), cpython.splitlines()
    assert compiled == cpython
    assert cpython[2] == "7.0"


MODULE_STATS = textwrap.dedent('''\
    """Statistics the kernels below call through the module."""
    import numpy as np
    import postc
    from postyp import Float64


    @postc.jit
    def mean(x: Float64[:]) -> Float64:
        return x.sum() / x.shape[0]


    @postc.jit
    def std(x: Float64[:]) -> Float64:
        m = mean(x)
        return np.sqrt(((x - m) ** 2).sum() / x.shape[0])
''')

MODULE_KERNELS = textwrap.dedent('''\
    """A kernel calling a module of its project through an alias, as
    `import pkg.utils.stats as stats` then `stats.std(x)` does."""
    import numpy as np
    import postc
    import modpkg.stats as stats
    from modpkg import stats as st
    from postyp import Float64


    @postc.jit
    def z_normalise(X: Float64[:]) -> Float64[:]:
        s = stats.std(X)
        if s > 0:
            return (X - st.mean(X)) / s
        return X - stats.mean(X)


    @postc.jit
    def shadowed(stats: Float64[:]) -> Float64:
        return stats.sum()
''')


def test_functions_of_a_module_called_through_its_name(tmp_path, monkeypatch):
    """`import pkg.mod as m` (or `from pkg import mod as m`) then
    `m.f(x)`: the module's functions compile with the caller, as Numba
    compiles the jitted functions of a module a kernel reads; a parameter
    of the module's name is the parameter. `pkg.mod.f(x)` after `import
    pkg.mod` is a located error that says to import the module."""
    pkg = tmp_path / "modpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "stats.py").write_text(MODULE_STATS)
    (pkg / "kernels.py").write_text(MODULE_KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    import modpkg.kernels as k

    x = np.array([1.0, 2.0, 4.0, 8.0])
    want = (x - x.mean()) / x.std()
    np.testing.assert_allclose(k.z_normalise(x), want, rtol=1e-15)
    np.testing.assert_array_equal(k.z_normalise(np.full(3, 2.0)), np.zeros(3))
    assert k.shadowed(x) == 15.0
    pir = k.z_normalise.inspect("pir")
    assert "import post stats: std as stats.std" in pir and "call stats.std(" in pir

    (pkg / "dotted.py").write_text(textwrap.dedent('''\
        import postc
        import modpkg.stats
        from postyp import Float64


        @postc.jit
        def centred(X: Float64[:]) -> Float64[:]:
            return X - modpkg.stats.mean(X)
    '''))
    import modpkg.dotted as d

    with pytest.raises(postc.CompileError, match=r"(?s)`modpkg.stats.mean` is a function of the module "
                       r"`modpkg.stats`.*`import modpkg.stats as stats`.*dotted.py:8:16"):
        d.centred(x)


UNANNOTATED = textwrap.dedent('''\
    """Numba code as written: no annotations at all."""
    import numpy as np
    import postc


    def shift_and_insert(target, value, index):
        n = len(target)
        for i in range(n - 1, index, -1):
            target[i] = target[i - 1]
        target[index] = value
        return index + 1


    @postc.jit
    def insert(target, value, index):
        return shift_and_insert(target, value, index)


    @postc.jit
    def scale(x, k=2):
        return x * k


    @postc.jit
    def total(a, start=0.0):
        s = start
        for v in a.ravel():
            s += v
        return s


    @postc.jit
    def cells(shape):
        n = 1
        for s in shape:
            n *= s
        return n
''')


def test_jit_of_unannotated_parameters_compiles_per_argument_types(tmp_path, monkeypatch):
    """A `@jit` function with no annotations is compiled for the types of
    each call's arguments, once per distinct list (arrays by dtype, axes,
    layout and writability), and its helpers per the types they are
    called with; results agree with the same functions under CPython."""
    (tmp_path / "unannotated.py").write_text(UNANNOTATED)
    monkeypatch.syspath_prepend(str(tmp_path))
    import unannotated as m

    plain = {name: getattr(m, name).py_func for name in ("insert", "scale", "total", "cells")}
    for make in (lambda: np.arange(6.0), lambda: np.arange(6), lambda: np.arange(6, dtype=np.int32)):
        a, b = make(), make()
        assert m.insert(a, 9, 2) == plain["insert"](b, 9, 2) == 3
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    x = np.linspace(0.0, 1.0, 5, dtype=np.float32)
    for args, kwargs in [((x,), {}), ((x, 0.5), {}), ((3.0,), {}), ((np.int16(3),), {"k": 4}), ((2,), {})]:
        # A Python number argument is typed as Numba types it (`int` as
        # Int64), so only the values are CPython's here.
        np.testing.assert_array_equal(m.scale(*args, **kwargs), plain["scale"](*args, **kwargs))
    grid = np.arange(12.0).reshape(3, 4)
    for a in (grid, grid.T, grid[:, ::2], np.asfortranarray(grid)):
        assert m.total(a) == plain["total"](a)
    read_only = np.arange(4.0)
    read_only.setflags(write=False)
    assert m.total(read_only, 1.5) == 7.5
    assert m.cells((3, 4, 5)) == 60
    assert "insert" in m.insert.inspect("pir")
    with pytest.raises(TypeError, match=r"scale\(\) cannot be compiled for NoneType argument 'x'.*annotate it"):
        m.scale(None)
    with pytest.raises(TypeError, match="missing a required argument"):
        m.scale()
    again = pickle.loads(pickle.dumps(m.scale))
    np.testing.assert_array_equal(again(x, 3), plain["scale"](x, 3))
    with pytest.raises(ValueError, match="call it first"):
        postc.jit(plain["cells"]).inspect("pir")
