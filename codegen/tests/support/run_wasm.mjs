// Runs cases against a module through the loader: `node run_wasm.mjs JOB.json`,
// where the job names the module and lists the calls. Prints one JSON line
// per case: {"ret": ..., "bufs": [...]}, {"tret": [...], "bufs": [...]} for a
// tuple result (per element a list: a scalar's value, or an array's
// "shape=D0,D1" then its values), {"panic": message} or {"error": text}.
// Floats travel as the hex of their bits (Float16 as a Float64's), a
// complex as its two parts' joined by a comma, integers as decimal
// strings, Str and Bytes as the hex of their bytes. Every line also holds
// "printed": the hex of the UTF-8 text the case printed.
import { readFileSync } from "node:fs";
import { instantiate, PostcPanic, f16Bits, f16Value } from "../../src/wasm/postc.mjs";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
// What the module prints (`print`), per case.
let printed = "";
const m = await instantiate(readFileSync(job.module), { postc_write: (text) => { printed += text; } });
const TYPED = {
  Bool: Uint8Array, Int8: Int8Array, Int16: Int16Array, Int32: Int32Array, Int64: BigInt64Array,
  UInt8: Uint8Array, UInt16: Uint16Array, UInt32: Uint32Array, UInt64: BigUint64Array,
  Float16: Uint16Array, Float32: Float32Array, Float64: Float64Array, Complex64: Float32Array,
  Complex128: Float64Array,
};
const PART = { Complex64: "Float32", Complex128: "Float64" };
const utf8 = new TextDecoder("utf-8");
const utf8encode = new TextEncoder();
const fromHex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const dv = new DataView(new ArrayBuffer(8));

function decode(t, s) {
  if (t in PART) return s.split(",").map((p) => decode(PART[t], p));
  if (t === "Str") return utf8.decode(fromHex(s));
  if (t === "Bytes") return fromHex(s);
  if (t === "Float16") return decode("Float64", s);
  if (t === "Float64") { dv.setBigUint64(0, BigInt(s)); return dv.getFloat64(0); }
  if (t === "Float32") { dv.setUint32(0, Number(BigInt(s))); return dv.getFloat32(0); }
  if (t === "Bool") return s === "true";
  if (t === "Int64" || t === "UInt64") return BigInt(s);
  return Number(s);
}

function encode(t, x) {
  if (t in PART) return Array.isArray(x) ? x.map((p) => encode(PART[t], p)).join(",") : `${encode(PART[t], x.re)},${encode(PART[t], x.im)}`;
  if (t === "Str") return toHex(utf8encode.encode(x));
  if (t === "Bytes") return toHex(x);
  if (t === "Float16") return encode("Float64", x);
  if (t === "Float64") { dv.setFloat64(0, x); return "0x" + dv.getBigUint64(0).toString(16); }
  if (t === "Float32") { dv.setFloat32(0, x); return "0x" + dv.getUint32(0).toString(16); }
  if (t === "Bool") return String(x === true || x === 1);
  return String(x);
}

/** The elements of a typed array of dtype `t`: pairs for a complex,
 * values for Float16 bits. */
function elements(t, d) {
  if (t in PART) return Array.from({ length: d.length / 2 }, (_, i) => [d[2 * i], d[2 * i + 1]]);
  if (t === "Float16") return Array.from(d, f16Value);
  return Array.from(d);
}

for (const c of job.cases) {
  const arrays = [];
  const args = c.args.map((a) => {
    if (!a.t.endsWith("[]")) return decode(a.t, a.v);
    const t = a.t.slice(0, -2);
    let values = a.buf.map((s) => decode(t, s));
    if (t in PART) values = values.flat();
    if (t === "Float16") values = values.map(f16Bits);
    const data = TYPED[t].from(values);
    arrays.push([t, data]);
    return { data, shape: a.shape, strides: a.strides, offset: a.offset };
  });
  let line;
  printed = "";
  try {
    if (c.ufunc && m.signature(c.func).ufunc.nin < args.length) {
      // Outputs given: written in place.
      m.ufunc(c.func, ...args);
      line = { ret: null, bufs: arrays.map(([t, d]) => elements(t, d).map((x) => encode(t, x))) };
    } else if (!c.ufunc && Array.isArray(m.signature(c.func).ret)) {
      const types = m.signature(c.func).ret;
      const r = m.call(c.func, ...args);
      const tret = r.map((x, k) => {
        if (!types[k].endsWith("[]")) return [encode(types[k], x)];
        const t = types[k].slice(0, -2);
        const values = elements(t, x.data).map((y) => encode(t, t === "Bool" ? y !== 0 : y));
        return [`shape=${x.shape.join(",")}`, ...values];
      });
      line = { tret, bufs: arrays.map(([t, d]) => elements(t, d).map((x) => encode(t, x))) };
    } else if (c.ufunc || m.signature(c.func).ret.endsWith("[]")) {
      const t = m.signature(c.func).ret.replace("[]", "");
      const r = c.ufunc ? m.ufunc(c.func, ...args) : m.call(c.func, ...args);
      line = { ashape: r.shape.map(String), aret: elements(t, r.data).map((x) => encode(t, t === "Bool" ? x !== 0 : x)) };
    } else {
      const r = m.call(c.func, ...args);
      const ret = r === undefined ? null : encode(m.signature(c.func).ret, r);
      line = { ret, bufs: arrays.map(([t, d]) => elements(t, d).map((x) => encode(t, x))) };
    }
  } catch (e) {
    line = e instanceof PostcPanic ? { panic: e.message } : { error: String(e) };
  }
  line.printed = toHex(utf8encode.encode(printed));
  console.log(JSON.stringify(line));
}
