// postc.mjs: the JavaScript loader of the modules that postc's wasm
// backend makes (docs/abi.md §14). An ES module for Node and browsers:
//
//   import { instantiate } from "./postc.mjs";
//   const m = await instantiate(bytes);        // bytes: ArrayBuffer, typed array or WebAssembly.Module
//   m.call("saxpy", 2.0, xs, ys);              // numbers, BigInts, typed arrays, {data, shape, strides, offset}
//   m.ufunc("axpy", 0.5, xs, ys)               // a ufunc through its NAME_dl, broadcast as NumPy does
//   m.exports.saxpy(...)                       // the raw exports, for callers that manage memory themselves
//
// The `env` imports are filled here: the libm functions the module uses
// from `Math` (fmod as JavaScript's `%`; erf, erfc, lgamma and tgamma,
// which `Math` lacks, from the small implementations below), and
// `postc_panic(fmt, fmtLen, args, nargs)`, which formats the panic's printf
// format with its arguments (see `panicText`) and throws a `PostcPanic`
// whose message is the text (`panic: ... at file:line:col`), and the
// `postc_rt_print_*` functions of `print` (see `floatText`). Arrays are copied into the module's
// arena as DLTensors before a call and back after it; the arena is reset
// after every call, whether it returns or throws.

export class PostcPanic extends Error {
  constructor(message) {
    super(message);
    this.name = "PostcPanic";
  }
}

const utf8 = new TextDecoder("utf-8");

function fdim(a, b) {
  return a > b ? a - b : a <= b ? 0 : NaN;
}

// Round half to even, as C's rint under the default rounding mode.
function rint(x) {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  if (Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0) return r - 1;
  return Object.is(r, 0) && x < 0 ? -0 : r;
}

// erf, erfc, lgamma and tgamma, which `Math` lacks, in doubles: a few ulps
// from the correctly rounded result for most arguments (docs/abi.md §14
// gives the bounds measured), and fma, which needs the exact product.

const SQRT_PI = 1.7724538509055160273;
const LN_SQRT_2PI = 0.91893853320467274178;
const SQRT_2PI = 2.5066282746310005024;

// x*x as hi + lo exactly (Dekker's split), so exp(-x*x) does not round x*x.
function expNegSquare(x) {
  const c = 134217729 * x; // 2^27 + 1
  const hi = c - (c - x), lo = x - hi;
  const sqHi = hi * hi, sqLo = 2 * hi * lo + lo * lo;
  return Math.exp(-sqHi) * Math.exp(-sqLo);
}

// erf by its power series with positive terms:
// erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n (2x^2)^n x / (1*3*...*(2n+1)).
function erfSeries(x) {
  const x2 = 2 * x * x;
  let term = x, sum = x;
  for (let n = 1; n < 200; n++) {
    term *= x2 / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return (2 / SQRT_PI) * expNegSquare(x) * sum;
}

// erfc for x >= 0.5 by its continued fraction (modified Lentz):
// erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
function erfcFraction(x) {
  const tiny = 1e-300;
  let f = x, c = x, d = 0;
  for (let n = 1; n < 5000; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-17) break;
  }
  return expNegSquare(x) / (SQRT_PI * f);
}

function erf(x) {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a < 1e-300) return x;
  const r = a < 2 ? erfSeries(a) : a < 6 ? 1 - erfcFraction(a) : 1;
  return x < 0 ? -r : r;
}

function erfc(x) {
  if (Number.isNaN(x)) return x;
  if (x < 1) return x < -6 ? 2 : 1 + erf(-x);
  return x > 27.3 ? 0 : erfcFraction(x);
}

// Lanczos approximation, g = 607/128, 15 terms (Godfrey's coefficients),
// good to about 1e-15 relative for x >= 0.5.
const LANCZOS_G = 607 / 128;
const LANCZOS = [
  0.99999999999999709182, 57.156235665862923517, -59.597960355475491248, 14.136097974741747174,
  -0.49191381609762019978, 0.33994649984811888699e-4, 0.46523628927048575665e-4, -0.98374475304879564677e-4,
  0.15808870322491248884e-3, -0.21026444172410488319e-3, 0.21743961811521264320e-3, -0.16431810653676389022e-3,
  0.84418223983852743293e-4, -0.26190838401581408670e-4, 0.36899182659531622704e-5,
];

