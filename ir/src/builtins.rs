//! Built-in functions of the `postc.` namespace, which every stage knows:
//! the verifier checks calls to them, the interpreter runs them, codegen
//! lowers them. Functions whose names start with `postc.` are module-private
//! (the cold-outline pass creates them); user code cannot define one.

use crate::dtype::DType;

/// The reserved prefix of built-in and compiler-made functions.
pub const PREFIX: &str = "postc.";

/// The panic built-in: `call postc.panic(%msg: Str, %args: Int64...)`. It
/// never returns: it reports `msg` with each `{}` replaced by the next
/// argument in decimal, located at the call, and aborts.
pub const PANIC: &str = "postc.panic";

/// A built-in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Builtin {
    Panic,
    /// `postc.ovf.<op>(a, b: T) -> Bool`: whether `a op b` overflows the
    /// integer dtype `T` (for `pow`, `b` is the exponent, non-negative).
    Overflows(OvfOp),
    /// `postc.gpu.<register>.<axis>() -> Int64`: the launch coordinates of
    /// the running thread, as CUDA's `threadIdx`, `blockIdx`, `blockDim`
    /// and `gridDim`. Only `kernel` functions may call them.
    Gpu(GpuReg, Axis),
}

/// A thread-coordinate register of a kernel launch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GpuReg {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
}

/// An axis of a launch grid or block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl GpuReg {
    pub const ALL: [GpuReg; 4] = [GpuReg::ThreadIdx, GpuReg::BlockIdx, GpuReg::BlockDim, GpuReg::GridDim];

    pub fn name(self) -> &'static str {
        match self {
            GpuReg::ThreadIdx => "thread_idx",
            GpuReg::BlockIdx => "block_idx",
            GpuReg::BlockDim => "block_dim",
            GpuReg::GridDim => "grid_dim",
        }
    }
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    pub fn name(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The prefix of the thread-coordinate built-ins.
pub const GPU_PREFIX: &str = "postc.gpu.";

/// The name of a thread-coordinate built-in: `postc.gpu.thread_idx.x`.
pub fn gpu_builtin_name(reg: GpuReg, axis: Axis) -> String {
    format!("{GPU_PREFIX}{}.{}", reg.name(), axis.name())
}

/// The coordinates of one thread of a launch, per register and axis.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ThreadCoords {
    pub thread_idx: [u32; 3],
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
}

impl ThreadCoords {
    pub fn get(&self, reg: GpuReg, axis: Axis) -> u32 {
        let r = match reg {
            GpuReg::ThreadIdx => &self.thread_idx,
            GpuReg::BlockIdx => &self.block_idx,
            GpuReg::BlockDim => &self.block_dim,
            GpuReg::GridDim => &self.grid_dim,
        };
        r[axis.index()]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OvfOp {
    Add,
    Sub,
    Mul,
    Pow,
    /// Unary: `postc.ovf.neg(a: T) -> Bool`.
    Neg,
    /// Unary: `postc.ovf.abs(a: T) -> Bool`.
    Abs,
}

impl OvfOp {
    pub const ALL: [OvfOp; 6] = [OvfOp::Add, OvfOp::Sub, OvfOp::Mul, OvfOp::Pow, OvfOp::Neg, OvfOp::Abs];

    pub fn name(self) -> &'static str {
        match self {
            OvfOp::Add => "postc.ovf.add",
            OvfOp::Sub => "postc.ovf.sub",
            OvfOp::Mul => "postc.ovf.mul",
            OvfOp::Pow => "postc.ovf.pow",
            OvfOp::Neg => "postc.ovf.neg",
            OvfOp::Abs => "postc.ovf.abs",
        }
    }

    pub fn arity(self) -> usize {
        match self {
            OvfOp::Neg | OvfOp::Abs => 1,
            _ => 2,
        }
    }
}

impl Builtin {
    pub fn from_name(name: &str) -> Option<Builtin> {
        if name == PANIC {
            return Some(Builtin::Panic);
        }
        if let Some(rest) = name.strip_prefix(GPU_PREFIX) {
            let (reg, axis) = rest.split_once('.')?;
            let reg = GpuReg::ALL.into_iter().find(|r| r.name() == reg)?;
            let axis = Axis::ALL.into_iter().find(|a| a.name() == axis)?;
            return Some(Builtin::Gpu(reg, axis));
        }
        OvfOp::ALL.iter().find(|o| o.name() == name).map(|o| Builtin::Overflows(*o))
    }

