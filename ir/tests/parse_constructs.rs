//! What the parser builds for each construct of the text format.

use postc_ir::body::InstData;
use postc_ir::parse::{parse_module, parse_str};
use postc_ir::print::print_module;
use postc_ir::{BlockId, DType, FuncAttrs, FuncId, Literal, Module, Opcode, ValueId};

fn parse(src: &str) -> Module {
    parse_str("c.pir", src).unwrap_or_else(|d| panic!("{d:?}\n{src}"))
}

fn v(i: u32) -> ValueId {
    ValueId::from_u32(i)
}

fn f0(m: &Module) -> &postc_ir::Function {
    &m.functions[FuncId::from_u32(0)]
}

/// Parses, then checks that print → parse gives the same module and that
/// printing is a fixed point.
fn round_trip(m: &Module) {
    let p1 = print_module(m);
    let m2 = parse_str("p.pir", &p1).unwrap_or_else(|d| panic!("{d:?}\n{p1}"));
    assert_eq!(m.structural_diff(&m2), None, "{p1}");
    assert_eq!(print_module(&m2), p1);
}

#[test]
fn header_directives() {
    let m = parse(
        "; leading comment\n\nmodule a.b_c   ; trailing\nimport post linalg.core: dot as vdot, norm\n\
         import intrinsic sqrt = sqrt\nimport boundary numpy: asarray as np_asarray\ndepends linalg.extra\n\
         const N: Int64 = -1024\nconst EPS: Float32 = 1e-7\nconst NAME: Str = \"x\\ty\"\nalias length = norm2\n\
         export norm2, length\nexport more\n",
    );
    assert_eq!(m.name, "a.b_c");
    let imp = &m.post_imports["vdot"];
    assert_eq!((imp.module_name.as_str(), imp.source_name.as_str()), ("linalg.core", "dot"));
    assert_eq!(m.post_imports["norm"].source_name, "norm");
    assert_eq!(m.intrinsic_imports["sqrt"], "sqrt");
    assert_eq!(m.boundary_imports["np_asarray"].source_name, "asarray");
    assert_eq!(m.dependencies.iter().collect::<Vec<_>>(), ["linalg.core", "linalg.extra"]);
    assert_eq!(m.constants["N"].value, postc_ir::ConstValue::Int(-1024));
    assert_eq!(m.constants["EPS"].value, postc_ir::ConstValue::Float(1e-7f32.to_bits() as u64));
    assert_eq!(m.types.dtype(m.constants["EPS"].ty), DType::Float32);
    assert_eq!(m.constants["NAME"].value, postc_ir::ConstValue::Str("x\ty".into()));
    assert_eq!(m.function_aliases["length"], "norm2");
    assert_eq!(m.export_all.as_deref(), Some(&["norm2".to_string(), "length".into(), "more".into()][..]));
    // Declaration locations.
    let l = m.decl_locs.module.unwrap();
    assert_eq!((l.line, l.col, l.implicit), (3, 1, true));
    assert_eq!(m.files.path(l.file), "c.pir");
    let l = m.decl_locs.imports["vdot"];
    assert_eq!((l.line, l.col), (4, 33));
    assert_eq!(m.decl_locs.dependencies["linalg.core"].col, 13);
    assert_eq!(m.decl_locs.dependencies["linalg.extra"].line, 7);
    assert_eq!(m.decl_locs.constants["EPS"].line, 9);
    assert_eq!(m.decl_locs.aliases["length"].col, 7);
    assert_eq!(m.decl_locs.exports.len(), 3);
    round_trip(&m);
}

#[test]
fn empty_export_is_an_empty_list() {
    let m = parse("module t\nexport\n");
    assert_eq!(m.export_all, Some(vec![]));
    round_trip(&m);
    assert_eq!(parse("module t\n").export_all, None);
}

#[test]
fn function_headers() {
    let m = parse(
        "module t\nufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) \
         \"(m,k),(k,n)->(m,n)\" core(%m: Int64, %k: Int64, %n: Int64) gpu(fallback) kernel {\n  doc \"Matrix \\\"product\\\".\"\n\
         entry:\n  return\n}\nfunc fail(%code: Int64) -> Int64 noreturn cold noinline gpu {\nentry:\n  unreachable\n}\n",
    );
    let f = f0(&m);
    assert_eq!(f.name, "matmul");
    assert_eq!(f.ufunc_sig.as_ref().unwrap().to_string(), "(m,k),(k,n)->(m,n)");
    assert_eq!((f.body.num_params, f.body.num_core), (3, 3));
    assert_eq!(m.types.get(f.body.ty(v(2)).unwrap()).to_string(), "&Float64[]Shape[?, ?]");
    assert_eq!(f.body.name(v(4)), Some("k"));
    assert!(matches!(f.body.inst(v(5)), InstData::Param { index: 2, core: true }));
    assert!(f.attrs.contains(FuncAttrs::GPU_FALLBACK) && f.attrs.contains(FuncAttrs::KERNEL));
    assert_eq!(f.doc.as_deref(), Some("Matrix \"product\"."));
    assert_eq!(f.ret, None);
    let l = f.loc.unwrap();
    assert_eq!((l.line, l.col), (2, 1));
    let g = &m.functions[FuncId::from_u32(1)];
    assert_eq!(g.attrs, FuncAttrs::NORETURN | FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::GPU);
    assert_eq!(m.types.dtype(g.ret.unwrap()), DType::Int64);
    assert_eq!(g.loc.unwrap().line, 7);
    round_trip(&m);
}

