//! Generates valid modules from arbitrary bytes: the source of the
//! structured fuzz targets, property tests and the benches' large modules.
//!
//! Functions are built from nested regions (straight-line code, if/else
//! diamonds, counted loops over `let` locals), so every value a generated
//! instruction reads is defined on every path to it, and every loop ends.

use crate::body::{Literal, ValueId};
use crate::builder::FunctionBuilder;
use crate::dtype::DType;
use crate::module::{FuncAttrs, Module};
use crate::opcode::Opcode;
use crate::types::{Layout, Shape, TypeData, TypeId};
use arbitrary::{Result, Unstructured};

/// Bounds of a generated module.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// At least this many functions (and at least one).
    pub min_functions: usize,
    /// At most this many functions.
    pub max_functions: usize,
    /// Instructions a function aims for (the generator stops adding regions
    /// once reached).
    pub insts_per_function: usize,
    /// Maximum nesting of ifs and loops.
    pub max_depth: u32,
    /// Trip count bound of generated loops.
    pub max_trip: i128,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig { min_functions: 1, max_functions: 4, insts_per_function: 60, max_depth: 3, max_trip: 6 }
    }
}

const SCALARS: [DType; 8] =
    [DType::Bool, DType::Int8, DType::Int32, DType::Int64, DType::UInt8, DType::UInt64, DType::Float32, DType::Float64];

struct Sig {
    name: String,
    params: Vec<TypeId>,
    ret: Option<TypeId>,
}

/// Builds an arbitrary valid module.
pub fn arbitrary_module(u: &mut Unstructured<'_>, cfg: &GenConfig) -> Result<Module> {
    let mut m = Module::new("fuzz");
    let arr = m.types.intern(TypeData::array(DType::Float64, Shape::dims(&[None]), Layout::COrder).output());
    let lo = cfg.min_functions.max(1);
    let nfuncs = u.int_in_range(lo..=cfg.max_functions.max(lo))?;
    let mut sigs: Vec<Sig> = Vec::new();
    for fi in 0..nfuncs {
        let nparams = u.int_in_range(0..=4)?;
        let mut params = Vec::new();
        for _ in 0..nparams {
            params.push(TypeId::scalar(*u.choose(&SCALARS)?));
        }
        if u.ratio(1, 3)? {
            params.push(arr);
        }
        let ret = if u.ratio(1, 4)? { None } else { Some(TypeId::scalar(*u.choose(&SCALARS)?)) };
        let name = format!("f{fi}");
        let mut g = Gen {
            u,
            cfg,
            b: FunctionBuilder::new(&name),
            scopes: vec![Vec::new()],
            arr: None,
            arr_ty: arr,
            next: 0,
            insts: 0,
            sigs: &sigs,
        };
        for (i, &t) in params.iter().enumerate() {
            let v = g.b.param(&format!("p{i}"), t);
            if t == arr {
                g.arr = Some(v);
            } else {
                g.scopes[0].push((v, t));
            }
        }
        g.b.set_return(ret);
        if g.u.ratio(1, 8)? {
            g.b.set_attrs(FuncAttrs::NOINLINE);
        }
        let entry = g.b.create_block("entry");
        g.b.switch_to(entry);
        g.region(0)?;
        match ret {
            Some(t) => {
                let v = g.value_of(t)?;
                g.b.ret(Some(v));
            }
            None => {
                g.b.ret(None);
            }
        }
        let f = g.b.finish();
        m.add_function(f);
        sigs.push(Sig { name, params, ret });
    }
    Ok(m)
}

struct Gen<'a, 'u, 's> {
    u: &'a mut Unstructured<'u>,
    cfg: &'a GenConfig,
    b: FunctionBuilder,
    /// Values visible at the insertion point, innermost scope last.
    scopes: Vec<Vec<(ValueId, TypeId)>>,
    arr: Option<ValueId>,
    /// The type of `arr`, which its views have too.
    arr_ty: TypeId,
    next: u32,
    insts: usize,
    sigs: &'s [Sig],
}

