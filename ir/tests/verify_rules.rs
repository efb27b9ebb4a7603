//! One test per verifier rule: a function that breaks it, with the exact
//! message, and the fixed function, which verifies clean.

use postc_ir::verify::{verify_function, verify_module, verify_program};
use postc_ir::*;

const I64: TypeId = TypeId::INT64;
const F64: TypeId = TypeId::FLOAT64;
const BOOL: TypeId = TypeId::BOOL;

fn s(d: DType) -> TypeId {
    TypeId::scalar(d)
}

fn arr(m: &mut Module, d: DType, dims: Option<&[Option<u64>]>) -> TypeId {
    let shape = dims.map_or(Shape::Any, Shape::dims);
    m.types.intern(TypeData::array(d, shape, Layout::COrder))
}

fn out_arr(m: &mut Module, d: DType, dims: Option<&[Option<u64>]>) -> TypeId {
    let shape = dims.map_or(Shape::Any, Shape::dims);
    m.types.intern(TypeData::array(d, shape, Layout::COrder).output())
}

fn messages(m: &Module) -> Vec<String> {
    verify_module(m).into_iter().map(|d| d.message).collect()
}

/// A module holding the function `build` makes.
fn module_with(build: impl FnOnce(&mut Module, &mut FunctionBuilder)) -> Module {
    let mut m = Module::new("t");
    let mut b = FunctionBuilder::new("f");
    build(&mut m, &mut b);
    m.add_function(b.finish());
    m
}

/// The messages for the function `build` makes.
fn check(build: impl FnOnce(&mut Module, &mut FunctionBuilder)) -> Vec<String> {
    messages(&module_with(build))
}

fn assert_clean(build: impl FnOnce(&mut Module, &mut FunctionBuilder)) {
    let msgs = check(build);
    assert!(msgs.is_empty(), "expected no errors, got {msgs:#?}");
}

fn assert_one(expected: &str, build: impl FnOnce(&mut Module, &mut FunctionBuilder)) {
    let msgs = check(build);
    assert_eq!(msgs, vec![expected.to_string()]);
}

/// `f(%a: A, %b: B) -> R { entry: %r: R = op %a, %b; return %r }`.
fn binary(op: Opcode, a: TypeId, b: TypeId, r: TypeId) -> Vec<String> {
    check(|_, f| {
        let x = f.param("a", a);
        let y = f.param("b", b);
        f.set_return(Some(r));
        let e = f.create_block("entry");
        f.switch_to(e);
        let v = f.binary(op, r, x, y, "r");
        f.ret(Some(v));
    })
}

fn unary(op: Opcode, a: TypeId, r: TypeId) -> Vec<String> {
    check(|_, f| {
        let x = f.param("a", a);
        f.set_return(Some(r));
        let e = f.create_block("entry");
        f.switch_to(e);
        let v = if op == Opcode::Cast { f.cast(r, x, "r") } else { f.unary(op, r, x, "r") };
        f.ret(Some(v));
    })
}

fn none() -> Vec<String> {
    Vec::new()
}

fn one(s: &str) -> Vec<String> {
    vec![s.to_string()]
}

// ---------------------------------------------------------------------------
// A valid module.

#[test]
fn valid_module_with_loops_lets_and_calls_is_clean() {
    let mut m = Module::new("saxpy");
    m.intrinsic_imports.insert("sqrt".into(), "sqrt".into());
    m.function_aliases.insert("root".into(), "sqrt".into());
    m.function_aliases.insert("scale2".into(), "scale".into());
    m.export_all = Some(vec!["saxpy".into(), "scale2".into()]);
    m.constants.insert("N".into(), Constant { ty: I64, value: ConstValue::Int(1024) });
    let f32a = arr(&mut m, DType::Float32, Some(&[None]));
    let f32o = out_arr(&mut m, DType::Float32, Some(&[None]));

    let mut b = FunctionBuilder::new("scale");
    let a = b.param("a", s(DType::Float32));
    let x = b.param("x", s(DType::Float32));
    b.set_return(Some(s(DType::Float32)));
    let e = b.create_block("entry");
    b.switch_to(e);
    let p = b.binary(Opcode::Mul, s(DType::Float32), a, x, "p");
    b.ret(Some(p));
    m.add_function(b.finish());

    let mut b = FunctionBuilder::new("saxpy");
    let a = b.param("a", s(DType::Float32));
    let x = b.param("x", f32a);
    let y = b.param("y", f32o);
    let entry = b.create_block("entry");
    let head = b.create_block("head");
    let body = b.create_block("body");
    let done = b.create_block("done");
    b.switch_to(entry);
    let n = b.dim(x, 0, "n");
    let zero = b.int(I64, 0, "zero");
    let i = b.let_(I64, zero, "i");
    b.br(head);
    b.switch_to(head);
    let more = b.binary(Opcode::Lt, BOOL, i, n, "more");
    b.condbr(more, body, done, Some((2000, 1)));
    b.switch_to(body);
    let xi = b.index_load(s(DType::Float32), x, &[i], "xi");
    let yi = b.index_load(s(DType::Float32), y, &[i], "yi");
    let p = b.call("scale2", &[a, xi], Some(s(DType::Float32)), "p");
    let sum = b.binary(Opcode::Add, s(DType::Float32), p, yi, "sum");
    let wide = b.cast(F64, sum, "wide");
    let r = b.call("root", &[wide], Some(F64), "r");
    let back = b.cast(s(DType::Float32), r, "back");
    b.index_store(y, &[i], back);
    let one = b.int(I64, 1, "one");
    let next = b.binary(Opcode::Add, I64, i, one, "next");
    b.set(i, next);
    b.br(head);
    b.switch_to(done);
    b.ret(None);
    m.add_function(b.finish());

    // A ufunc: "(n),(n)->()" returning its scalar output.
    let f64v = arr(&mut m, DType::Float64, Some(&[None]));
    let mut b = FunctionBuilder::new("rowdot");
    b.set_ufunc_sig(Some(UFuncSignature::parse("(n),(n)->()").unwrap()));
    let pa = b.param("a", f64v);
    let pb = b.param("b", f64v);
    let n = b.core_param("n", I64);
    b.set_return(Some(F64));
    let entry = b.create_block("entry");
    let head = b.create_block("head");
    let body = b.create_block("body");
    let done = b.create_block("done");
    b.switch_to(entry);
    let z = b.const_(F64, Literal::Float(0f64.to_bits()), "z");
    let i0 = b.int(I64, 0, "i0");
    let acc = b.let_(F64, z, "acc");
    let i = b.let_(I64, i0, "i");
    b.br(head);
    b.switch_to(head);
    let more = b.binary(Opcode::Lt, BOOL, i, n, "more");
    b.condbr(more, body, done, None);
    b.switch_to(body);
    let xa = b.index_load(F64, pa, &[i], "xa");
    let xb = b.index_load(F64, pb, &[i], "xb");
    let pr = b.binary(Opcode::Mul, F64, xa, xb, "pr");
    let acc2 = b.binary(Opcode::Add, F64, acc, pr, "acc2");
    b.set(acc, acc2);
    let one = b.int(I64, 1, "one");
    let i2 = b.binary(Opcode::Add, I64, i, one, "i2");
    b.set(i, i2);
    b.br(head);
    b.switch_to(done);
    b.ret(Some(acc));
    m.add_function(b.finish());

    assert_eq!(messages(&m), Vec::<String>::new());
    for f in m.functions.ids() {
        assert!(verify_function(&m, f).is_empty());
    }
    assert!(verify_program(&Program::from_module(m)).is_empty());
}

// ---------------------------------------------------------------------------
// Structure.

#[test]
fn function_needs_a_block() {
    assert_eq!(check(|_, _| {}), one("function `f` has no blocks"));
}

