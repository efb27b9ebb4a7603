"""`python -m postc` (the driver's command line in-process: its output on
the process's standard output and error, its exit statuses) and
`postc.__version__`."""
import ctypes
import pathlib
import re
import subprocess
import sys

import postc

REPO = pathlib.Path(__file__).resolve().parent.parent.parent


def postc_cli(*args, cwd=REPO, env=None):
    """Runs `python -m postc ARGS` from the repository's root."""
    return subprocess.run([sys.executable, "-m", "postc", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def workspace_version():
    text = (REPO / "Cargo.toml").read_text()
    found = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', text, re.M)
    assert found, "the workspace declares a version"
    return found.group(1)


def test_version_is_the_workspace_version():
    assert postc.__version__ == workspace_version()
    r = postc_cli("--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"postc-driver {workspace_version()}\n"


def test_help_lists_the_commands():
    r = postc_cli("--help")
    assert r.returncode == 0, r.stderr
    assert "Usage: python -m postc <COMMAND>" in r.stdout
    for command in ["check", "compile", "lower", "run", "opt", "fmt"]:
        assert re.search(rf"^  {command} ", r.stdout, re.M), (command, r.stdout)
    r = postc_cli("compile", "--help")
    assert r.returncode == 0 and "--emit <EMIT>" in r.stdout, r.stdout


def test_usage_errors_exit_with_status_2():
    r = postc_cli("frobnicate")
    assert r.returncode == 2
    assert "unrecognized subcommand 'frobnicate'" in r.stderr
    r = postc_cli()
    assert r.returncode == 2 and "Usage: python -m postc <COMMAND>" in r.stderr
    r = postc_cli("run", "tests/py/collatz.py", "--entry", "steps", "--", "27", "28")
    assert r.returncode == 2
    assert "error: `steps` takes 1 argument(s), 2 given" in r.stderr


def test_check_reports_located_diagnostics():
    r = postc_cli("check", "tests/py-invalid/and_on_ints.py")
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr == (REPO / "tests/py-invalid/and_on_ints.stderr").read_text()
    r = postc_cli("check", "tests/py/collatz.py", "examples/saxpy.py")
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_run_prints_the_result_and_panics_exit_101():
    r = postc_cli("run", "tests/py/collatz.py", "--entry", "steps", "--", "27")
    assert (r.returncode, r.stdout) == (0, "111\n"), r.stderr
    r = postc_cli("run", "tests/py/intdiv.py", "--entry", "floordiv", "--", "7", "0")
    assert r.returncode == 101
    assert r.stderr == "panic: division by zero at tests/py/intdiv.py:8:12\n"


def test_lower_prints_ir_that_check_accepts(tmp_path):
    r = postc_cli("lower", "tests/py/collatz.py")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("module collatz"), r.stdout[:200]
    pir = tmp_path / "collatz.pir"
    pir.write_text(r.stdout)
    r = postc_cli("check", pir)
    assert (r.returncode, r.stderr) == (0, "")


def test_compile_writes_a_library_that_runs(tmp_path):
    lib = tmp_path / "libcollatz.so"
    r = postc_cli("compile", "-O2", "--emit", "shared", "tests/py/collatz.py", "-o", lib)
    assert r.returncode == 0, r.stderr
    steps = ctypes.CDLL(str(lib)).steps
    steps.argtypes, steps.restype = [ctypes.c_int64], ctypes.c_int64
    assert steps(27) == 111
    r = postc_cli("compile", "--emit", "shared", "tests/py/collatz.py", "-o", "tests/py/collatz.py")
    assert r.returncode == 2 and "refusing to overwrite it" in r.stderr
