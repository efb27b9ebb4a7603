"""A short run of the argument fuzzer (python/fuzz/arguments.py) with a
fixed seed: random NumPy views, DLPack capsules (NumPy's and handmade,
hostile ones among them) and scalars against the signatures of
python/fuzz/signatures.py. Every batch runs in a subprocess: a crash of
the interpreter, a case the package's rules accept that raised, one they
refuse that ran, or a result other than CPython's fails the run."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZER = os.path.join(os.path.dirname(HERE), "fuzz", "arguments.py")


def test_a_short_fuzz_run():
    out = subprocess.run([sys.executable, FUZZER, "--seconds", "4", "--seed", "1", "--batch", "400"],
                         capture_output=True, text=True, timeout=600)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "no crash, every case as the rules say" in text, text
    summary = re.search(r"^\d+ cases in \d+ batches, \d+ s: (.*)$", out.stdout, re.M)
    assert summary, text
    counts = {k: int(v) for k, v in re.findall(r"([\w/ ]+) (\d+)(?:, |$)", summary.group(1))}
    # The run made calls that ran and calls refused in each way.
    for outcome in ("ran", "TypeError", "ValueError", "OverflowError", "BufferError"):
        assert counts.get(outcome, 0) > 0, text


def test_the_fuzzer_replays_a_case():
    out = subprocess.run([sys.executable, FUZZER, "--replay", "1:3"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"^\w+\(.*\) called ", out.stdout, re.M), out.stdout
    assert re.search(r"^  (ran|raised)", out.stdout, re.M), out.stdout