#[test]
fn blocks_are_non_empty_and_end_in_one_terminator() {
    assert_one("block `b` is empty", |_, f| {
        let e = f.create_block("entry");
        f.create_block("b");
        f.switch_to(e);
        f.ret(None);
    });
    assert_one("block `entry` does not end in a terminator", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.int(I64, 1, "x");
    });
    assert_one("terminator `return` before the end of block `entry`", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.ret(None);
        f.ret(None);
    });
    assert_clean(|_, f| {
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        f.br(b);
        f.switch_to(b);
        f.ret(None);
    });
}

#[test]
fn params_only_at_the_front() {
    assert_one("%p is a `param` inside block `entry`", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Param, Some(I64), [0, 0], Some("p"));
        f.ret(None);
    });
    // A parameter slot holding something else.
    let mut m = module_with(|_, f| {
        f.param("p", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.ret(None);
    });
    m.functions[FuncId::from_u32(0)].body.tags[ValueId::from_u32(0)] = Opcode::Const;
    assert_eq!(messages(&m), one("function `f`: parameter 0 is a `const`, expected a `param`"));
}

#[test]
fn block_ranges_cover_the_instructions_in_order() {
    let build = |_: &mut Module, f: &mut FunctionBuilder| {
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        f.br(b);
        f.switch_to(b);
        f.ret(None);
    };
    let mut m = module_with(build);
    let body = &mut m.functions[FuncId::from_u32(0)].body;
    body.blocks[BlockId::from_u32(1)].start = 0;
    assert_eq!(messages(&m), one("block `b` starts at instruction 0, expected 1"));

    let mut m = module_with(build);
    let body = &mut m.functions[FuncId::from_u32(0)].body;
    body.blocks[BlockId::from_u32(1)].end = 7;
    assert_eq!(messages(&m), one("block `b` has an invalid instruction range 1..7"));

    let mut m = module_with(build);
    let body = &mut m.functions[FuncId::from_u32(0)].body;
    body.blocks.raw_mut().pop();
    assert_eq!(
        messages(&m),
        vec!["instructions 1..2 of function `f` lie outside every block", "`br` targets unknown block 1"]
    );

    assert!(messages(&module_with(build)).is_empty());
}

#[test]
fn branch_targets_in_range_and_never_the_entry() {
    let mut m = module_with(|_, f| {
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        f.br(b);
        f.switch_to(b);
        f.ret(None);
    });
    m.functions[FuncId::from_u32(0)].body.ops[ValueId::from_u32(0)][0] = 9;
    assert_eq!(messages(&m), one("`br` targets unknown block 9"));
    m.functions[FuncId::from_u32(0)].body.ops[ValueId::from_u32(0)][0] = u32::MAX;
    assert_eq!(messages(&m), one("`br` targets unknown block 4294967295"));

    assert_one("`condbr` targets the entry block `entry`", |_, f| {
        let c = f.param("c", BOOL);
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        f.condbr(c, e, b, None);
        f.switch_to(b);
        f.ret(None);
    });
}

// ---------------------------------------------------------------------------
// Values.

#[test]
fn operands_in_range_and_with_a_result() {
    let mut m = module_with(|_, f| {
        f.set_return(Some(I64));
        let e = f.create_block("entry");
        f.switch_to(e);
        let one = f.int(I64, 1, "one");
        let r = f.binary(Opcode::Add, I64, one, one, "r");
        f.ret(Some(r));
    });
    assert!(messages(&m).is_empty());
    m.functions[FuncId::from_u32(0)].body.ops[ValueId::from_u32(1)][1] = 40;
    assert_eq!(messages(&m), one("`add` %r uses out-of-range value id 40"));
    m.functions[FuncId::from_u32(0)].body.ops[ValueId::from_u32(1)][1] = u32::MAX;
    assert_eq!(messages(&m), one("`add` %r uses out-of-range value id 4294967295"));

    assert_one("`add` %r uses `store` (instruction 3), which has no result", |m, f| {
        let a = arr(m, DType::Int64, None);
        let x = f.param("x", a);
        let e = f.create_block("entry");
        f.switch_to(e);
        let off = f.int(I64, 0, "off");
        let v = f.int(I64, 0, "v");
        let st = f.store(x, off, v);
        f.binary(Opcode::Add, I64, st, v, "r");
        f.ret(None);
    });
}

#[test]
fn definitions_dominate_uses() {
    // %t is defined in one arm of a diamond and used at the merge.
    let diamond = |use_in_merge: bool| {
        check(move |_, f| {
            let c = f.param("c", BOOL);
            f.set_return(Some(I64));
            let e = f.create_block("entry");
            let l = f.create_block("left");
            let r = f.create_block("right");
            let j = f.create_block("join");
            f.switch_to(e);
            let z = f.int(I64, 0, "z");
            f.condbr(c, l, r, None);
            f.switch_to(l);
            let t = f.int(I64, 1, "t");
            f.br(j);
            f.switch_to(r);
            f.br(j);
            f.switch_to(j);
            let v = if use_in_merge { t } else { z };
            let s = f.binary(Opcode::Add, I64, v, z, "s");
            f.ret(Some(s));
        })
    };
    assert_eq!(diamond(true), one("definition of %t does not dominate its use in `add` %s"));
    assert_eq!(diamond(false), none());

    // In one block, a use before its definition.
    let mut m = module_with(|_, f| {
        f.set_return(Some(I64));
        let e = f.create_block("entry");
        f.switch_to(e);
        let a = f.int(I64, 1, "a");
        let b = f.binary(Opcode::Add, I64, a, a, "b");
        f.ret(Some(b));
    });
    let body = &mut m.functions[FuncId::from_u32(0)].body;
    body.ops[ValueId::from_u32(1)] = [1, 1];
    assert_eq!(
        messages(&m),
        vec![
            "definition of %b does not dominate its use in `add` %b".to_string(),
            "definition of %b does not dominate its use in `add` %b".to_string(),
        ]
    );

    // Uses in unreachable blocks are not checked.
    assert_clean(|_, f| {
        let e = f.create_block("entry");
        let dead = f.create_block("dead");
        let late = f.create_block("late");
        f.switch_to(e);
        f.ret(None);
        f.switch_to(dead);
        let x = f.int(I64, 1, "x");
        f.br(late);
        f.switch_to(late);
        f.binary(Opcode::Add, I64, x, x, "y");
        f.ret(None);
    });
}

#[test]
fn let_dominates_reads_and_sets() {
    let build = |set_in_entry: bool| {
        check(move |_, f| {
            let c = f.param("c", BOOL);
            let e = f.create_block("entry");
            let a = f.create_block("a");
            let b = f.create_block("b");
            f.switch_to(e);
            let z = f.int(I64, 0, "z");
            let l = if set_in_entry { Some(f.let_(I64, z, "i")) } else { None };
            f.condbr(c, a, b, None);
            f.switch_to(a);
            let l = l.unwrap_or_else(|| f.let_(I64, z, "i"));
            f.ret(None);
            f.switch_to(b);
            f.set(l, z);
            f.ret(None);
        })
    };
    assert_eq!(build(false), one("definition of %i does not dominate its use in `set`"));
    assert_eq!(build(true), none());
}

#[test]
fn set_targets_a_let_or_a_parameter() {
    let build = |target_let: bool| {
        check(move |_, f| {
            let p = f.param("p", I64);
            let e = f.create_block("entry");
            f.switch_to(e);
            let z = f.int(I64, 0, "z");
            let t = if target_let { f.let_(I64, z, "l") } else { z };
            f.set(t, p);
            f.set(p, z);
            f.ret(None);
        })
    };
    assert_eq!(build(false), one("`set`: target %z is not a `let` local or a parameter"));
    assert_eq!(build(true), none());

    let build = |target_let: bool| {
        check(move |_, f| {
            let p = f.param("p", s(DType::Complex128));
            let e = f.create_block("entry");
            f.switch_to(e);
            let re = f.getfield(F64, p, Field::Real, "re");
            let t =
                if target_let { f.let_(s(DType::Complex128), p, "l") } else { f.cast(s(DType::Complex128), re, "c") };
            f.setfield(t, Field::Imag, re);
            f.ret(None);
        })
    };
    assert_eq!(build(false), one("`setfield`: target %c is not a `let` local or a parameter"));
    assert_eq!(build(true), none());
}

