"""Runs every kernel of the corpus (python/tests/test_realworld.py's table)
under CPython and through postc, and prints the summary and the table of
outcomes as Markdown (the table of README.md).

    python tests/realworld/report.py            # needs the postc package installed

A kernel whose outcome differs from the one recorded is marked `CHANGED`."""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "python" / "tests"))

import test_realworld as rw  # noqa: E402

PROJECTS = {
    "quantecon_kernels": "QuantEcon/QuantEcon.py (MIT)",
    "numba_examples": "numba/numba-examples (BSD-2)",
    "umap_kernels": "lmcinnes/umap (BSD-3)",
    "pynndescent_kernels": "lmcinnes/pynndescent (BSD-2)",
    "pyod_kernels": "yzhao062/pyod (BSD-2)",
    "stumpy_kernels": "TDAmeritrade/stumpy (BSD-3)",
    "tslearn_kernels": "tslearn-team/tslearn (BSD-2)",
    "aeon_kernels": "aeon-toolkit/aeon (BSD-3)",
    "librosa_kernels": "librosa/librosa (ISC)",
    "pvlib_kernels": "pvlib/pvlib-python (BSD-3)",
    "pyts_kernels": "johannfaouzi/pyts (BSD-3)",
    "resampy_kernels": "bmcfee/resampy (ISC)",
    "hapsira_kernels": "pleiszenburg/hapsira (MIT)",
    "numbagg_kernels": "numbagg/numbagg (BSD-3)",
    "pandas_kernels": "pandas-dev/pandas (BSD-3)",
    "trackpy_kernels": "soft-matter/trackpy (BSD-3)",
    "numba_stats_kernels": "HDembinski/numba-stats (MIT)",
    "sgkit_kernels": "sgkit-dev/sgkit (Apache-2.0)",
    "cooltools_kernels": "open2c/cooltools (MIT)",
    "scanpy_kernels": "scverse/scanpy (BSD-3)",
    "datashader_kernels": "holoviz/datashader (BSD-3)",
    "mne_kernels": "mne-tools/mne-python (BSD-3)",
    "sktime_kernels": "sktime/sktime (BSD-3)",
    "arviz_kernels": "arviz-devs/arviz (Apache-2.0)",
}


def main():
    rows = []
    changed = 0
    for name in rw.EXPECTED:
        stem, func = name.split(".")
        try:
            outcome = rw.run(name)
        except AssertionError as e:
            outcome = ("disagrees", str(e).splitlines()[0])
        expected = rw.EXPECTED[name]
        known_wrong = expected != rw.PASS and expected[0] == "wrong"
        if outcome == rw.PASS:
            text, construct = "pass", ""
        elif outcome[0] == "error":
            text, construct = f"refused: {outcome[1]}", expected[2] if expected != rw.PASS else "?"
        elif known_wrong:
            text, construct = f"WRONG RESULT (compiler bug: {expected[1]})", expected[2]
        else:
            text, construct = f"DISAGREES: {outcome[1]}", "?"
        if known_wrong:
            same = outcome != rw.PASS and outcome[0] == "disagrees"
        else:
            same = (outcome == rw.PASS) == (expected == rw.PASS) and (
                expected == rw.PASS or (outcome[0] == "error" and expected[1] in outcome[1]))
        if not same:
            changed += 1
            text = "CHANGED " + text
        text = text.replace("|", "\\|")
        rows.append(f"| `{func}` | {PROJECTS[stem]} | {text} | {construct} |")
    print(rw.summary())
    print()
    print("| kernel | project | outcome | blocking construct |")
    print("|---|---|---|---|")
    print("\n".join(rows))
    if changed:
        print(f"\n{changed} kernel(s) changed outcome: update EXPECTED in python/tests/test_realworld.py")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