function lanczosSum(x) {
  // sum c0 + c_k / (x - 1 + k)
  let s = LANCZOS[0];
  for (let k = 1; k < LANCZOS.length; k++) s += LANCZOS[k] / (x - 1 + k);
  return s;
}

// sin(pi x), exact at integers and reduced before multiplying by pi.
function sinPi(x) {
  const n = Math.round(2 * x);
  const r = x - n / 2; // |r| <= 1/4
  const t = Math.PI * r;
  const s = [Math.sin(t), Math.cos(t), -Math.sin(t), -Math.cos(t)][((n % 4) + 4) % 4];
  return s === 0 ? 0 : s;
}

// lgamma(1 + z) = -gamma z + sum_{k>=2} (-1)^k zeta(k) z^k / k, |z| <= 1/2:
// near lgamma's zeros at 1 and 2, where the Lanczos sum loses its
// relative accuracy. zeta(k) by Euler-Maclaurin summation from n = 20.
const EULER_GAMMA = 0.57721566490153286061;
const LGAMMA1P = (() => {
  const bernoulli = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730];
  const coefficients = [];
  for (let k = 2; k <= 60; k++) {
    let zeta = 0;
    for (let n = 19; n >= 1; n--) zeta += n ** -k;
    let tail = 20 ** (1 - k) / (k - 1) + 20 ** -k / 2, rising = k, factorial = 2;
    for (let j = 1; j <= bernoulli.length; j++) {
      tail += (bernoulli[j - 1] / factorial) * rising * 20 ** (-k - 2 * j + 1);
      rising *= (k + 2 * j - 1) * (k + 2 * j);
      factorial *= (2 * j + 1) * (2 * j + 2);
    }
    coefficients.push(((k % 2 === 0 ? 1 : -1) * (zeta + tail)) / k);
  }
  return coefficients;
})();

function lgamma1p(z) {
  let s = 0;
  for (let k = LGAMMA1P.length - 1; k >= 0; k--) s = s * z + LGAMMA1P[k];
  return z * (s * z - EULER_GAMMA);
}

function lgamma(x) {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x === 1 || x === 2) return 0;
  if (Number.isInteger(x) && x <= 23) return Math.log(tgamma(x));
  if (x >= 0.5 && x < 1.5) return lgamma1p(x - 1);
  if (x >= 1.5 && x < 2.5) return Math.log1p(x - 2) + lgamma1p(x - 2);
  if (x < 0.5) {
    // Reflection: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x).
    return Math.log(Math.PI / Math.abs(sinPi(x))) - lgamma(1 - x);
  }
  if (x >= 10) {
    // Stirling's series.
    const r = 1 / x, r2 = r * r;
    const series = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 * (1 / 1188)))));
    return (x - 0.5) * (Math.log(x) - 1) + (LN_SQRT_2PI - 0.5) + series;
  }
  const t = x - 0.5 + LANCZOS_G;
  return LN_SQRT_2PI + (x - 0.5) * Math.log(t) - t + Math.log(lanczosSum(x));
}

function tgamma(x) {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return x;
  if (x === 0) return 1 / x;
  if (x < 0 && Number.isInteger(x)) return NaN;
  if (x === -Infinity) return NaN;
  if (Number.isInteger(x) && x <= 23) {
    let f = 1;
    for (let k = 2; k < x; k++) f *= k;
    return f;
  }
  if (x < 0.5) {
    // Reflection: gamma(x) = pi / (sin(pi x) gamma(1 - x)).
    return Math.PI / (sinPi(x) * tgamma(1 - x));
  }
  if (x > 171.7) return Infinity;
  // t = x - 1/2 + g as hi + lo, so the large power does not round t.
  const gm = LANCZOS_G - 0.5;
  const hi = x + gm, lo = gm - (hi - x);
  const y = x - 0.5;
  const half = Math.pow(hi, y / 2) * Math.exp(y / 2 * Math.log1p(lo / hi));
  return SQRT_2PI * lanczosSum(x) * (half * Math.exp(-hi) * Math.exp(-lo)) * half;
}

// x as a signed integer significand and a power of two (x finite).
function decompose(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  if (biased !== 0) m |= 1n << 52n;
  const e = (biased === 0 ? 1 : biased) - 1075;
  return [bits >> 63n ? -m : m, e];
}

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

