//! Runtime values of the interpreter: scalars, strings and strided array
//! views over shared byte buffers.

use crate::dtype::DType;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// A runtime value. Integers are exact `i128`s within their dtype's range;
/// `Float16`/`Float32` values are `f64`s already rounded to the dtype, and
/// so are the parts of a `Complex64`.
#[derive(Clone, Debug)]
pub enum Value {
    Bool(bool),
    Int(DType, i128),
    Float(DType, f64),
    Complex(DType, f64, f64),
    Str(String),
    Bytes(Vec<u8>),
    Array(Array),
    /// The result of a function with a tuple result: its elements, scalars
    /// and arrays.
    Tuple(Vec<Value>),
}

impl Value {
    /// The dtype of the value (of its elements for an array).
    pub fn dtype(&self) -> DType {
        match self {
            Value::Bool(_) => DType::Bool,
            Value::Int(d, _) | Value::Float(d, _) | Value::Complex(d, _, _) => *d,
            Value::Str(_) => DType::Str,
            Value::Bytes(_) => DType::Bytes,
            Value::Array(a) => a.dtype,
            // A tuple has no dtype of its own; every operation but
            // `extract` and `return` refuses one before asking.
            Value::Tuple(_) => DType::Int64,
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// A `Float64` value.
    pub fn f64(x: f64) -> Value {
        Value::Float(DType::Float64, x)
    }

    /// An `Int64` value.
    pub fn i64(x: i64) -> Value {
        Value::Int(DType::Int64, x as i128)
    }

    /// A float of `dtype`, rounded to it.
    pub fn float(dtype: DType, x: f64) -> Value {
        Value::Float(dtype, round_float(dtype, x))
    }

    /// A complex of `dtype`, its parts rounded to the part dtype.
    pub fn complex(dtype: DType, re: f64, im: f64) -> Value {
        Value::Complex(dtype, round_float(dtype, re), round_float(dtype, im))
    }

    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Rounds an `f64` to a float (or complex part) dtype's precision.
pub(crate) fn round_float(dtype: DType, x: f64) -> f64 {
    match dtype {
        DType::Float16 => crate::body::f16_from_f64(x).to_f64(),
        DType::Float32 | DType::Complex64 => x as f32 as f64,
        _ => x,
    }
}

/// Wraps an exact integer to a dtype's width (two's complement).
pub(crate) fn wrap_int(dtype: DType, x: i128) -> i128 {
    let bits = dtype.bits();
    if bits >= 128 {
        return x;
    }
    let m = (x as u128) & ((1u128 << bits) - 1);
    if dtype.is_signed_int() && m >= 1u128 << (bits - 1) {
        (m as i128) - (1i128 << bits)
    } else {
        m as i128
    }
}

fn same_float(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Floats compare by bits, or equal when both are NaN; arrays by dtype,
/// shape and elements.
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(da, a), Value::Int(db, b)) => da == db && a == b,
            (Value::Float(da, a), Value::Float(db, b)) => da == db && same_float(*a, *b),
            (Value::Complex(da, ar, ai), Value::Complex(db, br, bi)) => {
                da == db && same_float(*ar, *br) && same_float(*ai, *bi)
            }
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => {
                a.dtype == b.dtype && a.shape == b.shape && a.to_values() == b.to_values()
            }
            (Value::Tuple(a), Value::Tuple(b)) => a == b,
            _ => false,
        }
    }
}

/// Python's `repr` of a float held in `dtype` (NumPy's `str` for `Float16`
/// and `Float32`): the shortest digits that read back to the same value of
/// that dtype, in positional or `1e+100` notation. `add_dot0` appends `.0` to
/// integral values (`float.__repr__`; complex parts omit it).
pub(crate) fn float_repr(x: f64, dtype: DType, add_dot0: bool) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = shortest_digits(x, dtype);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant),
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    // Python's rule for Float64; NumPy's scalar printing for the narrow
    // floats: positional when 1e-4 <= |x| < 10**precision (3 digits for
    // Float16, 6 for Float32), compared in the dtype's own value.
    let positional = match dtype {
        DType::Float16 => x == 0.0 || (1e-4..1e3).contains(&x.abs()),
        DType::Float32 | DType::Complex64 => x == 0.0 || (1e-4..1e6).contains(&x.abs()),
        _ => (-4..16).contains(&exp),
    };
    if positional {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                s.push_str(digits);
                s.extend(std::iter::repeat_n('0', int_len - digits.len()));
                if add_dot0 {
                    s.push_str(".0");
                }
            } else {
                s.push_str(&digits[..int_len]);
                s.push('.');
                s.push_str(&digits[int_len..]);
            }
        } else {
            s.push_str("0.");
            s.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            s.push_str(digits);
        }
    } else {
        s.push_str(&digits[..1]);
        if digits.len() > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        s.push('e');
        s.push(if exp < 0 { '-' } else { '+' });
        s.push_str(&format!("{:02}", exp.abs()));
    }
    s
}