#[test]
fn result_names_present_and_unique() {
    assert_one("duplicate value name %x", |_, f| {
        f.param("x", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.int(I64, 1, "x");
        f.ret(None);
    });
    assert_one("`const` has no result name", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Const, Some(I64), [1, 0], None);
        f.ret(None);
    });
    assert_one("`const` %k has no result type", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Const, None, [1, 0], Some("k"));
        f.ret(None);
    });
    assert_one("`return` cannot have a result", |_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Return, Some(I64), [u32::MAX, 0], None);
    });
}

// ---------------------------------------------------------------------------
// Types of operators.

#[test]
fn arithmetic() {
    for op in [Opcode::Add, Opcode::Sub, Opcode::Mul] {
        assert_eq!(binary(op, I64, I64, I64), none());
        assert_eq!(binary(op, s(DType::UInt8), s(DType::UInt8), s(DType::UInt8)), none());
        assert_eq!(binary(op, F64, F64, F64), none());
        let c = s(DType::Complex64);
        assert_eq!(binary(op, c, c, c), none());
        let m = op.mnemonic();
        assert_eq!(binary(op, BOOL, BOOL, BOOL), one(&format!("`{m}` %r: not defined on Bool")));
        assert_eq!(binary(op, I64, F64, F64), one(&format!("`{m}` %r: operand types Int64 and Float64 differ")));
        assert_eq!(binary(op, I64, I64, F64), one(&format!("`{m}` %r: result type is Float64, expected Int64")));
    }
    assert_eq!(binary(Opcode::Add, TypeId::STR, TypeId::STR, TypeId::STR), none());
    let by = s(DType::Bytes);
    assert_eq!(binary(Opcode::Add, by, by, by), none());
    assert_eq!(binary(Opcode::Sub, TypeId::STR, TypeId::STR, TypeId::STR), one("`sub` %r: not defined on Str"));
    let mut m = Module::new("x");
    let a = arr(&mut m, DType::Int64, None);
    let msgs = check(|m, f| {
        let a = arr(m, DType::Int64, None);
        let x = f.param("a", a);
        let y = f.param("b", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.binary(Opcode::Add, I64, x, y, "r");
        f.ret(None);
    });
    let _ = a;
    assert_eq!(msgs, one("`add` %r: operand %a must be a scalar, got Int64[]"));
}

#[test]
fn division() {
    assert_eq!(binary(Opcode::Div, I64, I64, F64), none());
    assert_eq!(binary(Opcode::Div, s(DType::Int32), s(DType::Int32), s(DType::Float32)), none());
    assert_eq!(binary(Opcode::Div, F64, F64, F64), none());
    let c = s(DType::Complex128);
    assert_eq!(binary(Opcode::Div, c, c, c), none());
    assert_eq!(binary(Opcode::Div, I64, I64, I64), one("`div` %r: integer operands need a float result, got Int64"));
    assert_eq!(
        binary(Opcode::Div, F64, F64, s(DType::Float32)),
        one("`div` %r: result type is Float32, expected Float64")
    );
    assert_eq!(binary(Opcode::Div, BOOL, BOOL, F64), one("`div` %r: not defined on Bool"));

    for op in [Opcode::FDiv, Opcode::Mod] {
        let m = op.mnemonic();
        assert_eq!(binary(op, I64, I64, I64), none());
        assert_eq!(binary(op, F64, F64, F64), none());
        assert_eq!(binary(op, c, c, c), one(&format!("`{m}` %r: not defined on Complex128")));
        assert_eq!(binary(op, I64, I64, F64), one(&format!("`{m}` %r: result type is Float64, expected Int64")));
    }
    assert_eq!(binary(Opcode::Pow, c, c, c), none());
    assert_eq!(binary(Opcode::Pow, I64, I64, I64), none());
    assert_eq!(binary(Opcode::Pow, BOOL, BOOL, BOOL), one("`pow` %r: not defined on Bool"));
}

#[test]
fn comparisons() {
    let c = s(DType::Complex64);
    for op in [Opcode::Eq, Opcode::Ne] {
        assert_eq!(binary(op, c, c, BOOL), none());
        assert_eq!(binary(op, TypeId::STR, TypeId::STR, BOOL), none());
        let m = op.mnemonic();
        assert_eq!(binary(op, I64, I64, I64), one(&format!("`{m}` %r: result type is Int64, expected Bool")));
        assert_eq!(
            binary(op, I64, s(DType::Int32), BOOL),
            one(&format!("`{m}` %r: operand types Int64 and Int32 differ"))
        );
    }
    for op in [Opcode::Lt, Opcode::Le, Opcode::Gt, Opcode::Ge] {
        assert_eq!(binary(op, F64, F64, BOOL), none());
        assert_eq!(binary(op, TypeId::STR, TypeId::STR, BOOL), none());
        let m = op.mnemonic();
        assert_eq!(binary(op, c, c, BOOL), one(&format!("`{m}` %r: not defined on Complex64")));
    }
}

#[test]
fn logic_and_bitwise() {
    for op in [Opcode::And, Opcode::Or] {
        assert_eq!(binary(op, BOOL, BOOL, BOOL), none());
        assert_eq!(binary(op, I64, I64, BOOL), one(&format!("`{}` %r: not defined on Int64", op.mnemonic())));
    }
    assert_eq!(unary(Opcode::Not, BOOL, BOOL), none());
    assert_eq!(unary(Opcode::Not, I64, I64), one("`not` %r: not defined on Int64"));
    for op in [Opcode::BAnd, Opcode::BOr, Opcode::BXor] {
        assert_eq!(binary(op, I64, I64, I64), none());
        assert_eq!(binary(op, BOOL, BOOL, BOOL), none());
        assert_eq!(binary(op, F64, F64, F64), one(&format!("`{}` %r: not defined on Float64", op.mnemonic())));
    }
    for op in [Opcode::Shl, Opcode::Shr] {
        assert_eq!(binary(op, s(DType::UInt16), s(DType::UInt16), s(DType::UInt16)), none());
        assert_eq!(binary(op, BOOL, BOOL, BOOL), one(&format!("`{}` %r: not defined on Bool", op.mnemonic())));
    }
    assert_eq!(unary(Opcode::Inv, I64, I64), none());
    assert_eq!(unary(Opcode::Inv, BOOL, BOOL), one("`inv` %r: not defined on Bool"));
}

#[test]
fn negation_abs_and_cast() {
    assert_eq!(unary(Opcode::Neg, F64, F64), none());
    assert_eq!(unary(Opcode::Neg, s(DType::Complex64), s(DType::Complex64)), none());
    assert_eq!(unary(Opcode::Neg, BOOL, BOOL), one("`neg` %r: not defined on Bool"));
    assert_eq!(unary(Opcode::Neg, I64, F64), one("`neg` %r: result type is Float64, expected Int64"));
    assert_eq!(unary(Opcode::Abs, I64, I64), none());
    assert_eq!(unary(Opcode::Abs, s(DType::Complex64), s(DType::Float32)), none());
    assert_eq!(unary(Opcode::Abs, s(DType::Complex128), F64), none());
    assert_eq!(
        unary(Opcode::Abs, s(DType::Complex128), s(DType::Complex128)),
        one("`abs` %r: result type is Complex128, expected Float64")
    );
    assert_eq!(unary(Opcode::Abs, TypeId::STR, TypeId::STR), one("`abs` %r: not defined on Str"));
    assert_eq!(unary(Opcode::Cast, I64, s(DType::Complex64)), none());
    assert_eq!(unary(Opcode::Cast, F64, BOOL), none());
    assert_eq!(unary(Opcode::Cast, TypeId::STR, I64), one("`cast` %r: cannot cast Str to Int64"));
    assert_eq!(unary(Opcode::Cast, I64, s(DType::Bytes)), one("`cast` %r: cannot cast Int64 to Bytes"));
}

#[test]
fn bitcast_joins_a_float_and_the_unsigned_integer_of_its_width() {
    for (float, bits) in
        [(DType::Float16, DType::UInt16), (DType::Float32, DType::UInt32), (DType::Float64, DType::UInt64)]
    {
        assert_eq!(unary(Opcode::Bitcast, s(float), s(bits)), none());
        assert_eq!(unary(Opcode::Bitcast, s(bits), s(float)), none());
    }
    let wrong = "a bitcast joins a float and the unsigned integer of its width";
    assert_eq!(
        unary(Opcode::Bitcast, F64, I64),
        one(&format!("`bitcast` %r: cannot reinterpret Float64 as Int64: {wrong}"))
    );
    assert_eq!(
        unary(Opcode::Bitcast, s(DType::Float32), s(DType::UInt64)),
        one(&format!("`bitcast` %r: cannot reinterpret Float32 as UInt64: {wrong}"))
    );
    assert_eq!(
        unary(Opcode::Bitcast, s(DType::Complex64), s(DType::UInt64)),
        one(&format!("`bitcast` %r: cannot reinterpret Complex64 as UInt64: {wrong}"))
    );
}

#[test]
fn constants_fit_their_scalar_type() {
    let build = |v: i128| {
        check(move |_, f| {
            let e = f.create_block("entry");
            f.switch_to(e);
            f.push(Opcode::Const, Some(s(DType::UInt8)), [v as u32, 0], Some("k"));
            f.ret(None);
        })
    };
    assert_eq!(build(255), none());
    assert_eq!(build(256), one("`const` %k: literal does not fit UInt8"));
    assert_one("`const` %k: type Int64[] is not a scalar", |m, f| {
        let a = arr(m, DType::Int64, None);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Const, Some(a), [0, 0], Some("k"));
        f.ret(None);
    });
}