// a*b + c rounded once (C's fma), exactly with BigInts.
function fma(a, b, c) {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  if (c === 0) return a * b;
  const [ma, ea] = decompose(a), [mb, eb] = decompose(b), [mc, ec] = decompose(c);
  const mp = ma * mb, ep = ea + eb;
  const e = Math.min(ep, ec);
  const s = (mp << BigInt(ep - e)) + (mc << BigInt(ec - e));
  if (s === 0n) return 0;
  const neg = s < 0n, mag = neg ? -s : s;
  const shift = Math.max(bitLength(mag) - 53, -1074 - e);
  let q = mag;
  if (shift > 0) {
    const big = BigInt(shift);
    q = mag >> big;
    const rest = mag - (q << big), half = 1n << (big - 1n);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  }
  const k = e + Math.max(shift, 0);
  const r = k > 1023 ? Number(q) * 2 ** 1023 * 2 ** (k - 1023) : Number(q) * 2 ** k;
  return neg ? -r : r;
}

/** libm functions by their C names, computed with `Math` in doubles (and the
 * functions above where `Math` has none). */
export const LIBM = {
  sin: Math.sin, cos: Math.cos, tan: Math.tan, asin: Math.asin, acos: Math.acos, atan: Math.atan,
  sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, asinh: Math.asinh, acosh: Math.acosh, atanh: Math.atanh,
  exp: Math.exp, exp2: (x) => 2 ** x, expm1: Math.expm1, log: Math.log, log2: Math.log2, log10: Math.log10,
  log1p: Math.log1p, cbrt: Math.cbrt, atan2: Math.atan2, pow: (x, y) => (x === 1 || y === 0 ? 1 : x ** y),
  fmod: (x, y) => x % y, hypot: Math.hypot, fmin: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
  fmax: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)), fdim,
  fma, round: (x) => Math.sign(x) * Math.round(Math.abs(x)), rint, nearbyint: rint,
  sqrt: Math.sqrt, fabs: Math.abs, floor: Math.floor, ceil: Math.ceil, trunc: Math.trunc,
  copysign: (a, b) => (Math.sign(b) < 0 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)),
  erf, erfc, lgamma, tgamma,
};

// DLPack type codes and the typed array of each dtype: Float16 elements
// are their bits in a Uint16Array, a complex element two adjacent parts
// (real first) in a Float32Array or Float64Array.
const DTYPES = {
  Bool: [6, 8, Uint8Array], Int8: [0, 8, Int8Array], Int16: [0, 16, Int16Array], Int32: [0, 32, Int32Array],
  Int64: [0, 64, BigInt64Array], UInt8: [1, 8, Uint8Array], UInt16: [1, 16, Uint16Array],
  UInt32: [1, 32, Uint32Array], UInt64: [1, 64, BigUint64Array], Float16: [2, 16, Uint16Array],
  Float32: [2, 32, Float32Array], Float64: [2, 64, Float64Array], Complex64: [5, 64, Float32Array],
  Complex128: [5, 128, Float64Array],
};

const utf8encode = new TextEncoder();

/** The value of Float16 bits `h`, exactly. */
export function f16Value(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  if (e === 0) return sign * m * 2 ** -24;
  return sign * (1024 + m) * 2 ** (e - 25);
}