    /// Checks argument dtypes (scalars) and the result dtype of a call.
    /// Returns a message describing the mismatch.
    pub fn check(self, args: &[DType], ret: Option<DType>) -> Result<(), String> {
        match self {
            Builtin::Panic => {
                if args.first() != Some(&DType::Str) {
                    return Err("`postc.panic` takes a Str message first".into());
                }
                if args[1..].iter().any(|a| *a != DType::Int64) {
                    return Err("`postc.panic` takes Int64 message arguments".into());
                }
                if ret.is_some() {
                    return Err("`postc.panic` returns nothing".into());
                }
                Ok(())
            }
            Builtin::Overflows(op) => {
                if args.len() != op.arity() {
                    return Err(format!("`{}` takes {} arguments", op.name(), op.arity()));
                }
                if !args[0].is_int() || args.iter().any(|a| *a != args[0]) {
                    return Err(format!("`{}` takes integer arguments of one dtype", op.name()));
                }
                if ret != Some(DType::Bool) {
                    return Err(format!("`{}` returns Bool", op.name()));
                }
                Ok(())
            }
            Builtin::Gpu(reg, axis) => {
                let name = gpu_builtin_name(reg, axis);
                if !args.is_empty() {
                    return Err(format!("`{name}` takes no arguments"));
                }
                if ret != Some(DType::Int64) {
                    return Err(format!("`{name}` returns Int64"));
                }
                Ok(())
            }
        }
    }
}

/// Renders a panic message: each `{}` takes the next argument.
pub fn render_panic(msg: &str, args: &[i128]) -> String {
    let mut out = String::with_capacity(msg.len() + 8);
    let mut rest = msg;
    let mut args = args.iter();
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        match args.next() {
            Some(a) => out.push_str(&a.to_string()),
            None => out.push_str("{}"),
        }
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// Whether `a op b` overflows `dtype` (exact, over i128).
pub fn overflows(op: OvfOp, dtype: DType, a: i128, b: i128) -> bool {
    let Some((lo, hi)) = dtype.int_range() else { return false };
    let exact: Option<i128> = match op {
        OvfOp::Add => a.checked_add(b),
        OvfOp::Sub => a.checked_sub(b),
        OvfOp::Mul => a.checked_mul(b),
        OvfOp::Neg => a.checked_neg(),
        OvfOp::Abs => a.checked_abs(),
        OvfOp::Pow => {
            if b < 0 {
                return false;
            }
            let mut acc: i128 = 1;
            let mut ok = true;
            for _ in 0..b.min(200) {
                match acc.checked_mul(a) {
                    Some(x) if (lo..=hi).contains(&x) => acc = x,
                    _ => {
                        ok = false;
                        break;
                    }
                }
                if acc == 0 || acc == 1 {
                    break;
                }
                if acc == -1 {
                    // (-1)^b alternates: the result is -1 or 1, both in range.
                    break;
                }
            }
            if ok {
                Some(acc)
            } else {
                None
            }
        }
    };
    match exact {
        Some(x) => x < lo || x > hi,
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_checks() {
        assert_eq!(Builtin::from_name("postc.panic"), Some(Builtin::Panic));
        assert_eq!(Builtin::from_name("postc.ovf.mul"), Some(Builtin::Overflows(OvfOp::Mul)));
        assert_eq!(Builtin::from_name("postc.nope"), None);
        assert!(Builtin::Panic.check(&[DType::Str, DType::Int64], None).is_ok());
        assert!(Builtin::Panic.check(&[DType::Int64], None).is_err());
        assert!(Builtin::Overflows(OvfOp::Add).check(&[DType::Int8, DType::Int8], Some(DType::Bool)).is_ok());
        assert!(Builtin::Overflows(OvfOp::Add).check(&[DType::Int8, DType::Int16], Some(DType::Bool)).is_err());
        let tid = Builtin::from_name("postc.gpu.thread_idx.y");
        assert_eq!(tid, Some(Builtin::Gpu(GpuReg::ThreadIdx, Axis::Y)));
        assert_eq!(Builtin::from_name("postc.gpu.grid_dim.z"), Some(Builtin::Gpu(GpuReg::GridDim, Axis::Z)));
        assert_eq!(Builtin::from_name("postc.gpu.thread_idx.w"), None);
        assert_eq!(Builtin::from_name("postc.gpu.lane.x"), None);
        assert!(tid.unwrap().check(&[], Some(DType::Int64)).is_ok());
        assert!(tid.unwrap().check(&[], Some(DType::Int32)).is_err());
        assert!(tid.unwrap().check(&[DType::Int64], Some(DType::Int64)).is_err());
        for reg in GpuReg::ALL {
            for axis in Axis::ALL {
                assert_eq!(Builtin::from_name(&gpu_builtin_name(reg, axis)), Some(Builtin::Gpu(reg, axis)));
            }
        }
    }

    #[test]
    fn renders_and_detects_overflow() {
        assert_eq!(render_panic("index {} of {}", &[5, 3]), "index 5 of 3");
        assert!(overflows(OvfOp::Add, DType::Int8, 127, 1));
        assert!(!overflows(OvfOp::Add, DType::Int8, 126, 1));
        assert!(overflows(OvfOp::Sub, DType::UInt8, 0, 1));
        assert!(overflows(OvfOp::Neg, DType::Int32, i32::MIN as i128, 0));
        assert!(overflows(OvfOp::Abs, DType::Int64, i64::MIN as i128, 0));
        assert!(overflows(OvfOp::Pow, DType::Int8, 2, 7));
        assert!(!overflows(OvfOp::Pow, DType::Int8, 2, 6));
        assert!(!overflows(OvfOp::Pow, DType::Int8, -2, 7));
        assert!(!overflows(OvfOp::Pow, DType::Int64, -1, 1 << 60));
        assert!(overflows(OvfOp::Mul, DType::UInt64, 1 << 40, 1 << 40));
    }
}