// ---------------------------------------------------------------------------
// Arrays.

/// `f(%a: <array>, %o: <offset type>) { %x = load %a, %o; store %a, %o, %x }`.
fn load_store(elem: DType, off: TypeId, result: TypeId) -> Vec<String> {
    check(move |m, f| {
        let a = arr(m, elem, Some(&[None, Some(3)]));
        let pa = f.param("a", a);
        let po = f.param("o", off);
        let e = f.create_block("entry");
        f.switch_to(e);
        let x = f.load(result, pa, po, "x");
        f.store(pa, po, x);
        f.ret(None);
    })
}

#[test]
fn byte_offset_load_and_store() {
    assert_eq!(load_store(DType::Float64, I64, F64), none());
    assert_eq!(
        load_store(DType::Float64, s(DType::Int32), F64),
        vec!["`load` %x: byte offset %o must be Int64, got Int32", "`store`: byte offset %o must be Int64, got Int32"]
    );
    assert_eq!(
        load_store(DType::Float64, I64, s(DType::Float32)),
        vec![
            "`load` %x: result type is Float32, expected Float64",
            "`store`: stored value type is Float32, expected Float64"
        ]
    );
    assert_one("`load` %x: array %a must be an array, got Int64", |_, f| {
        let pa = f.param("a", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.load(I64, pa, pa, "x");
        f.ret(None);
    });
}

#[test]
fn dim_and_stride() {
    let build = |axis: u32| {
        check(move |m, f| {
            let a = arr(m, DType::Float64, Some(&[None, None]));
            let pa = f.param("a", a);
            let e = f.create_block("entry");
            f.switch_to(e);
            f.dim(pa, axis, "n");
            f.stride(pa, axis, "s");
            f.ret(None);
        })
    };
    assert_eq!(build(1), none());
    assert_eq!(
        build(2),
        vec![
            "`dim` %n: axis 2 is out of range for Float64[]Shape[?, ?]",
            "`stride` %s: axis 2 is out of range for Float64[]Shape[?, ?]"
        ]
    );
    assert_one("`dim` %n: result type is Int32, expected Int64", |m, f| {
        let a = arr(m, DType::Float64, None);
        let pa = f.param("a", a);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.push(Opcode::Dim, Some(s(DType::Int32)), [pa.as_u32(), 5], Some("n"));
        f.ret(None);
    });
}

#[test]
fn logical_indexing() {
    let build = |nidx: usize, idx_ty: TypeId, elem: TypeId| {
        check(move |m, f| {
            let a = arr(m, DType::Float64, Some(&[Some(4), None]));
            let pa = f.param("a", a);
            let pi = f.param("i", idx_ty);
            let e = f.create_block("entry");
            f.switch_to(e);
            let idx = vec![pi; nidx];
            let x = f.index_load(elem, pa, &idx, "x");
            f.index_store(pa, &idx, x);
            f.ret(None);
        })
    };
    assert_eq!(build(2, I64, F64), none());
    assert_eq!(build(2, s(DType::UInt8), F64), none());
    assert_eq!(
        build(1, I64, F64),
        vec![
            "`index.load` %x: 1 index for Float64[]Shape[4, ?], expected 2",
            "`index.store`: 1 index for Float64[]Shape[4, ?], expected 2"
        ]
    );
    assert_eq!(
        build(2, F64, F64),
        vec![
            "`index.load` %x: index %i must be an integer scalar, got Float64",
            "`index.load` %x: index %i must be an integer scalar, got Float64",
            "`index.store`: index %i must be an integer scalar, got Float64",
            "`index.store`: index %i must be an integer scalar, got Float64"
        ]
    );
    assert_eq!(
        build(2, I64, I64),
        vec![
            "`index.load` %x: result type is Int64, expected Float64",
            "`index.store`: stored value type is Int64, expected Float64"
        ]
    );
}

#[test]
fn select_alloc_and_fields() {
    let sel = |c: TypeId, a: TypeId, b: TypeId, r: TypeId| {
        check(move |_, f| {
            let pc = f.param("c", c);
            let pa = f.param("a", a);
            let pb = f.param("b", b);
            let e = f.create_block("entry");
            f.switch_to(e);
            f.select(r, pc, pa, pb, "r");
            f.ret(None);
        })
    };
    assert_eq!(sel(BOOL, I64, I64, I64), none());
    assert_eq!(sel(I64, I64, I64, I64), one("`select` %r: condition %c must be Bool, got Int64"));
    assert_eq!(sel(BOOL, I64, F64, I64), one("`select` %r: arms have different types Int64 and Float64"));
    assert_eq!(sel(BOOL, I64, I64, F64), one("`select` %r: result type is Float64, expected Int64"));

    let alloc_of = |len: TypeId, array: bool, d: DType| {
        check(move |m, f| {
            let r = if array { arr(m, d, None) } else { F64 };
            let pn = f.param("n", len);
            let e = f.create_block("entry");
            f.switch_to(e);
            f.alloc(r, &[pn], "buf");
            f.ret(None);
        })
    };
    let alloc = |len: TypeId, array: bool| alloc_of(len, array, DType::Float64);
    assert_eq!(alloc(I64, true), none());
    assert_eq!(alloc_of(I64, true, DType::Bool), none());
    for d in [DType::Str, DType::Bytes] {
        let want = format!("`alloc` %buf: cannot allocate an array of {d}: arrays hold numbers and Bool");
        assert_eq!(alloc_of(I64, true, d), one(&want));
    }
    assert_eq!(alloc(F64, true), one("`alloc` %buf: extent %n must be an integer scalar, got Float64"));
    assert_eq!(alloc(I64, false), one("`alloc` %buf: result type Float64 is not an array"));

    let fields = |agg: TypeId, part: TypeId| {
        check(move |_, f| {
            let pz = f.param("z", agg);
            let pv = f.param("v", part);
            let e = f.create_block("entry");
            f.switch_to(e);
            f.getfield(part, pz, Field::Real, "re");
            f.setfield(pz, Field::Imag, pv);
            f.ret(None);
        })
    };
    assert_eq!(fields(s(DType::Complex64), s(DType::Float32)), none());
    assert_eq!(
        fields(s(DType::Complex64), F64),
        vec![
            "`getfield` %re: result type is Float64, expected Float32",
            "`setfield`: value type is Float64, expected Float32"
        ]
    );
    assert_eq!(
        fields(F64, F64),
        vec![
            "`getfield` %re: %z must be a complex scalar, got Float64",
            "`setfield`: %z must be a complex scalar, got Float64"
        ]
    );
}

#[test]
fn let_and_set_types() {
    let build = |init: TypeId, later: TypeId| {
        check(move |_, f| {
            let a = f.param("a", init);
            let b = f.param("b", later);
            let e = f.create_block("entry");
            f.switch_to(e);
            let l = f.let_(I64, a, "l");
            f.set(l, b);
            f.ret(None);
        })
    };
    assert_eq!(build(I64, I64), none());
    assert_eq!(build(F64, I64), one("`let` %l: value type is Float64, expected Int64"));
    assert_eq!(build(I64, F64), one("`set`: value type is Float64, expected Int64"));
}

// ---------------------------------------------------------------------------
// Calls.

/// A module with `g(%x: Int64, %v: Float64[]Shape[?, 3]) -> Float64` and a
/// caller `f` that `build` writes.
fn with_callee(build: impl FnOnce(&mut Module, &mut FunctionBuilder)) -> Vec<String> {
    let mut m = Module::new("t");
    m.intrinsic_imports.insert("sin".into(), "sin".into());
    m.boundary_imports.insert(
        "asarray".into(),
        ImportedName { local_name: "asarray".into(), module_name: "numpy".into(), source_name: "asarray".into() },
    );
    m.function_aliases.insert("gg".into(), "g".into());
    let v = arr(&mut m, DType::Float64, Some(&[None, Some(3)]));
    let mut g = FunctionBuilder::new("g");
    g.param("x", I64);
    g.param("v", v);
    g.set_return(Some(F64));
    let e = g.create_block("entry");
    g.switch_to(e);
    let z = g.const_(F64, Literal::Float(0), "z");
    g.ret(Some(z));
    m.add_function(g.finish());
    let mut f = FunctionBuilder::new("f");
    build(&mut m, &mut f);
    m.add_function(f.finish());
    messages(&m)
}

fn caller(
    callee: &'static str,
    arg_ty: impl FnOnce(&mut Module) -> Vec<TypeId>,
    ret: Option<TypeId>,
) -> impl FnOnce(&mut Module, &mut FunctionBuilder) {
    move |m, f| {
        let tys = arg_ty(m);
        let args: Vec<ValueId> = tys.iter().enumerate().map(|(i, t)| f.param(&format!("p{i}"), *t)).collect();
        let e = f.create_block("entry");
        f.switch_to(e);
        f.call(callee, &args, ret, "r");
        f.ret(None);
    }
}

#[test]
fn calls_resolve_their_callee() {
    assert_eq!(with_callee(caller("nope", |_| vec![], None)), one("call to unknown function `nope`"));
    assert_eq!(
        with_callee(caller("asarray", |_| vec![I64], None)),
        one("call to boundary import `numpy.asarray` cannot be compiled")
    );
    let g_args = |m: &mut Module| vec![I64, arr(m, DType::Float64, Some(&[None, Some(3)]))];
    assert_eq!(with_callee(caller("g", g_args, Some(F64))), none());
    assert_eq!(with_callee(caller("gg", g_args, Some(F64))), none());
}

#[test]
fn call_arity_and_argument_types() {
    assert_eq!(with_callee(caller("g", |_| vec![I64], Some(F64))), one("call to `g` has 1 argument, expected 2"));
    assert_eq!(
        with_callee(caller("g", |m| vec![F64, arr(m, DType::Float64, None)], Some(F64))),
        one("call to `g`: argument 1 (%p0) has type Float64, expected Int64")
    );
    // Shapes: a `?` accepts any size, a fixed size must match, ndims agree.
    let fits = |dims: Option<&'static [Option<u64>]>| {
        with_callee(caller("g", move |m| vec![I64, arr(m, DType::Float64, dims)], Some(F64)))
    };
    assert_eq!(fits(Some(&[Some(7), Some(3)])), none());
    assert_eq!(fits(None), none());
    assert_eq!(
        fits(Some(&[None, None])),
        one("call to `g`: argument 2 (%p1) has type Float64[]Shape[?, ?], expected Float64[]Shape[?, 3]")
    );
    assert_eq!(
        fits(Some(&[Some(3)])),
        one("call to `g`: argument 2 (%p1) has type Float64[]Shape[3], expected Float64[]Shape[?, 3]")
    );
    // An output array may be passed for an input parameter.
    assert_eq!(
        with_callee(caller("g", |m| vec![I64, out_arr(m, DType::Float64, Some(&[None, Some(3)]))], Some(F64))),
        none()
    );
    // A scalar for an array.
    assert_eq!(
        with_callee(caller("g", |_| vec![I64, F64], Some(F64))),
        one("call to `g`: argument 2 (%p1) has type Float64, expected Float64[]Shape[?, 3]")
    );
}

