"""`python -m postc`: the postc command line, the same commands as
`postc-driver` (`check`, `compile`, `lower`, `run`, `opt`, `fmt`, `passes`,
`runtime`, `--help`). The driver's own argument parsing and commands run
in-process in the extension module; they write to the process's standard
output and error, and the exit status is the driver's."""
import signal
import sys


def main():
    from postc import _native

    if _native is None:
        sys.exit("postc: the compiled extension module is missing (install the package: pip install ./python)")
    # Ctrl-C ends the command as it ends `postc-driver`: the compiled
    # commands do not return to the interpreter to see it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    return _native.run_cli(["python -m postc", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
