// The wall time of `main()` of each wasm module given, best of REPS runs
// taken in turn (module 1, 2, ..., 1, 2, ...), and what each returned
// (they must agree): two builds of one program side by side under V8.
//
//     node benches/js/main.mjs REPS A.wasm B.wasm ...
import { readFileSync } from "node:fs";
import { instantiate } from "../../codegen/src/wasm/postc.mjs";

const [reps, ...files] = process.argv.slice(2);
const modules = [];
for (const f of files) modules.push(await instantiate(readFileSync(f)));
const best = files.map(() => Infinity);
const results = files.map(() => null);
for (let r = 0; r < Number(reps); r++) {
  modules.forEach((m, i) => {
    const start = performance.now();
    results[i] = m.call("main");
    best[i] = Math.min(best[i], performance.now() - start);
  });
}
files.forEach((f, i) => console.log(`${f} ${best[i].toFixed(1)} ms -> ${results[i]}`));
if (new Set(results.map(String)).size !== 1) {
  console.error("the modules disagree");
  process.exit(1);
}