impl Gen<'_, '_, '_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn define(&mut self, v: ValueId, t: TypeId) {
        self.insts += 1;
        if let Some(s) = self.scopes.last_mut() {
            s.push((v, t));
        }
    }

    fn visible(&self, t: TypeId) -> Vec<ValueId> {
        self.scopes.iter().flatten().filter(|(_, vt)| *vt == t).map(|(v, _)| *v).collect()
    }

    /// A visible value of type `t`, or a fresh constant.
    fn value_of(&mut self, t: TypeId) -> Result<ValueId> {
        let vis = self.visible(t);
        if !vis.is_empty() && self.u.ratio(3, 4)? {
            return Ok(*self.u.choose(&vis)?);
        }
        self.constant(t)
    }

    fn constant(&mut self, t: TypeId) -> Result<ValueId> {
        let d = DType::from_index(t.as_u32()).unwrap_or(DType::Int64);
        let lit = match d {
            DType::Bool => Literal::Bool(self.u.arbitrary()?),
            DType::Float32 => Literal::Float(f32::to_bits(self.small_float()? as f32) as u64),
            DType::Float64 => Literal::Float(self.small_float()?.to_bits()),
            _ => {
                let (lo, hi) = d.int_range().unwrap_or((0, 0));
                let x: i64 = self.u.arbitrary()?;
                let x = if self.u.ratio(3, 4)? { (x % 16) as i128 } else { x as i128 };
                Literal::Int(x.clamp(lo, hi))
            }
        };
        let name = self.fresh("c");
        let v = self.b.const_(t, lit, &name);
        self.define(v, t);
        Ok(v)
    }

    fn small_float(&mut self) -> Result<f64> {
        Ok(match self.u.int_in_range(0..=9)? {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => -0.0,
            _ => self.u.int_in_range(-64i32..=64)? as f64 / 4.0,
        })
    }

    fn region(&mut self, depth: u32) -> Result<()> {
        loop {
            if self.insts >= self.cfg.insts_per_function || self.u.is_empty() {
                return Ok(());
            }
            match self.u.int_in_range(0..=9)? {
                0 if depth < self.cfg.max_depth => self.diamond(depth)?,
                1 if depth < self.cfg.max_depth => self.counted_loop(depth)?,
                9 if depth > 0 => return Ok(()),
                _ => self.straight()?,
            }
        }
    }

    fn straight(&mut self) -> Result<()> {
        let d = *self.u.choose(&SCALARS)?;
        let t = TypeId::scalar(d);
        let name = self.fresh("v");
        let v = match self.u.int_in_range(0..=11)? {
            0 => return self.constant(t).map(drop),
            1..=3 if d == DType::Bool => {
                let x = self.value_of(t)?;
                let y = self.value_of(t)?;
                let op = *self.u.choose(&[Opcode::And, Opcode::Or, Opcode::Eq, Opcode::Ne, Opcode::BXor])?;
                self.b.binary(op, t, x, y, &name)
            }
            1..=3 => {
                let mut ops = vec![Opcode::Add, Opcode::Sub, Opcode::Mul, Opcode::FDiv, Opcode::Mod];
                if d.is_int() {
                    ops.extend([Opcode::BAnd, Opcode::BOr, Opcode::BXor, Opcode::Shl, Opcode::Shr, Opcode::Pow]);
                } else {
                    ops.extend([Opcode::Div, Opcode::Pow]);
                }
                let op = *self.u.choose(&ops)?;
                let x = self.value_of(t)?;
                let y = if matches!(op, Opcode::Shl | Opcode::Shr | Opcode::Pow) && d.is_int() {
                    // Small non-negative amounts: shifts and powers stay meaningful.
                    let lit = Literal::Int(self.u.int_in_range(0..=9)?);
                    let c = self.fresh("k");
                    let c = self.b.const_(t, lit, &c);
                    self.define(c, t);
                    c
                } else {
                    self.value_of(t)?
                };
                self.b.binary(op, t, x, y, &name)
            }
            4 => {
                let src = TypeId::scalar(*self.u.choose(&SCALARS)?);
                let x = self.value_of(src)?;
                let op = *self.u.choose(&[Opcode::Lt, Opcode::Le, Opcode::Gt, Opcode::Ge, Opcode::Eq, Opcode::Ne])?;
                let y = self.value_of(src)?;
                let v = self.b.binary(op, TypeId::BOOL, x, y, &name);
                self.define(v, TypeId::BOOL);
                return Ok(());
            }
            5 => {
                let src = TypeId::scalar(*self.u.choose(&SCALARS)?);
                let x = self.value_of(src)?;
                self.b.cast(t, x, &name)
            }
            6 if d == DType::Bool => {
                let x = self.value_of(t)?;
                self.b.unary(Opcode::Not, t, x, &name)
            }
            6 => {
                let x = self.value_of(t)?;
                let op =
                    if d.is_int() { *self.u.choose(&[Opcode::Neg, Opcode::Abs, Opcode::Inv])? } else { Opcode::Neg };
                self.b.unary(op, t, x, &name)
            }
            7 => {
                let c = self.value_of(TypeId::BOOL)?;
                let x = self.value_of(t)?;
                let y = self.value_of(t)?;
                self.b.select(t, c, x, y, &name)
            }
            8 if self.arr.is_some() => {
                let mut arr = self.arr.unwrap_or(ValueId::from_u32(0));
                if self.u.ratio(1, 3)? {
                    // Through a view of the array: elements `first`,
                    // `first + step`, ... (`count` of them), which may lie
                    // outside it.
                    let s = self.fresh("s");
                    let s = self.b.stride(arr, 0, &s);
                    let first = self.value_of(TypeId::INT64)?;
                    let off = self.fresh("off");
                    let off = self.b.binary(Opcode::Mul, TypeId::INT64, first, s, &off);
                    let step = self.value_of(TypeId::INT64)?;
                    let vs = self.fresh("vs");
                    let vs = self.b.binary(Opcode::Mul, TypeId::INT64, step, s, &vs);
                    let count = self.value_of(TypeId::INT64)?;
                    let w = self.fresh("w");
                    arr = self.b.view(self.arr_ty, arr, off, &[count], &[vs], &w);
                    self.insts += 4;
                }
                let i = self.value_of(TypeId::INT64)?;
                if self.u.arbitrary()? {
                    let v = self.b.index_load(TypeId::FLOAT64, arr, &[i], &name);
                    self.define(v, TypeId::FLOAT64);
                } else {
                    let x = self.value_of(TypeId::FLOAT64)?;
                    self.b.index_store(arr, &[i], x);
                    self.insts += 1;
                }
                return Ok(());
            }
            9 if self.arr.is_some() => {
                let arr = self.arr.unwrap_or(ValueId::from_u32(0));
                let v = self.b.dim(arr, 0, &name);
                self.define(v, TypeId::INT64);
                return Ok(());
            }
            10 if !self.sigs.is_empty() => {
                let callee = self.u.int_in_range(0..=self.sigs.len() - 1)?;
                let (cname, params, ret) = {
                    let s = &self.sigs[callee];
                    (s.name.clone(), s.params.clone(), s.ret)
                };
                let mut args = Vec::new();
                for p in params {
                    // Scalar types have the ids of their dtypes; the rest is the array.
                    if DType::from_index(p.as_u32()).is_some() {
                        args.push(self.value_of(p)?);
                    } else {
                        match self.arr {
                            Some(a) => args.push(a),
                            None => return Ok(()),
                        }
                    }
                }
                let v = self.b.call(&cname, &args, ret, &name);
                self.insts += 1;
                if let Some(r) = ret {
                    if let Some(s) = self.scopes.last_mut() {
                        s.push((v, r));
                    }
                }
                return Ok(());
            }
            _ => {
                let x = self.value_of(t)?;
                self.b.let_(t, x, &name)
            }
        };
        self.define(v, t);
        Ok(())
    }

    fn diamond(&mut self, depth: u32) -> Result<()> {
        let t = TypeId::scalar(*self.u.choose(&SCALARS)?);
        let init = self.value_of(t)?;
        let lname = self.fresh("l");
        let local = self.b.let_(t, init, &lname);
        self.define(local, t);
        let cond = self.value_of(TypeId::BOOL)?;
        let (then_l, else_l, merge_l) = (self.fresh("then"), self.fresh("else"), self.fresh("merge"));
        let (tb, eb, mb) = (self.b.create_block(&then_l), self.b.create_block(&else_l), self.b.create_block(&merge_l));
        let weights = if self.u.ratio(1, 4)? { Some((self.u.int_in_range(1..=2000)?, 1)) } else { None };
        self.b.condbr(cond, tb, eb, weights);
        for blk in [tb, eb] {
            self.b.switch_to(blk);
            self.scopes.push(Vec::new());
            self.region(depth + 1)?;
            let x = self.value_of(t)?;
            self.b.set(local, x);
            self.scopes.pop();
            self.b.br(mb);
        }
        self.b.switch_to(mb);
        Ok(())
    }

    fn counted_loop(&mut self, depth: u32) -> Result<()> {
        let i64t = TypeId::INT64;
        let zero = self.fresh("z");
        let zero = self.b.int(i64t, 0, &zero);
        let trip = self.u.int_in_range(0..=self.cfg.max_trip)?;
        let n = self.fresh("n");
        let n = self.b.int(i64t, trip, &n);
        let iname = self.fresh("i");
        let i = self.b.let_(i64t, zero, &iname);
        let (head_l, body_l, exit_l) = (self.fresh("head"), self.fresh("body"), self.fresh("exit"));
        let (hb, bb, xb) = (self.b.create_block(&head_l), self.b.create_block(&body_l), self.b.create_block(&exit_l));
        self.insts += 3;
        self.b.br(hb);
        self.b.switch_to(hb);
        let more = self.fresh("more");
        let more = self.b.binary(Opcode::Lt, TypeId::BOOL, i, n, &more);
        self.b.condbr(more, bb, xb, None);
        self.b.switch_to(bb);
        self.scopes.push(vec![(i, i64t)]);
        self.region(depth + 1)?;
        self.scopes.pop();
        let one = self.fresh("one");
        let one = self.b.int(i64t, 1, &one);
        let next = self.fresh("inc");
        let next = self.b.binary(Opcode::Add, i64t, i, one, &next);
        self.b.set(i, next);
        self.b.br(hb);
        self.b.switch_to(xb);
        Ok(())
    }
}