function roundEven(q) {
  const f = Math.floor(q), d = q - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/** The Float16 bits nearest number `x` (ties to even; overflow is ±inf). */
export function f16Bits(x) {
  x = Number(x);
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return sign | (((e + 15) << 10) + (roundEven(a * 2 ** (10 - e)) - 1024));
}

const isComplex = (dtype) => dtype === "Complex64" || dtype === "Complex128";
const isText = (dtype) => dtype === "Str" || dtype === "Bytes";

/** The parts of a complex argument: `{re, im}`, `[re, im]` or a real number. */
function complexParts(z) {
  if (typeof z === "number" || typeof z === "bigint") return [Number(z), 0];
  if (Array.isArray(z)) return [Number(z[0]), Number(z[1])];
  return [Number(z.re), Number(z.im ?? 0)];
}

/** The wasm parameters of a scalar argument of its dtype (one, or two for
 * a complex; text goes through `text` first). */
function toWasm(dtype, x) {
  switch (dtype) {
    case "Bool": return [x ? 1 : 0];
    case "Int64": case "UInt64": return [BigInt.asIntN(64, BigInt(x))];
    case "Float32": case "Float64": return [Number(x)];
    case "Float16": return [f16Bits(x)];
    case "Complex64": case "Complex128": return complexParts(x);
    default: return [Number(BigInt.asIntN(32, BigInt(x)))];
  }
}

/** A wasm result (an array of two for complex and text) as the
 * JavaScript value of its dtype. */
function fromWasm(dtype, r, memory) {
  switch (dtype) {
    case "Bool": return r !== 0;
    case "Int64": return BigInt.asIntN(64, r);
    case "UInt64": return BigInt.asUintN(64, r);
    case "UInt32": return r >>> 0;
    case "Float16": return f16Value(r);
    case "Complex64": case "Complex128": return { re: r[0], im: r[1] };
    case "Str": return utf8.decode(new Uint8Array(memory.buffer, r[0], r[1]));
    case "Bytes": return new Uint8Array(memory.buffer, r[0], r[1]).slice();
    default: return r;
  }
}

/** Instantiates a module; `imports` adds or replaces `env` functions. */

// The bytes of each element's slot of a tuple result (the widest scalar, a
// Complex128), as the module's own calls use.
const TUPLE_SLOT = 16;

/** The scalar of `dtype` at address `at` of `memory`, laid out as an array
 * element (Bool a byte), as the JavaScript value of its dtype. */
function scalarAt(dtype, at, memory) {
  const m = new DataView(memory.buffer);
  switch (dtype) {
    case "Bool": return m.getUint8(at) !== 0;
    case "Int8": return m.getInt8(at);
    case "UInt8": return m.getUint8(at);
    case "Int16": return m.getInt16(at, true);
    case "UInt16": return m.getUint16(at, true);
    case "Int32": return m.getInt32(at, true);
    case "UInt32": return m.getUint32(at, true);
    case "Int64": return m.getBigInt64(at, true);
    case "UInt64": return m.getBigUint64(at, true);
    case "Float16": return f16Value(m.getUint16(at, true));
    case "Float32": return m.getFloat32(at, true);
    case "Float64": return m.getFloat64(at, true);
    case "Complex64": return { re: m.getFloat32(at, true), im: m.getFloat32(at + 4, true) };
    case "Complex128": return { re: m.getFloat64(at, true), im: m.getFloat64(at + 8, true) };
    default: return fromWasm(dtype, [m.getUint32(at, true), m.getUint32(at + 4, true)], memory);
  }
}

/**
 * The export of a POST name: a name starting with `_` is exported as
 * `postc_export_NAME` (C reserves such names; the symbol is the same in
 * every backend).
 */
function exportSymbol(name) {
  return name.startsWith("_") ? `postc_export_${name}` : name;
}

/**
 * The text of a panic: the printf format of `fmtLen` UTF-8 bytes at `fmt`
 * in `memory`, as the native backends pass it to the runtime's
 * `postc_rt_panic`, with its arguments, the `nargs` Int64s at `args`. The
 * format uses only `%lld` (one argument, in decimal), `%.*s` (two: a byte
 * length, then the address of that many UTF-8 bytes) and `%%`; anything
 * else would be the compiler's bug, and is reported as one.
 */
function panicText(memory, fmt, fmtLen, args, nargs) {
  const view = new DataView(memory.buffer);
  const text = (at, len) => utf8.decode(new Uint8Array(memory.buffer, at, len));
  let next = 0;
  const arg = () => {
    if (next >= nargs) throw new Error("postc: a panic format takes more arguments than the module passed");
    return view.getBigInt64(args + 8 * next++, true);
  };
  const format = text(fmt, fmtLen);
  // `replace` visits the conversions left to right, as printf takes the arguments.
  return format.replace(/%(%|lld|\.\*s)?/g, (_, conversion) => {
    if (conversion === "%") return "%";
    if (conversion === "lld") return arg().toString();
    if (conversion === ".*s") {
      const len = Number(arg());
      return text(Number(arg()), len);
    }
    throw new Error(`postc: a panic format with a conversion the loader does not know: ${format}`);
  });
}

/**
 * The text `print` writes for a float, as the native runtimes write it:
 * Python's repr of a float (`single` false) or NumPy's str of a float32 —
 * the fewest digits that read back as the same value, positional when the
 * decimal exponent is from -4 to 15 (a double) or when 1e-4 <= |x| < 1e6
 * (a float32), else scientific with an exponent of two digits at least.
 */
export function floatText(x, single) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x < 0 ? "-inf" : "inf";
  let sci = x.toExponential();
  if (single) {
    for (let p = 0; p < 9; p++) {
      sci = x.toExponential(p);
      if (Math.fround(Number(sci)) === x) break;
    }
  }
  const [mantissa, e] = sci.split("e");
  const exp = Number(e);
  const negative = mantissa.startsWith("-") || Object.is(x, -0);
  const digits = mantissa.replace("-", "").replace(".", "").replace(/(?<=.)0+$/, "");
  const sign = negative ? "-" : "";
  const magnitude = Math.abs(x);
  const positional = single ? magnitude >= 1e-4 && magnitude < 1e6 : exp >= -4 && exp < 16;
  if (x === 0) return `${sign}0.0`;
  if (positional) {
    const point = exp + 1;
    if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${head}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

// Writes a printed line: to standard output under Node, else to the console.
function defaultWrite(text) {
  if (globalThis.process?.stdout?.write) globalThis.process.stdout.write(text);
  else console.log(text.endsWith("\n") ? text.slice(0, -1) : text);
}

export async function instantiate(source, imports = {}) {
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  let memory = null;
  // `print`: each argument's text appended to the line, which
  // `postc_rt_print_end` writes at once (to `imports.postc_write(text)`
  // when given).
  let line = "";
  const write = imports.postc_write ?? defaultWrite;
  const env = {
    postc_panic(fmt, fmtLen, args, nargs) {
      throw new PostcPanic(panicText(memory, fmt, fmtLen, args, nargs));
    },
    postc_rt_print_str(at, len) {
      line += utf8.decode(new Uint8Array(memory.buffer, at, len));
    },
    postc_rt_print_bool(x) {
      line += x ? "True" : "False";
    },
    postc_rt_print_int(x) {
      line += BigInt.asIntN(64, x).toString();
    },
    postc_rt_print_uint(x) {
      line += BigInt.asUintN(64, x).toString();
    },
    postc_rt_print_f64(x) {
      line += floatText(x, false);
    },
    postc_rt_print_f32(x) {
      line += floatText(x, true);
    },
    postc_rt_print_end() {
      const text = line;
      line = "";
      write(text);
    },
  };
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === "env" && imp.kind === "function" && !(imp.name in env)) {
      if (imp.name in imports) env[imp.name] = imports[imp.name];
      else if (imp.name in LIBM) env[imp.name] = LIBM[imp.name];
      else env[imp.name] = () => { throw new Error(`postc: the module imports env.${imp.name}, which the loader does not provide`); };
    }
  }
  const instance = await WebAssembly.instantiate(module, { env });
  memory = instance.exports.memory;
  const sections = WebAssembly.Module.customSections(module, "postc.signatures");
  const signatures = sections.length ? JSON.parse(utf8.decode(sections[0])) : {};
  return new PostcModule(instance, signatures);
}