/// The shortest decimal that reads back to `x` in `dtype`, in Rust's
/// `1.25e-3` form, as CPython's `repr` (Float64) and NumPy's `repr` and
/// `str` (Float16, Float32) choose it: of the shortest strings that read
/// back, the nearest to `x`, and on a tie the one whose last digit is even
/// (`-299092.625` in Float32 is `-299092.62`; Rust's own shortest form
/// gives `-299092.63`). At each length the nearest decimal is Rust's exactly
/// rounded one (ties to even); when it does not read back but `x` is a power
/// of two (the interval of what reads back to it is narrower below), the
/// neighbour on the other side may.
fn shortest_digits(x: f64, dtype: DType) -> String {
    let reads_back = |s: &str| -> bool {
        let Ok(y) = s.parse::<f64>() else { return false };
        match dtype {
            DType::Float32 | DType::Complex64 => s.parse::<f32>().is_ok_and(|y| y == x as f32),
            DType::Float16 => crate::body::f16_from_f64(y) == crate::body::f16_from_f64(x),
            _ => y == x,
        }
    };
    for p in 0..17usize {
        let near = format!("{:.*e}", p, x);
        if reads_back(&near) {
            return near;
        }
        // The neighbours of `near` in its last digit.
        let (mant, exp) = near.split_once('e').unwrap_or((&near, "0"));
        let (neg, mant) = mant.strip_prefix('-').map_or((false, mant), |m| (true, m));
        let (Ok(m), Ok(e)) = (mant.replace('.', "").parse::<u64>(), exp.parse::<i32>()) else { break };
        let low = 10u64.pow(p as u32);
        for (m2, e2) in [(m + 1, e), (m - 1, e)] {
            let (m2, e2) = if m2 == 10 * low {
                (low, e2 + 1)
            } else if m2 < low {
                (10 * low - 1, e2 - 1)
            } else {
                (m2, e2)
            };
            let digits = m2.to_string();
            let text = format!(
                "{}{}{}{}e{e2}",
                if neg { "-" } else { "" },
                &digits[..1],
                if p > 0 { "." } else { "" },
                &digits[1..]
            );
            if reads_back(&text) {
                return text;
            }
        }
    }
    format!("{:e}", x)
}

/// Python's `repr` of a complex number.
pub(crate) fn complex_repr(dtype: DType, re: f64, im: f64) -> String {
    let imag = |with_sign: bool| {
        let mut s = float_repr(im, dtype, false);
        if im.is_nan() {
            s = "nan".into();
        }
        if with_sign && !s.starts_with('-') {
            s.insert(0, '+');
        }
        s
    };
    if re == 0.0 && re.is_sign_positive() {
        format!("{}j", imag(false))
    } else {
        format!("({}{}j)", float_repr(re, dtype, false), imag(true))
    }
}

/// Python's `repr` of a bytes object.
pub(crate) fn bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { '"' } else { '\'' };
    let mut s = String::from("b");
    s.push(quote);
    for &c in b {
        match c {
            b'\\' => s.push_str("\\\\"),
            b'\t' => s.push_str("\\t"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            c if c as char == quote => {
                s.push('\\');
                s.push(quote);
            }
            0x20..=0x7e => s.push(c as char),
            _ => s.push_str(&format!("\\x{c:02x}")),
        }
    }
    s.push(quote);
    s
}