#[test]
fn call_results() {
    let g_args = |m: &mut Module| vec![I64, arr(m, DType::Float64, Some(&[None, Some(3)]))];
    assert_eq!(with_callee(caller("g", g_args, Some(I64))), one("call to `g`: result type is Int64, expected Float64"));
    assert_eq!(with_callee(caller("g", g_args, None)), one("call to `g` has no result, but `g` returns Float64"));
    assert_eq!(with_callee(caller("f", |_| vec![], Some(I64))), one("call to void function `f` cannot have a result"));
    assert_eq!(with_callee(caller("f", |_| vec![], None)), none());
}

#[test]
fn intrinsic_calls() {
    assert_eq!(with_callee(caller("sin", |_| vec![F64], Some(F64))), none());
    assert_eq!(with_callee(caller("sin", |_| vec![I64, BOOL, s(DType::Complex64)], None)), none());
    assert_eq!(
        with_callee(caller("sin", |_| vec![TypeId::STR], Some(F64))),
        one("call to intrinsic `sin`: argument 1 (%p0) must be a numeric scalar, got Str")
    );
    assert_eq!(
        with_callee(caller("sin", |_| vec![F64], Some(I64))),
        one("call to intrinsic `sin`: result type is Int64, expected a float")
    );
}

// ---------------------------------------------------------------------------
// Terminators.

#[test]
fn returns_match_the_function() {
    let build = |ret: Option<TypeId>, value: Option<TypeId>| {
        check(move |_, f| {
            let p = value.map(|t| f.param("v", t));
            f.set_return(ret);
            let e = f.create_block("entry");
            f.switch_to(e);
            f.ret(p);
        })
    };
    assert_eq!(build(None, None), none());
    assert_eq!(build(Some(I64), Some(I64)), none());
    assert_eq!(build(None, Some(I64)), one("`return` with a value in void function `f`"));
    assert_eq!(build(Some(I64), None), one("bare `return` in function `f` returning Int64"));
    assert_eq!(build(Some(I64), Some(F64)), one("`return`: value type is Float64, expected Int64"));
}