export class PostcModule {
  constructor(instance, signatures) {
    this.instance = instance;
    this.exports = instance.exports;
    this.signatures = signatures;
  }

  /**
   * Copies an array into the arena as a DLTensor (for callers of the raw
   * exports; `call` does it for its arguments): its address and a function
   * that copies the elements back. It lives until the arena is released.
   */
  tensor(dtype, arg) {
    const [code, bits, Typed] = DTYPES[dtype] ?? [];
    if (!Typed) throw new TypeError(`postc: arrays of ${dtype} cannot be passed to the wasm backend's code`);
    const view = ArrayBuffer.isView(arg) ? { data: arg } : arg;
    const data = view.data;
    if (!(data instanceof Typed)) throw new TypeError(`postc: expected a ${Typed.name} for a ${dtype}[] argument`);
    const perElement = isComplex(dtype) ? 2 : 1;
    const shape = view.shape ?? [data.length / perElement];
    const strides = view.strides ?? null;
    const offset = view.offset ?? 0;
    const e = this.exports;
    const size = bits / 8;
    const ndim = shape.length;
    const at = e.postc_arena_alloc(40 + 16 * ndim + data.byteLength);
    const buf = at + 40 + 16 * ndim;
    const mem = () => new DataView(e.memory.buffer);
    new Uint8Array(e.memory.buffer, buf, data.byteLength).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    const d = mem();
    d.setUint32(at, buf, true);
    d.setInt32(at + 4, 1, true);
    d.setInt32(at + 8, 0, true);
    d.setInt32(at + 12, ndim, true);
    d.setUint8(at + 16, code);
    d.setUint8(at + 17, bits);
    d.setUint16(at + 18, 1, true);
    d.setUint32(at + 20, at + 40, true);
    d.setUint32(at + 24, strides ? at + 40 + 8 * ndim : 0, true);
    d.setBigUint64(at + 32, BigInt(offset * size), true);
    for (let i = 0; i < ndim; i++) {
      d.setBigInt64(at + 40 + 8 * i, BigInt(shape[i]), true);
      if (strides) d.setBigInt64(at + 40 + 8 * (ndim + i), BigInt(strides[i]), true);
    }
    const back = () => new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(new Uint8Array(e.memory.buffer, buf, data.byteLength));
    return [at, back];
  }