#[test]
fn every_instruction_decodes() {
    let m = parse(
        "module t
func demo(%a: Float64[]Shape[?, ?]FOrder, %out: &Float64[], %z: Complex128, %s: Str) -> Int64 {
entry:
  %i: Int64 = const 1
  %x: Float64 = index.load %a[%i, %i]
  %y: Float64 = neg %x
  index.store %out[%i], %y
  %st: Int64 = stride %out, 0
  %off: Int64 = mul %i, %st
  %w: Float64 = load %out, %off
  store %out, %off, %w
  %n: Int64 = dim %a, 1
  %big: Bool = gt %n, %i
  %m: Int64 = select %big, %n, %i
  %f: Float32 = cast %w
  %re: Float64 = getfield %z, real
  let %zz: Complex128 = %z
  setfield %zz, imag, %re
  %buf: Float64[] = alloc %n
  %k: Int64 = call helper(%m, %n)
  call sink()
  set %zz = %z
  %e: Float64 = index.load %buf[]
  condbr %big, done, other !weights 2000:1
other:
  br done
done:
  return %k
}
",
    );
    let b = &f0(&m).body;
    use InstData as I;
    let i = v(4);
    assert!(matches!(b.inst(i), I::Const(Literal::Int(1))));
    match b.inst(v(5)) {
        I::IndexLoad { array, indices } => {
            assert_eq!(array, v(0));
            assert_eq!(indices.iter().collect::<Vec<_>>(), [i, i]);
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(b.inst(v(6)), I::Unary { op: Opcode::Neg, operand } if operand == v(5)));
    match b.inst(v(7)) {
        I::IndexStore { array, indices, value } => {
            assert_eq!((array, value), (v(1), v(6)));
            assert_eq!(indices.iter().collect::<Vec<_>>(), [i]);
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(b.inst(v(8)), I::Stride { array, axis: 0 } if array == v(1)));
    assert!(matches!(b.inst(v(9)), I::Binary { op: Opcode::Mul, left, right } if (left, right) == (i, v(8))));
    assert!(matches!(b.inst(v(10)), I::Load { array, offset } if (array, offset) == (v(1), v(9))));
    assert!(
        matches!(b.inst(v(11)), I::Store { array, offset, value } if (array, offset, value) == (v(1), v(9), v(10)))
    );
    assert!(matches!(b.inst(v(12)), I::Dim { axis: 1, .. }));
    assert!(
        matches!(b.inst(v(14)), I::Select { cond, if_true, if_false } if (cond, if_true, if_false) == (v(13), v(12), i))
    );
    assert!(matches!(b.inst(v(15)), I::Cast { operand } if operand == v(10)));
    assert_eq!(m.types.dtype(b.ty(v(15)).unwrap()), DType::Float32);
    assert!(matches!(b.inst(v(16)), I::GetField { field: postc_ir::Field::Real, .. }));
    assert!(matches!(b.inst(v(17)), I::Let { value } if value == v(2)));
    assert_eq!(b.name(v(17)), Some("zz"));
    assert!(
        matches!(b.inst(v(18)), I::SetField { aggregate, field: postc_ir::Field::Imag, value } if (aggregate, value) == (v(17), v(16)))
    );
    assert_eq!(m.types.get(b.ty(v(19)).unwrap()).to_string(), "Float64[]");
    match b.inst(v(20)) {
        I::Call { callee, args } => {
            assert_eq!(callee, "helper");
            assert_eq!(args.iter().collect::<Vec<_>>(), [v(14), v(12)]);
        }
        d => panic!("{d:?}"),
    }
    assert_eq!(b.name(v(20)), Some("k"));
    assert!(matches!(b.inst(v(21)), I::Call { callee: "sink", args } if args.is_empty()));
    assert_eq!((b.ty(v(21)), b.name(v(21))), (None, None));
    assert!(matches!(b.inst(v(22)), I::Set { target, value } if (target, value) == (v(17), v(2))));
    assert!(matches!(b.inst(v(23)), I::IndexLoad { indices, .. } if indices.is_empty()));
    match b.inst(v(24)) {
        I::CondBr { cond, if_true, if_false, weights } => {
            assert_eq!(cond, v(13));
            assert_eq!((b.label(if_true), b.label(if_false)), ("done", "other"));
            assert_eq!(weights, Some((2000, 1)));
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(b.inst(v(25)), I::Br { target } if target == BlockId::from_u32(2)));
    assert!(matches!(b.inst(v(26)), I::Return { value: Some(k) } if k == v(20)));
    assert_eq!(b.blocks.len(), 3);
    round_trip(&m);
}

#[test]
fn forward_references_resolve_at_the_end_of_the_function() {
    let m = parse(
        "module t
func f(%n: Int64) -> Int64 {
entry:
  br head
body:
  %next: Int64 = add %i, %one
  set %i = %next
  br head
head:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  %more: Bool = lt %i, %n
  condbr %more, body, done
done:
  return %i
}
",
    );
    let b = &f0(&m).body;
    // entry: br(1); body: add(2) set(3) br(4); head: zero(5) one(6) let(7) lt(8) condbr(9)
    assert!(matches!(b.inst(v(1)), InstData::Br { target } if b.label(target) == "head"));
    assert!(matches!(b.inst(v(2)), InstData::Binary { left, right, .. } if (left, right) == (v(7), v(6))));
    assert!(matches!(b.inst(v(3)), InstData::Set { target, value } if (target, value) == (v(7), v(2))));
    round_trip(&m);
}

#[test]
fn locations() {
    let m = parse(
        "module t\nfunc f(%a: Int64) -> Int64 {\nentry:\n\t%q: Int64 = fdiv %a, %a !loc \"kernels.py\":12:9\n    \
         %r: Int64 = add %q, %q\n  return %r !loc \"other \\\"x\\\".py\":2000000:5000\n}\n",
    );
    let f = f0(&m);
    let b = &f.body;
    let l = b.loc(v(0)).unwrap();
    assert_eq!((l.line, l.col, l.implicit), (2, 8, true));
    let l = b.loc(v(1)).unwrap();
    assert_eq!((m.files.path(l.file), l.line, l.col, l.implicit), ("kernels.py", 12, 9, false));
    let l = b.loc(v(2)).unwrap();
    assert_eq!((m.files.path(l.file), l.line, l.col, l.implicit), ("c.pir", 5, 5, true));
    let l = b.loc(v(3)).unwrap();
    assert_eq!((m.files.path(l.file), l.line, l.col, l.implicit), ("other \"x\".py", 2000000, 5000, false));
    round_trip(&m);
}

#[test]
fn literals_are_bit_exact() {
    let m = parse(
        "module t
func lits() {
entry:
  %b: Bool = const false
  %i8: Int8 = const -128
  %u64: UInt64 = const 18446744073709551615
  %i64: Int64 = const -9223372036854775808
  %h: Float16 = const 0.0999755859375
  %h2: Float16 = const 65504.0
  %hn: Float16 = const nan:0x7c01
  %f: Float32 = const 0.1
  %fz: Float32 = const -0.0
  %d: Float64 = const -2.5e-300
  %dsub: Float64 = const 5e-324
  %dint: Float64 = const 3
  %inf: Float64 = const -inf
  %qnan: Float64 = const nan
  %nnan: Float64 = const nan:0xfff8000000000000
  %c64: Complex64 = const (1.5-2j)
  %c128: Complex128 = const (nan+infj)
  %cim: Complex128 = const -2.5j
  %cre: Complex128 = const 4.0
  %cn: Complex128 = const (-0.0-nan:0x7ff0000000000001j)
  %s: Str = const \"h\\u{e9}llo \\\"q\\\" \\\\ \\0 \\x7f é\"
  %by: Bytes = const b\"\\x00\\xff\\n\\t\\r\\\\\"
  return
}
",
    );
    let b = &f0(&m).body;
    let lit = |i: u32| match b.inst(v(i)) {
        InstData::Const(l) => l,
        d => panic!("{d:?}"),
    };
    assert_eq!(lit(0), Literal::Bool(false));
    assert_eq!(lit(1), Literal::Int(-128));
    assert_eq!(lit(2), Literal::Int(u64::MAX as i128));
    assert_eq!(lit(3), Literal::Int(i64::MIN as i128));
    assert_eq!(lit(4), Literal::Float(half::f16::from_f64(0.0999755859375).to_bits() as u64));
    assert_eq!(lit(5), Literal::Float(0x7bff));
    assert_eq!(lit(6), Literal::Float(0x7c01));
    assert_eq!(lit(7), Literal::Float(0.1f32.to_bits() as u64));
    assert_eq!(lit(8), Literal::Float(0x8000_0000));
    assert_eq!(lit(9), Literal::Float((-2.5e-300f64).to_bits()));
    assert_eq!(lit(10), Literal::Float(1));
    assert_eq!(lit(11), Literal::Float(3f64.to_bits()));
    assert_eq!(lit(12), Literal::Float(f64::NEG_INFINITY.to_bits()));
    assert_eq!(lit(13), Literal::Float(0x7ff8_0000_0000_0000));
    assert_eq!(lit(14), Literal::Float(0xfff8_0000_0000_0000));
    assert_eq!(lit(15), Literal::Complex(1.5f32.to_bits() as u64, (-2f32).to_bits() as u64));
    assert_eq!(lit(16), Literal::Complex(0x7ff8_0000_0000_0000, f64::INFINITY.to_bits()));
    assert_eq!(lit(17), Literal::Complex(0, (-2.5f64).to_bits()));
    assert_eq!(lit(18), Literal::Complex(4f64.to_bits(), 0));
    assert_eq!(lit(19), Literal::Complex((-0.0f64).to_bits(), 0xfff0_0000_0000_0001));
    assert_eq!(lit(20), Literal::Str("h\u{e9}llo \"q\" \\ \0 \x7f é"));
    assert_eq!(lit(21), Literal::Bytes(b"\x00\xff\n\t\r\\"));
    round_trip(&m);
}

#[test]
fn float32_is_parsed_directly_and_float16_through_f64() {
    // 1.00000005960464477539... is halfway between two f32s in f64 terms;
    // parsing through f64 first would double-round.
    let text = "1.000000059604644775390625000001";
    let m = parse(&format!("module t\nfunc f() {{\nentry:\n  %x: Float32 = const {text}\n  return\n}}\n"));
    assert_eq!(f0(&m).body.inst(v(0)).clone_lit(), Literal::Float(text.parse::<f32>().unwrap().to_bits() as u64));
}

trait CloneLit {
    fn clone_lit(&self) -> Literal<'static>;
}
impl CloneLit for InstData<'_> {
    fn clone_lit(&self) -> Literal<'static> {
        match self {
            InstData::Const(Literal::Float(b)) => Literal::Float(*b),
            _ => Literal::Bool(false),
        }
    }
}

#[test]
fn whitespace_comments_and_crlf() {
    let m = parse(
        "module t\r\n; c\r\nfunc f(%a:Int64,%b:  Int64)->Int64{ ; open\r\nentry: ; the entry\r\n  \
         %x:Int64=add %a,%b ; sum\r\n\r\n  return %x\r\n}\r\n",
    );
    let b = &f0(&m).body;
    assert!(matches!(b.inst(v(2)), InstData::Binary { op: Opcode::Add, .. }));
    assert_eq!(b.loc(v(2)).unwrap().line, 5);
    round_trip(&m);
}

#[test]
fn labels_may_look_like_opcodes_and_names_have_dots() {
    let m = parse(
        "module t\nfunc f.gpu(%a.0: Int64, %$t: Int64) -> Int64 {\nreturn:\n  br br\nbr:\n  %r.1: Int64 = call f.host(%a.0, %$t)\n  return %r.1\n}\n",
    );
    let f = f0(&m);
    assert_eq!(f.name, "f.gpu");
    assert_eq!(f.body.label(BlockId::from_u32(0)), "return");
    assert!(matches!(f.body.inst(v(2)), InstData::Br { target } if target == BlockId::from_u32(1)));
    round_trip(&m);
}

#[test]
fn parse_module_takes_bytes() {
    let m = parse_module("b.pir", b"module bytes_in\n").unwrap();
    assert_eq!(m.name, "bytes_in");
    assert_eq!(m.files.path(postc_ir::FileId::from_u32(0)), "b.pir");
}

#[test]
fn generated_modules_round_trip() {
    use arbitrary::Unstructured;
    use postc_ir::gen::{arbitrary_module, GenConfig};
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0..40 {
        let bytes: Vec<u8> = (0..4096)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        let mut u = Unstructured::new(&bytes);
        let Ok(m) = arbitrary_module(&mut u, &GenConfig::default()) else { continue };
        let text = print_module(&m);
        let back = parse_str("gen.pir", &text).unwrap_or_else(|d| panic!("round {round}: {d:?}\n{text}"));
        assert_eq!(m.structural_diff(&back), None, "round {round}\n{text}");
        assert_eq!(print_module(&back), text);
    }
}