/// `n` pseudo-random bytes from `seed` (xorshift64*), as input for
/// [`arbitrary_module`] in tests.
pub fn seeded_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

/// A deterministic large module for benches: `functions` functions of about
/// `insts_per_function` instructions each, from a fixed-seed byte stream.
pub fn large_module(functions: usize, insts_per_function: usize, seed: u64) -> Module {
    let mut state = seed | 1;
    let bytes: Vec<u8> = (0..functions * insts_per_function * 24)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let cfg =
        GenConfig { min_functions: functions, max_functions: functions, insts_per_function, max_depth: 3, max_trip: 8 };
    let mut u = Unstructured::new(&bytes);
    let mut m = match arbitrary_module(&mut u, &cfg) {
        Ok(m) => m,
        Err(_) => Module::new("fuzz"),
    };
    m.name = "large".into();
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_modules_from_bytes() {
        let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        let m = arbitrary_module(&mut Unstructured::new(&bytes), &GenConfig::default()).unwrap();
        assert!(!m.functions.is_empty());
        assert!(m.num_insts() > 0);
    }

    #[test]
    fn large_module_has_the_requested_size() {
        let m = large_module(20, 200, 7);
        assert_eq!(m.functions.len(), 20);
        assert!(m.num_insts() >= 20 * 150, "{}", m.num_insts());
    }
}
