"""Fixtures of the postc package's tests: a fresh cache directory per test
session and the repository's test programs."""
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory):
    """Every test compiles into one fresh cache (a test that needs its own
    sets POSTC_CACHE_DIR itself)."""
    d = tmp_path_factory.mktemp("cache")
    old = os.environ.get("POSTC_CACHE_DIR")
    os.environ["POSTC_CACHE_DIR"] = str(d)
    os.environ.pop("POSTC_DISABLE_JIT", None)
    yield d
    if old is None:
        os.environ.pop("POSTC_CACHE_DIR", None)
    else:
        os.environ["POSTC_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def kernels(cache_dir):
    import postc

    return postc.compile(HERE / "kernels.py")


@pytest.fixture(scope="session")
def kernels_o0(cache_dir):
    import postc

    return postc.compile(HERE / "kernels.py", opt=0)


@pytest.fixture(scope="session")
def programs():
    return REPO / "tests" / "programs"


@pytest.fixture(scope="session")
def py_programs():
    return REPO / "tests" / "py"