#[test]
fn condbr_on_bool() {
    let build = |t: TypeId| {
        check(move |_, f| {
            let c = f.param("c", t);
            let e = f.create_block("entry");
            let a = f.create_block("a");
            f.switch_to(e);
            f.condbr(c, a, a, None);
            f.switch_to(a);
            f.ret(None);
        })
    };
    assert_eq!(build(BOOL), none());
    assert_eq!(build(I64), one("`condbr`: condition %c must be Bool, got Int64"));
}

// ---------------------------------------------------------------------------
// Functions.

fn ufunc(
    sig: &str,
    params: impl FnOnce(&mut Module) -> Vec<TypeId>,
    core: &[TypeId],
    ret: Option<TypeId>,
) -> Vec<String> {
    let sig = UFuncSignature::parse(sig).unwrap();
    let core = core.to_vec();
    check(move |m, f| {
        f.set_ufunc_sig(Some(sig));
        for (i, t) in params(m).into_iter().enumerate() {
            f.param(&format!("p{i}"), t);
        }
        for (i, t) in core.into_iter().enumerate() {
            f.core_param(&format!("d{i}"), t);
        }
        f.set_return(ret);
        let e = f.create_block("entry");
        f.switch_to(e);
        match ret {
            Some(t) => {
                let z = f.cast(t, ValueId::from_u32(0), "z");
                f.ret(Some(z));
            }
            None => {
                f.ret(None);
            }
        }
    })
}

#[test]
fn ufunc_parameters_match_the_signature() {
    let v = |m: &mut Module| arr(m, DType::Float64, Some(&[None]));
    let mat = |m: &mut Module| arr(m, DType::Float64, Some(&[None, None]));
    let omat = |m: &mut Module| out_arr(m, DType::Float64, Some(&[None, None]));
    // rowdot: the `()` output is returned.
    assert_eq!(
        ufunc("(n),(n)->()", |m| vec![v(m), v(m)], &[I64], Some(F64)),
        one("`cast` %z: cannot cast Float64[]Shape[?] to Float64")
    );
    assert_eq!(ufunc("(),()->()", |_| vec![F64, F64], &[], Some(F64)), none());
    // matmul: outputs are `&` arrays.
    assert_eq!(ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), mat(m), omat(m)], &[I64, I64, I64], None), none());
    assert_eq!(
        ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), mat(m)], &[I64, I64, I64], None),
        one("ufunc `f` has 2 parameters, its signature `(m,k),(k,n)->(m,n)` needs 3")
    );
    assert_eq!(
        ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), mat(m), mat(m)], &[I64, I64, I64], None),
        one("ufunc `f`: output parameter %p2 must be an `&` array, got Float64[]Shape[?, ?]")
    );
    assert_eq!(
        ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), v(m), omat(m)], &[I64, I64, I64], None),
        one("ufunc `f`: parameter %p1 has 1 dimension, core shape `(k,n)` has 2")
    );
    assert_eq!(
        ufunc("(),()->()", |m| vec![F64, v(m)], &[], Some(F64)),
        one("ufunc `f`: parameter %p1 must be a scalar for core shape `()`, got Float64[]Shape[?]")
    );
    assert_eq!(
        ufunc("(n),()->()", |_| vec![F64, F64], &[I64], Some(F64)),
        one("ufunc `f`: parameter %p0 must be an array for core shape `(n)`, got Float64")
    );
    // A void ufunc with a `()` output takes it as a `&` array.
    let o0 = |m: &mut Module| out_arr(m, DType::Float64, None);
    assert_eq!(ufunc("(),()->()", |m| vec![F64, F64, o0(m)], &[], None), none());
    assert_eq!(
        ufunc("(),()->(),()", |_| vec![F64, F64], &[], Some(F64)),
        vec![
            "ufunc `f` returns a value, but its signature `(),()->(),()` does not have exactly one `()` output"
                .to_string(),
            "ufunc `f` has 2 parameters, its signature `(),()->(),()` needs 4".to_string(),
        ]
    );
}

#[test]
fn ufunc_core_dimension_parameters() {
    let mat = |m: &mut Module| arr(m, DType::Float64, Some(&[None, None]));
    let omat = |m: &mut Module| out_arr(m, DType::Float64, Some(&[None, None]));
    assert_eq!(
        ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), mat(m), omat(m)], &[I64], None),
        one("ufunc `f` has 1 core-dimension parameter, its signature `(m,k),(k,n)->(m,n)` has 3 core dimensions")
    );
    assert_eq!(
        ufunc("(m,k),(k,n)->(m,n)", |m| vec![mat(m), mat(m), omat(m)], &[I64, F64, s(DType::UInt32)], None),
        one("ufunc `f`: core-dimension parameter %d1 must be an integer scalar, got Float64")
    );
    assert_one("function `f` has core-dimension parameters but no ufunc signature", |_, f| {
        f.core_param("n", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.ret(None);
    });
}

#[test]
fn function_attributes() {
    let build = |attrs: FuncAttrs, ret: Option<TypeId>| {
        check(move |_, f| {
            f.set_attrs(attrs);
            f.set_return(ret);
            let e = f.create_block("entry");
            f.switch_to(e);
            match ret {
                Some(t) => {
                    let z = f.int(t, 0, "z");
                    f.ret(Some(z));
                }
                None => {
                    f.ret(None);
                }
            }
        })
    };
    assert_eq!(build(FuncAttrs::KERNEL | FuncAttrs::GPU, None), none());
    assert_eq!(
        build(FuncAttrs::KERNEL, Some(I64)),
        one("`kernel` function `f` must not return a value, returns Int64")
    );
    assert_eq!(build(FuncAttrs::GPU_FALLBACK, None), none());
    assert_eq!(
        build(FuncAttrs::GPU | FuncAttrs::GPU_FALLBACK, None),
        one("function `f` cannot be both `gpu` and `gpu(fallback)`")
    );
}

// ---------------------------------------------------------------------------
// Module declarations.

fn trivial(name: &str) -> Function {
    let mut b = FunctionBuilder::new(name);
    let e = b.create_block("entry");
    b.switch_to(e);
    b.ret(None);
    b.finish()
}

#[test]
fn module_declarations() {
    let mut m = Module::new("t");
    m.add_function(trivial("f"));
    m.intrinsic_imports.insert("sqrt".into(), "sqrt".into());
    m.function_aliases.insert("a".into(), "f".into());
    m.function_aliases.insert("b".into(), "sqrt".into());
    m.export_all = Some(vec!["f".into(), "a".into()]);
    m.constants.insert("K".into(), Constant { ty: s(DType::Int8), value: ConstValue::Int(127) });
    assert!(messages(&m).is_empty());

    let mut bad = m.clone();
    bad.export_all = Some(vec!["f".into(), "g".into()]);
    assert_eq!(messages(&bad), one("export `g` names no function or alias"));

    let mut bad = m.clone();
    bad.function_aliases.insert("c".into(), "nothing".into());
    assert_eq!(messages(&bad), one("alias `c` refers to unknown name `nothing`"));

    let mut bad = m.clone();
    bad.function_aliases.insert("x".into(), "y".into());
    bad.function_aliases.insert("y".into(), "x".into());
    assert_eq!(messages(&bad), vec!["alias `x` is part of a cycle", "alias `y` is part of a cycle"]);

    let mut bad = m.clone();
    bad.add_function(trivial("f"));
    assert_eq!(messages(&bad), one("function `f` is defined more than once"));

    let mut bad = m.clone();
    bad.constants.insert("L".into(), Constant { ty: s(DType::Int8), value: ConstValue::Int(128) });
    assert_eq!(messages(&bad), one("constant `L`: literal does not fit Int8"));

    let mut bad = m.clone();
    let a = arr(&mut bad, DType::Int8, None);
    bad.constants.insert("L".into(), Constant { ty: a, value: ConstValue::Int(1) });
    assert_eq!(messages(&bad), one("constant `L` has non-scalar type Int8[]"));
}

