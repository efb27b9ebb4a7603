// benches/c/harness.c for the wasm backend: the kernels of
// benches/kernels.pir, compiled to WebAssembly, on the same data, timed
// under V8 (Node) through the loader; prints `KERNEL wasm SECONDS` (best
// of --reps) and the dot and sum2d results for comparison, then the
// scalar loop `longest` of tests/programs/collatz.pir when a second module
// is given.
//
//   node benches/js/harness.mjs [--reps N] KERNELS.wasm [COLLATZ.wasm LIMIT]
import { readFileSync } from "node:fs";
import { instantiate } from "../../codegen/src/wasm/postc.mjs";

let argv = process.argv.slice(2);
let reps = 5;
if (argv[0] === "--reps") {
  reps = Number(argv[1]);
  argv = argv.slice(2);
}
const SAXPY_N = 1 << 24, DOT_N = 1 << 24, MM_N = 384, S2_ROWS = 2048, S2_COLS = 4096;
const m = await instantiate(readFileSync(argv[0]));
const x32 = new Float32Array(SAXPY_N), y32 = new Float32Array(SAXPY_N);
const xd = new Float64Array(DOT_N), yd = new Float64Array(DOT_N);
const ma = new Float64Array(MM_N * MM_N), mb = new Float64Array(MM_N * MM_N), mc = new Float64Array(MM_N * MM_N);
const s2 = new Float64Array(S2_ROWS * S2_COLS);
for (let i = 0; i < SAXPY_N; i++) x32[i] = Math.fround((i % 1000) * 0.001);
for (let i = 0; i < DOT_N; i++) (xd[i] = (i % 977) * 0.5), (yd[i] = 1.0 / (1 + (i % 13)));
for (let i = 0; i < MM_N * MM_N; i++) (ma[i] = (i % 17) * 0.25), (mb[i] = (i % 11) - 5.0);
for (let i = 0; i < S2_ROWS * S2_COLS; i++) s2[i] = (i % 101) * 0.125;

const e = m.exports;
const [tx32] = m.tensor("Float32", x32);
const [ty32] = m.tensor("Float32", y32);
const [txd] = m.tensor("Float64", xd);
const [tyd] = m.tensor("Float64", yd);
const [ta] = m.tensor("Float64", { data: ma, shape: [MM_N, MM_N] });
const [tb] = m.tensor("Float64", { data: mb, shape: [MM_N, MM_N] });
const [tc] = m.tensor("Float64", { data: mc, shape: [MM_N, MM_N] });
// s2[1::2, ::3]: strides (2*4096, 3), offset one row.
const [ts2] = m.tensor("Float64", {
  data: s2, shape: [S2_ROWS / 2, Math.floor((S2_COLS + 2) / 3)], strides: [2 * S2_COLS, 3], offset: S2_COLS,
});

const time = (f) => {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t = process.hrtime.bigint();
    f();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e9);
  }
  return best;
};
console.log(`dot-result ${e.dot(txd, tyd)}`);
console.log(`sum2d-result ${e.sum2d(ts2)}`);
console.log(`saxpy wasm ${time(() => e.saxpy(1e-6, tx32, ty32)).toFixed(6)}`);
console.log(`dot wasm ${time(() => e.dot(txd, tyd)).toFixed(6)}`);
console.log(`matmul wasm ${time(() => e.matmul(ta, tb, tc)).toFixed(6)}`);
console.log(`sum2d wasm ${time(() => e.sum2d(ts2)).toFixed(6)}`);
if (argv[1]) {
  const c = await instantiate(readFileSync(argv[1]));
  const limit = BigInt(argv[2]);
  const out = new BigInt64Array(2);
  console.log(`longest wasm ${time(() => c.call("longest", limit, out)).toFixed(6)}`);
  console.log(`longest-result ${out[0]} ${out[1]}`);
}