/// What Python's `print()` shows (arrays as their `tolist()`).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Int(_, x) => write!(f, "{x}"),
            Value::Float(d, x) => f.write_str(&float_repr(*x, *d, true)),
            Value::Complex(d, re, im) => f.write_str(&complex_repr(*d, *re, *im)),
            Value::Str(s) => f.write_str(s),
            Value::Bytes(b) => f.write_str(&bytes_repr(b)),
            Value::Array(a) => write!(f, "{a}"),
            // Python's `repr` of each element (arrays as their `tolist()`).
            Value::Tuple(elements) => {
                f.write_str("(")?;
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match e {
                        Value::Str(s) => write!(f, "{s:?}")?,
                        e => write!(f, "{e}")?,
                    }
                }
                f.write_str(if elements.len() == 1 { ",)" } else { ")" })
            }
        }
    }
}

/// A strided view of a shared byte buffer (NumPy's ndarray model). Strides
/// and the offset are in bytes; elements are stored little-endian in the
/// dtype's width (Bool one byte 0/1, complex as real then imaginary part).
#[derive(Clone)]
pub struct Array {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: usize,
    pub buf: Rc<RefCell<Vec<u8>>>,
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Array({}, shape={:?}, strides={:?}, offset={}, {})",
            self.dtype, self.shape, self.strides, self.offset, self
        )
    }
}

impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn rec(a: &Array, idx: &mut Vec<usize>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let axis = idx.len();
            if axis == a.shape.len() {
                return match a.get(idx) {
                    Value::Str(s) => write!(f, "{s:?}"),
                    v => write!(f, "{v}"),
                };
            }
            f.write_str("[")?;
            for i in 0..a.shape[axis] {
                if i > 0 {
                    f.write_str(", ")?;
                }
                idx.push(i);
                rec(a, idx, f)?;
                idx.pop();
            }
            f.write_str("]")
        }
        rec(self, &mut Vec::new(), f)
    }
}

/// Byte strides of a compact array.
pub(crate) fn compact_strides(dtype: DType, shape: &[usize], fortran: bool) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = dtype.size_bytes() as isize;
    let order: Vec<usize> = if fortran { (0..shape.len()).collect() } else { (0..shape.len()).rev().collect() };
    for ax in order {
        strides[ax] = acc;
        acc *= shape[ax].max(1) as isize;
    }
    strides
}

/// Reads one element of `dtype` from `bytes` (at least the element's size).
pub(crate) fn read_elem(dtype: DType, bytes: &[u8]) -> Option<Value> {
    let n = dtype.size_bytes() as usize;
    let b = bytes.get(..n)?;
    let mut w = [0u8; 16];
    w[..n].copy_from_slice(b);
    let lo = u64::from_le_bytes(w[..8].try_into().ok()?);
    let hi = u64::from_le_bytes(w[8..].try_into().ok()?);
    Some(match dtype {
        DType::Bool => Value::Bool(b[0] != 0),
        DType::Int8 => Value::Int(dtype, lo as u8 as i8 as i128),
        DType::Int16 => Value::Int(dtype, lo as u16 as i16 as i128),
        DType::Int32 => Value::Int(dtype, lo as u32 as i32 as i128),
        DType::Int64 => Value::Int(dtype, lo as i64 as i128),
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => Value::Int(dtype, lo as i128),
        DType::Float16 => Value::Float(dtype, half::f16::from_bits(lo as u16).to_f64()),
        DType::Float32 => Value::Float(dtype, f32::from_bits(lo as u32) as f64),
        DType::Float64 => Value::Float(dtype, f64::from_bits(lo)),
        DType::Complex64 => {
            Value::Complex(dtype, f32::from_bits(lo as u32) as f64, f32::from_bits((lo >> 32) as u32) as f64)
        }
        DType::Complex128 => Value::Complex(dtype, f64::from_bits(lo), f64::from_bits(hi)),
        DType::Str | DType::Bytes => return None,
    })
}

/// Writes one element of `dtype`; `v` must already be of that dtype.
pub(crate) fn write_elem(dtype: DType, bytes: &mut [u8], v: &Value) -> Option<()> {
    let n = dtype.size_bytes() as usize;
    let out = bytes.get_mut(..n)?;
    let raw: u128 = match (dtype, v) {
        (DType::Bool, Value::Bool(b)) => *b as u128,
        (d, Value::Int(vd, x)) if d.is_int() && *vd == d => *x as u128,
        (DType::Float16, Value::Float(DType::Float16, x)) => crate::body::f16_from_f64(*x).to_bits() as u128,
        (DType::Float32, Value::Float(DType::Float32, x)) => (*x as f32).to_bits() as u128,
        (DType::Float64, Value::Float(DType::Float64, x)) => x.to_bits() as u128,
        (DType::Complex64, Value::Complex(DType::Complex64, re, im)) => {
            (*re as f32).to_bits() as u128 | ((*im as f32).to_bits() as u128) << 32
        }
        (DType::Complex128, Value::Complex(DType::Complex128, re, im)) => {
            re.to_bits() as u128 | (im.to_bits() as u128) << 64
        }
        _ => return None,
    };
    out.copy_from_slice(&raw.to_le_bytes()[..n]);
    Some(())
}