// ---------------------------------------------------------------------------
// Programs.

fn program(call_args: usize, source: &str) -> Program {
    let mut lib = Module::new("linalg.core");
    let mut g = FunctionBuilder::new("dot");
    g.param("x", F64);
    g.param("y", F64);
    g.set_return(Some(F64));
    let e = g.create_block("entry");
    g.switch_to(e);
    let z = g.const_(F64, Literal::Float(0), "z");
    g.ret(Some(z));
    lib.add_function(g.finish());
    lib.function_aliases.insert("inner".into(), "dot".into());

    let mut app = Module::new("app");
    app.add_post_import(ImportedName {
        local_name: "vdot".into(),
        module_name: "linalg.core".into(),
        source_name: source.into(),
    });
    let mut f = FunctionBuilder::new("f");
    let a = f.param("a", F64);
    f.set_return(Some(F64));
    let e = f.create_block("entry");
    f.switch_to(e);
    let args = vec![a; call_args];
    let r = f.call("vdot", &args, Some(F64), "r");
    f.ret(Some(r));
    app.add_function(f.finish());

    let mut p = Program::default();
    p.modules.push(app);
    p.modules.push(lib);
    p.link_dependencies();
    p
}

fn program_messages(p: &Program) -> Vec<String> {
    verify_program(p).into_iter().map(|d| d.message).collect()
}

#[test]
fn post_imports_resolve_across_modules() {
    assert_eq!(program_messages(&program(2, "dot")), none());
    assert_eq!(program_messages(&program(2, "inner")), none());
    // The module alone does not know the callee's signature.
    assert!(verify_module(&program(1, "dot").modules[ModuleId::from_u32(0)]).is_empty());
    assert_eq!(program_messages(&program(1, "dot")), one("call to `vdot` has 1 argument, expected 2"));
    assert_eq!(program_messages(&program(1, "inner")), one("call to `vdot` has 1 argument, expected 2"));
    assert_eq!(
        program_messages(&program(2, "cross")),
        one("post import `vdot`: module `linalg.core` has no function or alias `cross`")
    );
    let mut p = program(2, "dot");
    p.modules.raw_mut().pop();
    assert_eq!(program_messages(&p), one("post import `vdot`: module `linalg.core` is not part of the program"));
}

// ---------------------------------------------------------------------------
// Robustness and reporting.

#[test]
fn malformed_payloads_are_reported_not_panicked_on() {
    let mut m = module_with(|m, f| {
        let a = arr(m, DType::Float64, None);
        let pa = f.param("a", a);
        let c = f.param("c", BOOL);
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        let i = f.int(I64, 0, "i");
        let x = f.index_load(F64, pa, &[i], "x");
        f.index_store(pa, &[i], x);
        f.call("f", &[pa, c], None, "");
        f.getfield(F64, x, Field::Real, "g");
        f.condbr(c, b, b, None);
        f.switch_to(b);
        f.ret(None);
    });
    // Point every extra index far away.
    let body = &mut m.functions[FuncId::from_u32(0)].body;
    for v in 2..7 {
        body.ops[ValueId::from_u32(v)][1] = 1_000_000;
    }
    body.ops[ValueId::from_u32(7)][1] = u32::MAX;
    let msgs = messages(&m);
    assert_eq!(
        msgs,
        vec![
            "malformed `index.load` %x instruction",
            "malformed `index.store` instruction",
            "malformed `call` instruction",
            "malformed `getfield` %g instruction",
            "malformed `condbr` instruction",
        ]
    );
}

#[test]
fn garbage_everywhere_never_panics() {
    let base = module_with(|m, f| {
        let a = arr(m, DType::Float64, Some(&[None]));
        let pa = f.param("a", a);
        let c = f.param("c", BOOL);
        let e = f.create_block("entry");
        let b = f.create_block("b");
        f.switch_to(e);
        let i = f.int(I64, 0, "i");
        let x = f.index_load(F64, pa, &[i], "x");
        let y = f.binary(Opcode::Add, F64, x, x, "y");
        f.index_store(pa, &[i], y);
        let l = f.let_(F64, y, "l");
        f.set(l, x);
        let o = f.stride(pa, 0, "o");
        let w = f.load(F64, pa, o, "w");
        f.store(pa, o, w);
        let sel = f.select(F64, c, x, w, "sel");
        f.call("f", &[pa, c], None, "");
        f.const_(s(DType::Complex64), Literal::Complex(1, 2), "z");
        f.condbr(c, b, b, Some((1, 2)));
        f.switch_to(b);
        f.ret(Some(sel));
    });
    let garbage = [0u32, 1, 2, 3, 7, 30, 1 << 20, u32::MAX - 1, u32::MAX];
    let n = base.functions[FuncId::from_u32(0)].body.num_insts();
    let mut count = 0;
    for v in 0..n {
        for slot in 0..2 {
            for &g in &garbage {
                let mut m = base.clone();
                m.functions[FuncId::from_u32(0)].body.ops[ValueId::new(v)][slot] = g;
                let _ = verify_module(&m);
                count += 1;
            }
        }
        for &g in &garbage {
            let mut m = base.clone();
            m.functions[FuncId::from_u32(0)].body.types[ValueId::new(v)] = Some(TypeId::from_u32(g.min(u32::MAX - 1)));
            let _ = verify_module(&m);
            let mut m = base.clone();
            m.functions[FuncId::from_u32(0)].body.tags[ValueId::new(v)] = Opcode::ALL[g as usize % Opcode::ALL.len()];
            let _ = verify_module(&m);
        }
    }
    for e in 0..base.functions[FuncId::from_u32(0)].body.extra.len() {
        for &g in &garbage {
            let mut m = base.clone();
            m.functions[FuncId::from_u32(0)].body.extra[e] = g;
            let _ = verify_module(&m);
        }
    }
    for &g in &garbage {
        for which in 0..4 {
            let mut m = base.clone();
            let body = &mut m.functions[FuncId::from_u32(0)].body;
            match which {
                0 => body.blocks[BlockId::from_u32(0)].start = g,
                1 => body.blocks[BlockId::from_u32(1)].end = g,
                2 => body.num_params = g,
                _ => body.num_core = g,
            }
            let _ = verify_module(&m);
        }
    }
    let mut m = base.clone();
    m.functions[FuncId::from_u32(0)].body.names.raw_mut().pop();
    assert_eq!(messages(&m), one("function `f` has instruction columns of different lengths"));
    assert!(count > 100);
}

#[test]
fn errors_are_located_and_capped() {
    let mut m = Module::new("t");
    let file = m.files.intern("kernels.py");
    let mut b = FunctionBuilder::new("f");
    b.set_func_loc(Some(SrcLoc { file, line: 1, col: 1, implicit: false }));
    let e = b.create_block("entry");
    b.switch_to(e);
    for i in 0..(diag::MAX_ERRORS as u32 + 5) {
        b.set_loc(Some(SrcLoc { file, line: 10 + i, col: 5, implicit: false }));
        let t = b.binary(Opcode::Add, BOOL, ValueId::from_u32(0), ValueId::from_u32(0), &format!("t{i}"));
        let _ = t;
    }
    b.set_loc(None);
    b.ret(None);
    m.add_function(b.finish());
    let d = verify_module(&m);
    assert_eq!(d.len(), diag::MAX_ERRORS);
    assert_eq!(d[0].to_string(), "kernels.py:10:5: error: definition of %t0 does not dominate its use in `add` %t0");
    assert_eq!(d[1].pos.as_ref().unwrap().line, 10);
    assert_eq!(d[2].pos.as_ref().unwrap().line, 11);
    assert_eq!(d[2].message, "`add` %t1: not defined on Bool");
}

