"""`python -m postc`: the postc command line, the same commands as
`postc-driver` (`check`, `compile`, `lower`, `run`, `opt`, `fmt`, `passes`,
`runtime`, `--help`). The driver's own argument parsing and commands run
in-process in the extension module; they write to the process's standard
output and error, and the exit status is the driver's."""
import os
import signal
import sys

# The static libraries `compile --emit pyext` links, shipped in the package's
# wheel (python/pep517/postc_build.py); the variables name others.
_SHIPPED = {
    "POSTC_PYABI_LIB": "libpostc_pyabi.a",
    "POSTC_PYABI_ABI3_LIB": "libpostc_pyabi_abi3.a",
    "POSTC_LIBFFI": "libffi_pic.a",
}


def main():
    from postc import _native

    if _native is None:
        sys.exit("postc: the compiled extension module is missing (install the package: pip install ./python)")
    # Ctrl-C ends the command as it ends `postc-driver`: the compiled
    # commands do not return to the interpreter to see it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    for variable, name in _SHIPPED.items():
        shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
        if variable not in os.environ and os.path.isfile(shipped):
            os.environ[variable] = shipped
    sys.stdout.flush()
    sys.stderr.flush()
    return _native.run_cli(["python -m postc", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