impl Array {
    /// A fresh zeroed array, C order or (`fortran`) F order.
    pub fn zeros(dtype: DType, shape: &[usize], fortran: bool) -> Array {
        let len: usize = shape.iter().product();
        Array {
            dtype,
            shape: shape.to_vec(),
            strides: compact_strides(dtype, shape, fortran),
            offset: 0,
            buf: Rc::new(RefCell::new(vec![0u8; len * dtype.size_bytes() as usize])),
        }
    }

    /// A fresh C-order array holding `values` (converted to `dtype` as a
    /// `cast` would). Panics when the count does not match the shape.
    pub fn from_values(dtype: DType, shape: &[usize], values: &[Value]) -> Array {
        let a = Array::zeros(dtype, shape, false);
        assert_eq!(values.len(), a.len(), "from_values: {} values for shape {:?}", values.len(), shape);
        let mut idx = vec![0usize; shape.len()];
        for v in values {
            a.set(&idx, v);
            for ax in (0..shape.len()).rev() {
                idx[ax] += 1;
                if idx[ax] < shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
        a
    }

    /// A view of the same buffer (transposes, slices with steps).
    pub fn view(&self, shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Array {
        assert_eq!(shape.len(), strides.len(), "view: shape and strides differ in length");
        Array { dtype: self.dtype, shape, strides, offset, buf: Rc::clone(&self.buf) }
    }

    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Byte position in the buffer of the element at `idx`, when the index
    /// is in range and the element lies inside the buffer.
    pub fn byte_pos(&self, idx: &[usize]) -> Option<usize> {
        if idx.len() != self.shape.len() {
            return None;
        }
        let mut pos = self.offset as i128;
        for ((&i, &n), &s) in idx.iter().zip(&self.shape).zip(&self.strides) {
            if i >= n {
                return None;
            }
            pos += i as i128 * s as i128;
        }
        let size = self.dtype.size_bytes() as i128;
        (pos >= 0 && pos + size <= self.buf.borrow().len() as i128).then_some(pos as usize)
    }

    /// The element at `idx`. Panics when out of bounds (a caller's error).
    pub fn get(&self, idx: &[usize]) -> Value {
        let pos = self
            .byte_pos(idx)
            .unwrap_or_else(|| panic!("Array::get: index {idx:?} out of bounds for shape {:?}", self.shape));
        match read_elem(self.dtype, &self.buf.borrow()[pos..]) {
            Some(v) => v,
            None => match self.dtype {
                DType::Str => Value::Str(String::new()),
                _ => Value::Bytes(Vec::new()),
            },
        }
    }

    /// Stores `v` (converted to the dtype as a `cast` would) at `idx`.
    /// Panics when out of bounds or not convertible (a caller's error).
    pub fn set(&self, idx: &[usize], v: &Value) {
        let pos = self
            .byte_pos(idx)
            .unwrap_or_else(|| panic!("Array::set: index {idx:?} out of bounds for shape {:?}", self.shape));
        let v = super::ops::cast(self.dtype, v)
            .unwrap_or_else(|e| panic!("Array::set: {} cannot be stored in a {} array", e.message, self.dtype));
        write_elem(self.dtype, &mut self.buf.borrow_mut()[pos..], &v)
            .unwrap_or_else(|| panic!("Array::set: {} arrays cannot hold values", self.dtype));
    }

    /// All elements in logical C order.
    pub fn to_values(&self) -> Vec<Value> {
        let mut out = Vec::with_capacity(self.len());
        if self.shape.contains(&0) {
            return out;
        }
        let mut idx = vec![0usize; self.shape.len()];
        loop {
            out.push(self.get(&idx));
            let mut ax = self.shape.len();
            loop {
                if ax == 0 {
                    return out;
                }
                ax -= 1;
                idx[ax] += 1;
                if idx[ax] < self.shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
    }
}