  /**
   * A copy of the array whose DLTensor is at `at` in memory: `{data,
   * shape}`, the elements in C order in a fresh typed array of `dtype`.
   */
  array(dtype, at) {
    const [, bits, Typed] = DTYPES[dtype];
    const d = new DataView(this.exports.memory.buffer);
    const size = bits / 8, per = isComplex(dtype) ? 2 : 1;
    const ndim = d.getInt32(at + 12, true);
    const shapeAt = d.getUint32(at + 20, true), stridesAt = d.getUint32(at + 24, true);
    const shape = [], strides = [];
    for (let k = 0; k < ndim; k++) shape.push(Number(d.getBigInt64(shapeAt + 8 * k, true)));
    for (let k = ndim - 1, s = 1; k >= 0; k--) {
      strides[k] = stridesAt ? Number(d.getBigInt64(stridesAt + 8 * k, true)) : s;
      s *= shape[k];
    }
    const base = d.getUint32(at, true) + Number(d.getBigUint64(at + 32, true));
    const total = shape.reduce((a, b) => a * b, 1);
    const out = new Typed(total * per);
    const src = new Uint8Array(this.exports.memory.buffer);
    const dst = new Uint8Array(out.buffer);
    const idx = new Array(ndim).fill(0);
    for (let i = 0; i < total; i++) {
      let off = 0;
      for (let k = 0; k < ndim; k++) off += idx[k] * strides[k];
      dst.set(src.subarray(base + off * size, base + (off + 1) * size), i * size);
      for (let k = ndim - 1; k >= 0; k--) {
        if (++idx[k] < shape[k]) break;
        idx[k] = 0;
      }
    }
    return { data: out, shape };
  }

  /**
   * Copies a Str (a JavaScript string, as UTF-8) or Bytes (a Uint8Array)
   * argument into the arena: its wasm parameters, address and length.
   */
  text(dtype, x) {
    const bytes = dtype === "Str" ? utf8encode.encode(String(x)) : x instanceof Uint8Array ? x : Uint8Array.from(x);
    const at = this.exports.postc_arena_alloc(bytes.length);
    new Uint8Array(this.exports.memory.buffer, at, bytes.length).set(bytes);
    return [at, bytes.length];
  }

