"""The cache's entries: a damaged library is rebuilt (never loaded), files
are written with the umask's permissions, the C compiler is part of the
key; and a Module whose exports are named like its own attributes."""
import os
import subprocess
import sys
import textwrap

import pytest

import postc

SOURCE = textwrap.dedent('''\
    from postyp import Int64

    def add(a: Int64, b: Int64) -> Int64:
        return a + b
''')

PROBE = ("import postc, sys\nm = postc.compile(sys.argv[1])\n"
         "print(m.cached, m.library, m.add(20, 22))\n")


def probe(src, cache, env=None, umask=None):
    e = dict(os.environ, POSTC_CACHE_DIR=str(cache))
    e.update(env or {})
    code = PROBE if umask is None else f"import os\nos.umask({umask})\n" + PROBE
    r = subprocess.run([sys.executable, "-c", code, str(src)], env=e, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"the interpreter died ({r.returncode}):\n{r.stderr}"
    cached, library, result = r.stdout.split()
    assert result == "42"
    return cached == "True", library, r.stderr


@pytest.mark.parametrize("damage", ["truncated", "zeroed"])
def test_a_damaged_library_is_rebuilt_not_loaded(tmp_path, damage):
    src = tmp_path / "k.py"
    src.write_text(SOURCE)
    cached, library, _ = probe(src, tmp_path / "cache")
    assert not cached
    data = open(library, "rb").read()
    with open(library, "wb") as f:
        if damage == "truncated":
            f.write(data[: len(data) // 3])
        else:
            f.write(data[:64] + bytes(len(data) - 64))
    cached, again, err = probe(src, tmp_path / "cache")
    assert not cached and again == library
    assert "is damaged" in err and "rebuilding it" in err
    cached, _, err = probe(src, tmp_path / "cache")
    assert cached and err == ""


def test_a_library_without_its_seal_is_rebuilt_quietly(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(SOURCE)
    _, library, _ = probe(src, tmp_path / "cache")
    os.remove(library + ".sha256")
    cached, _, err = probe(src, tmp_path / "cache")
    assert not cached and err == ""
    assert probe(src, tmp_path / "cache")[0]


def test_entries_have_the_umasks_permissions(tmp_path):
    cache = tmp_path / "cache"
    cached, library, _ = probe(SOURCE, cache, umask=0o022)
    assert oct(os.stat(library).st_mode & 0o777) == oct(0o755)
    assert oct(os.stat(library + ".sha256").st_mode & 0o777) == oct(0o644)
    sources = [os.path.join(d, f) for d, _, fs in os.walk(cache / "sources") for f in fs]
    assert sources and all(os.stat(s).st_mode & 0o777 == 0o644 for s in sources)
    # A group-shared cache: the umask says so.
    _, library, _ = probe(SOURCE.replace("a + b", "b + a"), tmp_path / "shared", umask=0o002)
    assert oct(os.stat(library).st_mode & 0o777) == oct(0o775)


def test_the_c_compiler_is_part_of_the_key(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(SOURCE)
    _, with_gcc, _ = probe(src, tmp_path / "cache", env={"CC": "gcc"})
    cached, with_clang, _ = probe(src, tmp_path / "cache", env={"CC": "clang-22"})
    assert not cached and with_clang != with_gcc
    assert probe(src, tmp_path / "cache", env={"CC": "gcc"})[1] == with_gcc


def test_exports_named_like_module_attributes():
    src = textwrap.dedent('''\
        from postyp import Int64

        def path(a: Int64) -> Int64:
            return a + 1

        def library(a: Int64) -> Int64:
            return a + 2

        def other(a: Int64) -> Int64:
            return a + 3
    ''')
    with pytest.warns(UserWarning, match=r"library, path are also postc.Module attributes: reach them as m\['library'\]"):
        m = postc.compile(src)
    assert isinstance(m.path, str) and m.path.endswith(".py")
    assert m["path"](1) == 2 and m["library"](1) == 3 and m.other(1) == 4 and m["other"](1) == 4
    assert {"path", "library", "other"} <= set(dir(m))
    assert "path" in m and "nothing" not in m
    with pytest.raises(KeyError, match="exports no 'nothing'"):
        m["nothing"]


def test_every_option_is_part_of_the_key():
    src = SOURCE.replace("a + b", "a - b")
    libraries = {postc.compile(src).library, postc.compile(src, fastmath=True).library,
                 postc.compile(src, boundscheck=False).library, postc.compile(src, opt=1).library}
    assert len(libraries) == 4
