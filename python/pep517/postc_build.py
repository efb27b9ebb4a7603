"""The package's PEP 517 build backend: maturin's, after it has put into
the package directory the static libraries that `python -m postc compile
--emit pyext` links into an extension module (docs/aot.md), so that the
wheel ships them and an installed package needs no cargo build around:

- `postc/libpostc_pyabi.a`, crate `postc-pyabi` built by cargo with the
  profile maturin builds the package with and for the interpreter running
  the build (the one maturin builds `_native` for), its debug information
  stripped (the link strips it anyway; it is three fifths of a release
  build's file);
- `postc/libpostc_pyabi_abi3.a`, the same crate built for CPython's stable
  ABI of 3.11 and later (its feature `abi3`, for `--emit pyext --abi3`),
  when the interpreter is 3.11 or later;
- `postc/libffi_pic.a`, this system's position-independent libffi (Debian's
  libffi-dev has it), when there is one: an extension linked with it needs
  no `libffi.so` where it is imported.

Git ignores the three files; `[tool.maturin] include` puts them in the wheel.

    python pep517/postc_build.py PROFILE   # the same, before `maturin build`

is how scripts/build-wheel stages them, for `maturin build --profile PROFILE`."""
import json
import os
import shutil
import subprocess
import sys
import sysconfig

import maturin
from maturin import (build_sdist, get_requires_for_build_editable, get_requires_for_build_sdist,  # noqa: F401
                     get_requires_for_build_wheel, prepare_metadata_for_build_editable,
                     prepare_metadata_for_build_wheel)

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(PROJECT, "postc")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    stage(profile(maturin.get_maturin_pep517_args(config_settings)))
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    stage(profile(maturin.get_maturin_pep517_args(config_settings)))
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def profile(args):
    """The cargo profile of maturin's arguments: `--profile P`, `--release`,
    else pyproject.toml's."""
    for i, arg in enumerate(args):
        if arg == "--profile" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--profile="):
            return arg.split("=", 1)[1]
        if arg in ("--release", "-r"):
            return "release"
    return maturin.get_config().get("profile", "release")


def static_library(package, profile, features=()):
    """Builds crate `package`'s library with cargo for this interpreter;
    the path of its static library."""
    command = ["cargo", "build", "--lib", "-p", package, "--profile", profile, "--message-format=json-render-diagnostics"]
    if features:
        command += ["--features", ",".join(features)]
    env = dict(os.environ, PYO3_PYTHON=sys.executable)
    done = subprocess.run(command, cwd=PROJECT, env=env, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"postc: `{' '.join(command)}` failed ({done.returncode})")
    for line in done.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message["target"]["name"] == package.replace("-", "_"):
            for path in message["filenames"]:
                if path.endswith(".a"):
                    return path
    sys.exit(f"postc: `{' '.join(command)}` made no static library")


def copy_stripped(source, target):
    """`source` copied to `target` without debug information (`strip`, where
    binutils are installed; else as it is)."""
    strip = shutil.which("strip")
    if strip is None or subprocess.run([strip, "--strip-debug", source, "-o", target]).returncode != 0:
        shutil.copyfile(source, target)


def system_libffi():
    """The position-independent libffi archive of this system's C library,
    where the driver itself looks for it (`postc_codegen::link`)."""
    multiarch = sysconfig.get_config_var("MULTIARCH")
    directories = [os.path.join("/usr/lib", multiarch)] if multiarch else []
    for directory in directories + ["/usr/lib64", "/usr/lib", "/usr/local/lib"]:
        path = os.path.join(directory, "libffi_pic.a")
        if os.path.isfile(path):
            return path
    return None


def stage(profile):
    # One build after the other: both are cargo's `libpostc_pyabi.a`.
    copy_stripped(static_library("postc-pyabi", profile), os.path.join(PACKAGE, "libpostc_pyabi.a"))
    abi3 = os.path.join(PACKAGE, "libpostc_pyabi_abi3.a")
    if sys.version_info >= (3, 11):
        copy_stripped(static_library("postc-pyabi", profile, ["abi3"]), abi3)
    elif os.path.exists(abi3):
        os.remove(abi3)
    libffi = system_libffi()
    shipped = os.path.join(PACKAGE, "libffi_pic.a")
    if libffi:
        shutil.copyfile(libffi, shipped)
    elif os.path.exists(shipped):
        os.remove(shipped)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python pep517/postc_build.py PROFILE")
    stage(sys.argv[1])