  /**
   * Calls a ufunc through its `NAME_dl` entry point, which broadcasts its
   * operands as NumPy does: numbers, BigInts, `{re, im}`, typed arrays or
   * `{data, shape, strides, offset}` views. Given only the inputs, the
   * outputs are allocated with the broadcast loop shape and the core sizes
   * the inputs give, and returned as `{data, shape}` (an array of them for
   * several outputs); given the outputs too, they are written in place.
   */
  ufunc(name, ...args) {
    const symbol = exportSymbol(name);
    const sig = this.signatures[symbol];
    const dl = this.exports[`${symbol}_dl`];
    if (!sig || !sig.ufunc || typeof dl !== "function") throw new Error(`postc: \`${name}\` is not a ufunc of the module`);
    const { nin, dtypes, core, ndims } = sig.ufunc;
    const nops = dtypes.length;
    if (args.length !== nin && args.length !== nops) {
      throw new TypeError(`postc: ufunc \`${name}\` takes ${nin} inputs (or ${nops} operands), not ${args.length}`);
    }
    const operand = (a, dtype) => {
      if (ArrayBuffer.isView(a) || (typeof a === "object" && a !== null && "data" in a)) return a;
      const Typed = DTYPES[dtype]?.[2];
      if (!Typed) throw new TypeError(`postc: ufunc operands of ${dtype} are not supported by the loader`);
      const raw = dtype === "Bool" ? [a ? 1 : 0] : toWasm(dtype, a);
      return { data: Typed.from(raw), shape: [] };
    };
    const ops = args.map((a, i) => operand(a, dtypes[i]));
    const shapeOf = (o, i) => {
      const v = ArrayBuffer.isView(o) ? { data: o } : o;
      return v.shape ?? [v.data.length / (isComplex(dtypes[i]) ? 2 : 1)];
    };
    let outputs = null;
    if (args.length === nin) {
      // The loop shape the inputs broadcast to (NAME_dl checks it), and
      // the core sizes they give.
      const sizes = new Array(ndims).fill(1);
      let loop = [];
      for (let i = 0; i < nin; i++) {
        const shape = shapeOf(ops[i], i);
        const lnd = Math.max(shape.length - core[i].length, 0);
        core[i].forEach((d, k) => (sizes[d] = shape[lnd + k] ?? 1));
        const lead = shape.slice(0, lnd);
        const n = Math.max(loop.length, lead.length);
        const a = new Array(n - loop.length).fill(1).concat(loop);
        const b = new Array(n - lead.length).fill(1).concat(lead);
        loop = a.map((x, k) => (x === 1 ? b[k] : x));
      }
      outputs = [];
      for (let i = nin; i < nops; i++) {
        const shape = loop.concat(core[i].map((d) => sizes[d]));
        const count = shape.reduce((x, y) => x * y, 1) * (isComplex(dtypes[i]) ? 2 : 1);
        const out = { data: new DTYPES[dtypes[i]][2](count), shape };
        outputs.push(out);
        ops.push(out);
      }
    }
    const e = this.exports;
    const mark = e.postc_arena_mark();
    let returned = false;
    try {
      const copies = [];
      const tensors = ops.map((o, i) => {
        const [at, back] = this.tensor(dtypes[i], o);
        if (i >= nin) copies.push(back);
        return at;
      });
      dl(...tensors);
      for (const back of copies) back();
      returned = true;
    } finally {
      e.postc_arena_release(mark);
      if (!returned && e.postc_depth) e.postc_depth.value = 0;
    }
    if (!outputs) return undefined;
    return outputs.length === 1 ? outputs[0] : outputs;
  }

  /** The signature of function or ufunc `name` (its `postc.signatures` entry). */
  signature(name) {
    return this.signatures[exportSymbol(name)];
  }

  /** Calls export `name` with JavaScript values, converting by its signature. */
  call(name, ...args) {
    const symbol = exportSymbol(name);
    const sig = this.signatures[symbol];
    const f = this.exports[symbol];
    if (!sig || typeof f !== "function") throw new Error(`postc: the module exports no function \`${name}\``);
    if (args.length !== sig.params.length) {
      throw new TypeError(`postc: \`${name}\` takes ${sig.params.length} arguments, not ${args.length}`);
    }
    const e = this.exports;
    const mark = e.postc_arena_mark();
    const copies = [];
    let returned = false;
    try {
      const raw = sig.params.flatMap((p, i) => {
        if (p.endsWith("[]")) {
          const [at, back] = this.tensor(p.slice(0, -2), args[i]);
          copies.push(back);
          return [at];
        }
        if (isText(p)) return this.text(p, args[i]);
        return toWasm(p, args[i]);
      });
      // A tuple result: one out-pointer per element, to a slot in the
      // arena, read back as a JavaScript array of the elements.
      const slots = Array.isArray(sig.ret) ? e.postc_arena_alloc(TUPLE_SLOT * sig.ret.length) : 0;
      if (Array.isArray(sig.ret)) sig.ret.forEach((_, k) => raw.push(slots + TUPLE_SLOT * k));
      const r = f(...raw);
      for (const back of copies) back();
      returned = true;
      if (Array.isArray(sig.ret)) {
        return sig.ret.map((dtype, k) => {
          const at = slots + TUPLE_SLOT * k;
          if (!dtype.endsWith("[]")) return scalarAt(dtype, at, e.memory);
          return this.array(dtype.slice(0, -2), new DataView(e.memory.buffer).getUint32(at, true));
        });
      }
      if (sig.ret.endsWith("[]")) return this.array(sig.ret.slice(0, -2), r);
      return sig.ret === "void" ? undefined : fromWasm(sig.ret, r, e.memory);
    } finally {
      e.postc_arena_release(mark);
      // A panic or trap leaves the call-depth count where it was.
      if (!returned && e.postc_depth) e.postc_depth.value = 0;
    }
  }
}
