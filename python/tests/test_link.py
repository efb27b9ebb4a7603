"""Compiling needs no C compiler or linker on the machine: LLD links in the
process (shared libraries, and the codegen units of a large module), run
here with a PATH on which there is no `cc`, `ld` or `ld.lld`. The backends
that do need a tool (`c`: a C compiler; executables: `cc`) raise
`CompileError` naming it."""
import ctypes
import os
import pathlib
import subprocess
import sys
import textwrap

REPO = pathlib.Path(__file__).resolve().parent.parent.parent


def without_tools(tmp_path):
    """The environment of a machine without a C compiler or linker: an empty
    PATH and a fresh cache, so that every module is linked anew."""
    empty = tmp_path / "bin"
    empty.mkdir()
    env = dict(os.environ, PATH=str(empty), POSTC_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("CC", None)
    env.pop("POSTC_DISABLE_JIT", None)
    return env


def many_functions(n=200):
    """A module large enough to be split into several codegen units."""
    lines = ["from postyp import Int64", ""]
    for k in range(n):
        lines += [f"def f{k}(x: Int64) -> Int64:", "    s = 0", "    for i in range(x):",
                  f"        s += i * {k} + i // 3 - i % 7", f"    return s + {k}", ""]
    return "\n".join(lines)


def expected(k, x):
    return sum(i * k + i // 3 - i % 7 for i in range(x)) + k


def test_the_package_compiles_and_calls_without_a_c_compiler(tmp_path):
    big = tmp_path / "big.py"
    big.write_text(many_functions())
    code = textwrap.dedent(f"""\
        import shutil
        import numpy as np
        import postc
        assert shutil.which("cc") is None and shutil.which("ld") is None and shutil.which("ld.lld") is None
        m = postc.compile({str(REPO / "examples" / "saxpy.py")!r})
        assert not m.cached
        x = np.arange(4, dtype=np.float32)
        y = np.ones(4, dtype=np.float32)
        m.saxpy(np.float32(2), x, y)
        print(y.tolist())
        print(postc.compile({str(REPO / "tests" / "py" / "mathfuncs.py")!r}).__name__)
        big = postc.compile({str(big)!r})
        print(big.f0(10), big.f199(10))
    """)
    r = subprocess.run([sys.executable, "-c", code], env=without_tools(tmp_path), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[1.0, 3.0, 5.0, 7.0]", "mathfuncs", f"{expected(0, 10)} {expected(199, 10)}"]


def test_a_large_module_links_its_codegen_units_without_a_linker(tmp_path):
    big = tmp_path / "big.py"
    big.write_text(many_functions())
    lib = tmp_path / "libbig.so"
    r = subprocess.run([sys.executable, "-m", "postc", "compile", "--time-passes", "--emit", "shared", str(big),
                        "-o", str(lib)], env=without_tools(tmp_path), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    # More than one unit: the objects were combined in-process.
    assert "lld -r" in r.stderr, r.stderr
    f = ctypes.CDLL(str(lib)).f123
    f.argtypes, f.restype = [ctypes.c_int64], ctypes.c_int64
    assert f(1000) == expected(123, 1000)


def test_tools_that_are_missing_are_named(tmp_path):
    env = without_tools(tmp_path)
    code = textwrap.dedent(f"""\
        import postc
        try:
            postc.compile({str(REPO / "tests" / "py" / "collatz.py")!r}, backend="c")
        except postc.CompileError as e:
            print(e)
    """)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "no C compiler found: the c backend compiles with `cc`, which is not on the PATH" in r.stdout
    assert "(install gcc or clang, or set CC)" in r.stdout
    main = tmp_path / "prog.py"
    main.write_text('from postyp import Int64\n\n__all__ = ["main"]\n\n\ndef main() -> Int64:\n    return 7\n')
    r = subprocess.run([sys.executable, "-m", "postc", "compile", "--emit", "exe", str(main), "-o",
                        str(tmp_path / "prog")], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert r.stderr == ("error: no C compiler/linker found: linking an executable runs `cc`, which is not on "
                        "the PATH (install gcc or clang, or set CC)\n")


def test_a_failed_link_is_reported_and_the_next_one_works(tmp_path, capfd):
    from postc import _native

    src = str(REPO / "tests" / "py" / "collatz.py")
    missing = tmp_path / "missing" / "libcollatz.so"
    assert _native.run_cli(["postc", "compile", "--emit", "shared", src, "-o", str(missing)]) == 1
    err = capfd.readouterr().err
    assert f"error: linking {missing} failed: ld.lld: error: cannot open output file {missing}" in err, err
    # LLD runs again in the same process.
    lib = tmp_path / "libcollatz.so"
    assert _native.run_cli(["postc", "compile", "--emit", "shared", src, "-o", str(lib)]) == 0
    steps = ctypes.CDLL(str(lib)).steps
    steps.argtypes, steps.restype = [ctypes.c_int64], ctypes.c_int64
    assert steps(27) == 111


def test_threads_link_at_once(tmp_path, monkeypatch):
    """LLD keeps global state: the links of compiles on several threads
    (which release the GIL) take turns, and every library is whole."""
    import concurrent.futures

    import postc

    monkeypatch.setenv("POSTC_CACHE_DIR", str(tmp_path / "cache"))
    sources = [f"from postyp import Int64\n\n\ndef k{i}(x: Int64) -> Int64:\n    return x * {i} + {i}\n"
               for i in range(8)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        modules = list(pool.map(postc.compile, sources))
    assert [getattr(m, f"k{i}")(10) for i, m in enumerate(modules)] == [11 * i for i in range(8)]
