"""The cost of a view per row: benches/views_rows.pir's two sums of a 2-D
array, through the `postc` package, on tall-narrow and short-wide arrays
(docs/performance.md, "Views"). Run with the package installed:

    python benches/views_rows.py
"""
import os
import timeit

import numpy as np

import postc

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    m = postc.compile(os.path.join(HERE, "views_rows.pir"))
    for shape in [(100_000, 4), (1_000, 400)]:
        a = np.random.default_rng(1).random(shape)
        assert m.sum_by_row_views(a) == m.sum_by_index(a)
        best = {}
        # Interleaved, so that the machine's load affects both alike.
        for _ in range(3):
            for name in ("sum_by_index", "sum_by_row_views"):
                f = getattr(m, name)
                t = min(timeit.repeat(lambda: f(a), number=20, repeat=5)) / 20
                best[name] = min(best.get(name, t), t)
        per_row = (best["sum_by_row_views"] - best["sum_by_index"]) / shape[0]
        print(
            f"{shape}: index {best['sum_by_index'] * 1e3:.3f} ms, row views {best['sum_by_row_views'] * 1e3:.3f} ms, "
            f"{per_row * 1e9:.0f} ns more per row"
        )


if __name__ == "__main__":
    main()
