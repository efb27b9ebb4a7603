"""postc.compile and @postc.jit: sources, paths, .pir, compile errors, and
the on-disk cache across processes."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import postc

HERE_KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels.py")

ADD = textwrap.dedent('''\
    from postyp import Int64

    def add(a: Int64, b: Int64) -> Int64:
        return a + b
''')


def run_python(code, cache, cwd=None):
    """Runs `code` in a new interpreter with the cache `cache`; returns its
    standard output."""
    env = dict(os.environ, POSTC_CACHE_DIR=str(cache))
    env.pop("POSTC_DISABLE_JIT", None)
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_source_text_compiles():
    m = postc.compile(ADD)
    assert m.add(2, 40) == 42
    assert m.path.endswith("source.py")


def test_ir_text_and_files_compile(programs):
    m = postc.compile(programs / "collatz.pir")
    assert m.steps(27) == 111
    out = np.zeros(2, np.int64)
    m.longest(10, out)
    assert out.tolist() == [9, 19]  # 9 takes the most steps below 10: 19
    pir = "module tiny\n\nfunc twice(%x: Int64) -> Int64 {\nentry:\n  %r: Int64 = add %x, %x\n  return %r\n}\n"
    assert postc.compile(pir).twice(21) == 42


def test_compile_errors_are_located(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from postyp import Int64\n\ndef f(x: Int64) -> Int64:\n    return x + y\n")
    with pytest.raises(postc.CompileError) as e:
        postc.compile(bad)
    text = str(e.value)
    assert "error: undefined name `y`" in text
    assert f"{bad}:4:16" in text
    assert "return x + y" in text
    with pytest.raises(postc.CompileError, match="takes Bool operands"):
        postc.compile("from postyp import Int64\n\ndef f(a: Int64, b: Int64) -> Int64:\n    return a and b\n")


def test_bad_options():
    with pytest.raises(ValueError, match=r"unknown backend `nope` \(backends: llvm, "):
        postc.compile(ADD, backend="nope")
    with pytest.raises(ValueError, match="invalid optimisation level 7"):
        postc.compile(ADD, opt=7)
    with pytest.raises(FileNotFoundError):
        postc.compile("no/such/file.py")


@pytest.mark.parametrize("backend", ["c", "qbe"])
def test_other_backends(programs, backend):
    m = postc.compile(HERE_KERNELS, backend=backend)
    assert m.total(np.arange(5.0)) == 10 and m.greet("c") == "Hello, c!"
    assert m.cumsum(np.ones(3)).tolist() == [1, 2, 3]
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        m.floordiv(1, 0)
    u = postc.compile(programs / "matmul.pir", backend=backend).matmul
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(u(a, a.T), a @ a.T)


PRIVATE_NAMES = os.path.join(os.path.dirname(HERE_KERNELS), "..", "..", "tests", "py", "private_names.py")


@pytest.mark.parametrize("backend", ["llvm", "c", "qbe"])
def test_private_names_compile_through_every_backend(backend):
    """`_name` and `__name` functions, ufuncs and aliases, which C reserves,
    are exported as `postc_export_NAME` and reached by their own names."""
    m = postc.compile(PRIVATE_NAMES, backend=backend)
    assert m._repeat(21) == 42 and getattr(m, "__two_factors")(96) == 5
    assert m.public(12) == 26 and m._twice(-5) == -10 and m["_repeat"](1) == 2
    if backend == "llvm":  # the other backends make no NumPy loop
        np.testing.assert_array_equal(m._half(np.array([1.0, -3.0])), [0.5, -1.5])


def test_include_directories(tmp_path):
    lib = tmp_path / "lib" / "geo"
    lib.mkdir(parents=True)
    (lib / "sq.py").write_text("from postyp import Float64\n\ndef sq(x: Float64) -> Float64:\n    return x * x\n")
    src = tmp_path / "app" / "main.py"
    src.parent.mkdir()
    src.write_text("from postyp import Float64\nfrom geo.sq import sq\n\n__all__ = ['norm2']\n\n"
                   "def norm2(x: Float64, y: Float64) -> Float64:\n    return sq(x) + sq(y)\n")
    with pytest.raises(postc.CompileError):
        postc.compile(src)
    m = postc.compile(src, include=[tmp_path / "lib"])
    assert m.norm2(3.0, 4.0) == 25.0
    assert not hasattr(m, "sq")  # only the module's own exports


def test_jit_compiles_its_module_on_first_call(tmp_path):
    (tmp_path / "jitted.py").write_text(textwrap.dedent('''\
        import postc
        from postyp import Float64

        @postc.jit
        def poly(x: Float64) -> Float64:
            return 3.0 * x * x + 1.0
    '''))
    out = run_python("import jitted, numpy as np\n"
                     "print(repr(jitted.poly))\n"
                     "r = jitted.poly(2.0)\n"
                     "print(r, type(r).__name__)\n"
                     "print(repr(jitted.poly))\n", tmp_path / "cache", cwd=tmp_path)
    lines = out.splitlines()
    assert "not compiled yet" in lines[0]
    assert lines[1] == "13.0 float64"
    assert "(compiled)" in lines[2]


def test_cache_hit_in_a_second_process(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(ADD)
    code = f"import postc\nm = postc.compile({str(src)!r})\nprint(m.cached, m.library, m.add(1, 2))\n"
    first = run_python(code, tmp_path / "cache").split()
    second = run_python(code, tmp_path / "cache").split()
    assert first[0] == "False" and second[0] == "True"
    assert first[1] == second[1] and first[2] == second[2] == "3"
    # Other options are another library.
    third = run_python(code.replace("compile(", "compile(opt=0, path_or_source="), tmp_path / "cache").split()
    assert third[0] == "False" and third[1] != first[1]


def test_a_changed_import_invalidates(tmp_path):
    (tmp_path / "dep.py").write_text("from postyp import Int64\n\ndef k() -> Int64:\n    return 1\n")
    (tmp_path / "top.py").write_text("from postyp import Int64\nfrom dep import k\n\n__all__ = ['f']\n\n"
                                     "def f() -> Int64:\n    return k() * 10\n")
    code = f"import postc\nm = postc.compile({str(tmp_path / 'top.py')!r})\nprint(m.cached, m.f())\n"
    assert run_python(code, tmp_path / "cache").split() == ["False", "10"]
    assert run_python(code, tmp_path / "cache").split() == ["True", "10"]
    (tmp_path / "dep.py").write_text("from postyp import Int64\n\ndef k() -> Int64:\n    return 2\n")
    assert run_python(code, tmp_path / "cache").split() == ["False", "20"]


def test_two_processes_compiling_at_once(tmp_path):
    src = tmp_path / "race.py"
    src.write_text(ADD + "\n\ndef mul(a: Int64, b: Int64) -> Int64:\n    return a * b\n")
    env = dict(os.environ, POSTC_CACHE_DIR=str(tmp_path / "cache"))
    code = f"import postc\nm = postc.compile({str(src)!r})\nprint(m.add(2, 3), m.mul(2, 3), m.library)\n"
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    results = {o[0] for o in outs}
    assert len(results) == 1 and results.pop().split()[:2] == ["5", "6"]
    libs = [f for _, _, fs in os.walk(tmp_path / "cache") for f in fs if f.endswith(".so")]
    assert libs == ["librace.so"]  # one library, no temporary left behind
    assert run_python(code.replace("print(", "print(m.cached, "), tmp_path / "cache").split()[0] == "True"


def test_disable_jit_gives_the_python_functions(tmp_path, monkeypatch, py_programs):
    monkeypatch.setenv("POSTC_DISABLE_JIT", "1")
    m = postc.compile(ADD)
    assert m.library is None and m.add.__code__.co_name == "add"

    @postc.jit
    def f(x):
        return x + 1

    assert f(1) == 2 and not isinstance(f, postc._Jit)
    sx = postc.compile(py_programs / "saxpy.py")
    y = np.ones(3, np.float32)
    sx.saxpy(np.float32(2), np.arange(3, dtype=np.float32), y)
    assert y.tolist() == [1, 3, 5]
    np.testing.assert_array_equal(sx.axpy(2.0, np.arange(3.0), 1.0), [1, 3, 5])
    with pytest.raises(postc.CompileError, match="no pure-Python functions"):
        postc.compile(py_programs.parent / "programs" / "saxpy.pir")