#[test]
fn detached_functions_verify_without_their_module() {
    let m = module_with(|_, f| {
        let e = f.create_block("entry");
        f.switch_to(e);
        f.call("anything", &[], None, "");
        let one = f.int(I64, 1, "one");
        f.binary(Opcode::Add, BOOL, one, one, "r");
        f.ret(None);
    });
    let f = &m.functions[FuncId::from_u32(0)];
    let d: Vec<String> = verify::verify_function_in(&m.types, &m.files, f).into_iter().map(|d| d.message).collect();
    assert_eq!(d, one("`add` %r: result type is Bool, expected Int64"));
    assert_eq!(
        messages(&m),
        vec!["call to unknown function `anything`", "`add` %r: result type is Bool, expected Int64"]
    );
}

#[test]
fn raw_addresses_only_in_compiler_made_functions() {
    // `f(%p) { %x: Float64 = raw.load %p; raw.store %p, %x }`, compiler-made
    // or not.
    let build = |compiler_made: bool| {
        check(move |_, f| {
            if compiler_made {
                f.set_attrs(FuncAttrs::COMPILER_MADE);
            }
            let p = f.param("p", I64);
            let e = f.create_block("entry");
            f.switch_to(e);
            let x = f.raw_load(F64, p, "x");
            f.raw_store(p, x);
            f.ret(None);
        })
    };
    let refused = |op: &str| {
        format!("`{op}` is allowed only in functions the compiler makes (`compiler`): it works on raw addresses; `f` is not one")
    };
    assert_eq!(build(false), vec![refused("raw.load"), refused("raw.store")]);
    assert_eq!(build(true), Vec::<String>::new());
}

#[test]
fn addresses_and_integers_do_not_mix() {
    // An integer where an address goes, and an address where an integer goes.
    let msgs = check(|_, f| {
        f.set_attrs(FuncAttrs::COMPILER_MADE);
        let p = f.param("p", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        let n = f.raw_read(Opcode::RawWord, p, 0, "n");
        let q = f.raw_read(Opcode::RawPtr, p, 1, "q");
        f.raw_load(F64, n, "x");
        f.binary(Opcode::Add, I64, q, n, "sum");
        let at = f.raw_offset(q, n, "at");
        f.raw_offset(at, q, "bad");
        f.ret(None);
    });
    assert_eq!(
        msgs,
        vec![
            "`raw.load` %x: %n is not an address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or `raw.slot`)",
            "`add` %sum: %q is an address, usable only as the address of a `raw` instruction",
            "`raw.offset` %bad: %q is an address, usable only as the address of a `raw` instruction",
        ]
    );
}

#[test]
fn views_over_raw_addresses_only_in_compiler_made_functions() {
    // `f(%p)`: a 3-element view at %p, the address of its element 0, and a
    // load through that address, compiler-made or not.
    let build = |compiler_made: bool| {
        check(move |m, f| {
            let t = arr(m, DType::Float64, Some(&[Some(3)]));
            if compiler_made {
                f.set_attrs(FuncAttrs::COMPILER_MADE);
            }
            let p = f.param("p", I64);
            let e = f.create_block("entry");
            f.switch_to(e);
            let zero = f.int(I64, 0, "zero");
            let three = f.int(I64, 3, "three");
            let eight = f.int(I64, 8, "eight");
            let a = f.raw_view(t, p, zero, &[three], &[eight], "a");
            let at = f.raw_data(a, "at");
            f.raw_load(F64, at, "x");
            f.ret(None);
        })
    };
    let refused = |op: &str| {
        format!("`{op}` is allowed only in functions the compiler makes (`compiler`): it works on raw addresses; `f` is not one")
    };
    assert_eq!(build(false), vec![refused("raw.view"), refused("raw.data"), refused("raw.load")]);
    assert_eq!(build(true), Vec::<String>::new());
}

#[test]
fn raw_views_take_an_address_and_give_an_array_of_their_rank() {
    let msgs = check(|m, f| {
        let t = arr(m, DType::Float64, Some(&[None, None]));
        f.set_attrs(FuncAttrs::COMPILER_MADE);
        let p = f.param("p", I64);
        let e = f.create_block("entry");
        f.switch_to(e);
        let n = f.raw_read(Opcode::RawWord, p, 0, "n");
        f.raw_view(t, n, n, &[n, n], &[n, n], "from_integer");
        f.raw_view(t, p, n, &[n], &[n], "one_axis");
        f.raw_view(F64, p, n, &[n], &[n], "scalar");
        f.raw_data(p, "of_address");
        f.ret(None);
    });
    assert_eq!(
        msgs,
        vec![
            "`raw.view` %one_axis: result type Float64[]Shape[?, ?] must have 1 axis",
            "`raw.view` %scalar: result type Float64 must be an array of numbers or Bool",
            "`raw.data` %of_address: operand %p must be an array, got Int64",
            "`raw.view` %from_integer: %n is not an address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or `raw.slot`)",
            "`raw.data` %of_address: %p is an address, usable only as the address of a `raw` instruction",
        ]
    );
}

/// `raw.isnull` tests an address (never an integer) and gives a Bool.
#[test]
fn null_tests_take_an_address_and_give_a_bool() {
    let text = "module t\n\
                func f(%p: Int64) compiler {\n\
                entry:\n  %n: Int64 = raw.word %p, 0\n  %ok: Bool = raw.isnull %p\n\
                \x20 %of_integer: Bool = raw.isnull %n\n  %not_bool: Int64 = raw.isnull %p\n  return\n}\n";
    let m = postc_ir::parse::parse_str("t.pir", text).expect("parses");
    assert_eq!(
        messages(&m),
        vec![
            "`raw.isnull` %not_bool: result type is Int64, expected Bool",
            "`raw.isnull` %of_integer: %n is not an address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or `raw.slot`)",
        ]
    );
}

#[test]
fn compiler_made_parameters_are_addresses() {
    assert_one("%x of compiler-made function `f` must be Int64: every parameter is an address", |_, f| {
        f.set_attrs(FuncAttrs::COMPILER_MADE);
        f.param("x", F64);
        let e = f.create_block("entry");
        f.switch_to(e);
        f.ret(None);
    });
}

/// `raw.field` names one of a DLTensor's nine fields and gives an address;
/// `raw.setword` stores an `Int64`, `raw.setptr` an address (the one place
/// besides a compiler-made callee's arguments where an address goes
/// second); none of them outside a compiler-made function.
#[test]
fn tensor_fields_and_word_stores_keep_addresses_apart() {
    let text = "module t\n\
                func f(%t: Int64, %w: Int64) compiler {\n\
                entry:\n  %shape: Int64 = raw.field %t, 6\n  %no: Int64 = raw.field %t, 9\n\
                \x20 %n: Int64 = raw.word %shape, 0\n  %slot: Int64 = raw.slot %w, 1\n\
                \x20 raw.setword %slot, %n\n  raw.setptr %slot, %shape\n\
                \x20 raw.setptr %slot, %n\n  raw.setword %slot, %shape\n  %x: Float64 = const 1.0\n\
                \x20 raw.setword %slot, %x\n  return\n}\n\
                func g(%t: Int64) {\n\
                entry:\n  %d: Int64 = raw.field %t, 0\n  return\n}\n";
    let m = postc_ir::parse::parse_str("t.pir", text).expect("parses");
    assert_eq!(
        messages(&m),
        vec![
            "`raw.field` %no: a DLTensor has no field 9 (0 to 8)",
            "`raw.setword`: stored value %x must be Int64, got Float64",
            "`raw.setptr`: %n is not an address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or `raw.slot`)",
            "`raw.setword`: %shape is an address, usable only as the address of a `raw` instruction",
            "`raw.field` is allowed only in functions the compiler makes (`compiler`): it works on raw addresses; `g` is not one",
        ]
    );
}
