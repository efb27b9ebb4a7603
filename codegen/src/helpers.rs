//! Small arithmetic helpers, one per operation and type, as LLVM IR text:
//! floor division and modulo on integers (no UB for a zero divisor or
//! `MIN // -1`), integer power by squaring (wrapping, and its overflow
//! test), Python's float `//` and `%`, CPython's complex division and power.
//! Each is `linkonce_odr hidden`, emitted only when used; the optimiser
//! inlines them.

/// A helper: its symbol and the declarations its text needs.
pub struct Helper {
    pub name: String,
    pub text: String,
    pub needs: Vec<(String, String)>,
}

fn decl(name: &str, line: &str) -> (String, String) {
    (name.to_owned(), line.to_owned())
}

/// Signed or unsigned floor division (`div = true`) or modulo of `iN`.
pub fn floor_divmod(bits: u32, signed: bool, div: bool) -> Helper {
    let t = format!("i{bits}");
    let name = format!("postc.{}{}.{t}", if signed { "s" } else { "u" }, if div { "floordiv" } else { "floormod" });
    let text = if !signed {
        let op = if div { "udiv" } else { "urem" };
        format!(
            "define linkonce_odr hidden {t} @\"{name}\"({t} %a, {t} %b) nounwind {{\n\
             \x20 %z = icmp eq {t} %b, 0\n\
             \x20 %d = select i1 %z, {t} 1, {t} %b\n\
             \x20 %q = {op} {t} %a, %d\n\
             \x20 %r = select i1 %z, {t} 0, {t} %q\n\
             \x20 ret {t} %r\n}}\n"
        )
    } else if div {
        format!(
            "define linkonce_odr hidden {t} @\"{name}\"({t} %a, {t} %b) nounwind {{\n\
             entry:\n\
             \x20 %z = icmp eq {t} %b, 0\n\
             \x20 %m1 = icmp eq {t} %b, -1\n\
             \x20 %special = or i1 %z, %m1\n\
             \x20 br i1 %special, label %sp, label %normal\n\
             sp:\n\
             \x20 %neg = sub {t} 0, %a\n\
             \x20 %r0 = select i1 %z, {t} 0, {t} %neg\n\
             \x20 ret {t} %r0\n\
             normal:\n\
             \x20 %q = sdiv {t} %a, %b\n\
             \x20 %r = srem {t} %a, %b\n\
             \x20 %rnz = icmp ne {t} %r, 0\n\
             \x20 %x = xor {t} %r, %b\n\
             \x20 %sd = icmp slt {t} %x, 0\n\
             \x20 %adj = and i1 %rnz, %sd\n\
             \x20 %adjv = zext i1 %adj to {t}\n\
             \x20 %q2 = sub {t} %q, %adjv\n\
             \x20 ret {t} %q2\n}}\n"
        )
    } else {
        format!(
            "define linkonce_odr hidden {t} @\"{name}\"({t} %a, {t} %b) nounwind {{\n\
             entry:\n\
             \x20 %z = icmp eq {t} %b, 0\n\
             \x20 %m1 = icmp eq {t} %b, -1\n\
             \x20 %special = or i1 %z, %m1\n\
             \x20 br i1 %special, label %sp, label %normal\n\
             sp:\n\
             \x20 ret {t} 0\n\
             normal:\n\
             \x20 %r = srem {t} %a, %b\n\
             \x20 %rnz = icmp ne {t} %r, 0\n\
             \x20 %x = xor {t} %r, %b\n\
             \x20 %sd = icmp slt {t} %x, 0\n\
             \x20 %adj = and i1 %rnz, %sd\n\
             \x20 %rb = add {t} %r, %b\n\
             \x20 %r2 = select i1 %adj, {t} %rb, {t} %r\n\
             \x20 ret {t} %r2\n}}\n"
        )
    };
    Helper { name, text, needs: vec![] }
}

/// The length of a Str in code points: its bytes that do not continue a
/// UTF-8 sequence.
pub fn str_len() -> Helper {
    let name = "postc.str.len".to_owned();
    let text = format!(
        "define linkonce_odr hidden i64 @\"{name}\"({{ ptr, i64 }} %s) nounwind readonly {{\n\
         entry:\n\
         \x20 %p = extractvalue {{ ptr, i64 }} %s, 0\n\
         \x20 %n = extractvalue {{ ptr, i64 }} %s, 1\n\
         \x20 br label %loop\n\
         loop:\n\
         \x20 %i = phi i64 [ 0, %entry ], [ %i2, %body ]\n\
         \x20 %c = phi i64 [ 0, %entry ], [ %c2, %body ]\n\
         \x20 %more = icmp ult i64 %i, %n\n\
         \x20 br i1 %more, label %body, label %exit\n\
         body:\n\
         \x20 %a = getelementptr inbounds i8, ptr %p, i64 %i\n\
         \x20 %b = load i8, ptr %a\n\
         \x20 %top = and i8 %b, -64\n\
         \x20 %cont = icmp eq i8 %top, -128\n\
         \x20 %one = select i1 %cont, i64 0, i64 1\n\
         \x20 %c2 = add i64 %c, %one\n\
         \x20 %i2 = add i64 %i, 1\n\
         \x20 br label %loop\n\
         exit:\n\
         \x20 ret i64 %c\n}}\n"
    );
    Helper { name, text, needs: vec![] }
}

/// Wrapping integer power by squaring; a negative signed exponent gives 1
/// (the checked pipeline panics before).
pub fn int_pow(bits: u32, signed: bool) -> Helper {
    let t = format!("i{bits}");
    let name = format!("postc.{}pow.{t}", if signed { "s" } else { "u" });
    let stop = if signed { "sle" } else { "eq" };
    let text = format!(
        "define linkonce_odr hidden {t} @\"{name}\"({t} %base, {t} %exp) nounwind {{\n\
         entry:\n\
         \x20 br label %loop\n\
         loop:\n\
         \x20 %r = phi {t} [ 1, %entry ], [ %r2, %body ]\n\
         \x20 %b = phi {t} [ %base, %entry ], [ %b2, %body ]\n\
         \x20 %e = phi {t} [ %exp, %entry ], [ %e2, %body ]\n\
         \x20 %done = icmp {stop} {t} %e, 0\n\
         \x20 br i1 %done, label %exit, label %body\n\
         body:\n\
         \x20 %bit = and {t} %e, 1\n\
         \x20 %odd = icmp ne {t} %bit, 0\n\
         \x20 %rm = mul {t} %r, %b\n\
         \x20 %r2 = select i1 %odd, {t} %rm, {t} %r\n\
         \x20 %e2 = lshr {t} %e, 1\n\
         \x20 %b2 = mul {t} %b, %b\n\
         \x20 br label %loop\n\
         exit:\n\
         \x20 ret {t} %r\n}}\n"
    );
    Helper { name, text, needs: vec![] }
}

/// Whether `base ** exp` overflows (the multiplications of [`int_pow`] that
/// the result uses, each checked; the base is squared only while bits
/// remain, as the interpreter does).
pub fn int_pow_overflows(bits: u32, signed: bool) -> Helper {
    let t = format!("i{bits}");
    let s = if signed { "s" } else { "u" };
    let name = format!("postc.ovf.{s}pow.{t}");
    let mulo = format!("llvm.{s}mul.with.overflow.{t}");
    let stop = if signed { "sle" } else { "eq" };
    let text = format!(
        "define linkonce_odr hidden i1 @\"{name}\"({t} %base, {t} %exp) nounwind {{\n\
         entry:\n\
         \x20 br label %loop\n\
         loop:\n\
         \x20 %r = phi {t} [ 1, %entry ], [ %r2, %sq ]\n\
         \x20 %b = phi {t} [ %base, %entry ], [ %b2, %sq ]\n\
         \x20 %e = phi {t} [ %exp, %entry ], [ %e2, %sq ]\n\
         \x20 %done = icmp {stop} {t} %e, 0\n\
         \x20 br i1 %done, label %fine, label %body\n\
         body:\n\
         \x20 %bit = and {t} %e, 1\n\
         \x20 %odd = icmp ne {t} %bit, 0\n\
         \x20 %rm = call {{ {t}, i1 }} @{mulo}({t} %r, {t} %b)\n\
         \x20 %rv = extractvalue {{ {t}, i1 }} %rm, 0\n\
         \x20 %ro = extractvalue {{ {t}, i1 }} %rm, 1\n\
         \x20 %rbad = and i1 %odd, %ro\n\
         \x20 br i1 %rbad, label %over, label %step\n\
         step:\n\
         \x20 %r2 = select i1 %odd, {t} %rv, {t} %r\n\
         \x20 %e2 = lshr {t} %e, 1\n\
         \x20 %more = icmp ne {t} %e2, 0\n\
         \x20 br i1 %more, label %sqr, label %fine\n\
         sqr:\n\
         \x20 %bm = call {{ {t}, i1 }} @{mulo}({t} %b, {t} %b)\n\
         \x20 %bo = extractvalue {{ {t}, i1 }} %bm, 1\n\
         \x20 br i1 %bo, label %over, label %sq\n\
         sq:\n\
         \x20 %b2 = extractvalue {{ {t}, i1 }} %bm, 0\n\
         \x20 br label %loop\n\
         over:\n\
         \x20 ret i1 true\n\
         fine:\n\
         \x20 ret i1 false\n}}\n"
    );
    Helper { name, text, needs: vec![decl(&mulo, &format!("declare {{ {t}, i1 }} @{mulo}({t}, {t})"))] }
}

/// Python's float `divmod` on doubles (`interp::ops::float_divmod`):
/// returns `{ floordiv, mod }`; a zero divisor gives `x / 0.0` and NaN.
pub fn float_divmod() -> Helper {
    let name = "postc.fdivmod.f64".to_owned();
    let text = format!(
        "define linkonce_odr hidden {{ double, double }} @\"{name}\"(double %x, double %y) nounwind {{\n\
         entry:\n\
         \x20 %yz = fcmp oeq double %y, 0.0\n\
         \x20 br i1 %yz, label %byzero, label %go\n\
         byzero:\n\
         \x20 %q0 = fdiv double %x, %y\n\
         \x20 %z0 = insertvalue {{ double, double }} undef, double %q0, 0\n\
         \x20 %z1 = insertvalue {{ double, double }} %z0, double 0x7FF8000000000000, 1\n\
         \x20 ret {{ double, double }} %z1\n\
         go:\n\
         \x20 %m = frem double %x, %y\n\
         \x20 %xm = fsub double %x, %m\n\
         \x20 %div = fdiv double %xm, %y\n\
         \x20 %mnz = fcmp une double %m, 0.0\n\
         \x20 %yneg = fcmp olt double %y, 0.0\n\
         \x20 %mneg = fcmp olt double %m, 0.0\n\
         \x20 %diff = xor i1 %yneg, %mneg\n\
         \x20 %fix = and i1 %mnz, %diff\n\
         \x20 %mfix = fadd double %m, %y\n\
         \x20 %dfix = fsub double %div, 1.0\n\
         \x20 %zm = call double @llvm.copysign.f64(double 0.0, double %y)\n\
         \x20 %m1 = select i1 %fix, double %mfix, double %m\n\
         \x20 %mod = select i1 %mnz, double %m1, double %zm\n\
         \x20 %div1 = select i1 %fix, double %dfix, double %div\n\
         \x20 %dnz = fcmp une double %div1, 0.0\n\
         \x20 %fd = call double @llvm.floor.f64(double %div1)\n\
         \x20 %frac = fsub double %div1, %fd\n\
         \x20 %up = fcmp ogt double %frac, 0.5\n\
         \x20 %fd1 = fadd double %fd, 1.0\n\
         \x20 %fdr = select i1 %up, double %fd1, double %fd\n\
         \x20 %xy = fdiv double %x, %y\n\
         \x20 %zq = call double @llvm.copysign.f64(double 0.0, double %xy)\n\
         \x20 %q = select i1 %dnz, double %fdr, double %zq\n\
         \x20 %r0 = insertvalue {{ double, double }} undef, double %q, 0\n\
         \x20 %r1 = insertvalue {{ double, double }} %r0, double %mod, 1\n\
         \x20 ret {{ double, double }} %r1\n}}\n"
    );
    Helper {
        name,
        text,
        needs: vec![
            decl("llvm.copysign.f64", "declare double @llvm.copysign.f64(double, double)"),
            decl("llvm.floor.f64", "declare double @llvm.floor.f64(double)"),
        ],
    }
}

/// CPython's `_Py_c_quot` on doubles (a zero divisor gives inf/nan).
pub fn complex_div() -> Helper {
    let name = "postc.cdiv.f64".to_owned();
    let text = format!(
        "define linkonce_odr hidden {{ double, double }} @\"{name}\"(double %ar, double %ai, double %br, double %bi) nounwind {{\n\
         entry:\n\
         \x20 %abr = call double @llvm.fabs.f64(double %br)\n\
         \x20 %abi = call double @llvm.fabs.f64(double %bi)\n\
         \x20 %ge = fcmp oge double %abr, %abi\n\
         \x20 br i1 %ge, label %real, label %notreal\n\
         real:\n\
         \x20 %brz = fcmp oeq double %abr, 0.0\n\
         \x20 br i1 %brz, label %zero, label %rbig\n\
         zero:\n\
         \x20 %zr = fdiv double %ar, %abr\n\
         \x20 %zi = fdiv double %ai, %abr\n\
         \x20 br label %out\n\
         rbig:\n\
         \x20 %ratio = fdiv double %bi, %br\n\
         \x20 %t1 = fmul double %bi, %ratio\n\
         \x20 %den = fadd double %br, %t1\n\
         \x20 %t2 = fmul double %ai, %ratio\n\
         \x20 %n1 = fadd double %ar, %t2\n\
         \x20 %t3 = fmul double %ar, %ratio\n\
         \x20 %n2 = fsub double %ai, %t3\n\
         \x20 %rr = fdiv double %n1, %den\n\
         \x20 %ri = fdiv double %n2, %den\n\
         \x20 br label %out\n\
         notreal:\n\
         \x20 %ge2 = fcmp oge double %abi, %abr\n\
         \x20 br i1 %ge2, label %ibig, label %nan\n\
         ibig:\n\
         \x20 %ratio2 = fdiv double %br, %bi\n\
         \x20 %u1 = fmul double %br, %ratio2\n\
         \x20 %den2 = fadd double %u1, %bi\n\
         \x20 %u2 = fmul double %ar, %ratio2\n\
         \x20 %m1 = fadd double %u2, %ai\n\
         \x20 %u3 = fmul double %ai, %ratio2\n\
         \x20 %m2 = fsub double %u3, %ar\n\
         \x20 %ir = fdiv double %m1, %den2\n\
         \x20 %ii = fdiv double %m2, %den2\n\
         \x20 br label %out\n\
         nan:\n\
         \x20 br label %out\n\
         out:\n\
         \x20 %re = phi double [ %zr, %zero ], [ %rr, %rbig ], [ %ir, %ibig ], [ 0x7FF8000000000000, %nan ]\n\
         \x20 %im = phi double [ %zi, %zero ], [ %ri, %rbig ], [ %ii, %ibig ], [ 0x7FF8000000000000, %nan ]\n\
         \x20 %o0 = insertvalue {{ double, double }} undef, double %re, 0\n\
         \x20 %o1 = insertvalue {{ double, double }} %o0, double %im, 1\n\
         \x20 ret {{ double, double }} %o1\n}}\n"
    );
    Helper { name, text, needs: vec![decl("llvm.fabs.f64", "declare double @llvm.fabs.f64(double)")] }
}

/// CPython's complex power (`c_pow`, `c_powi` for integral exponents up to
/// 100), as `interp::ops::c_pow`. The caller checks the zero-base panic.
pub fn complex_pow() -> Helper {
    let name = "postc.cpow.f64".to_owned();
    let cmul = |o: &str, ar: &str, ai: &str, br: &str, bi: &str| {
        format!(
            "  %{o}.a = fmul double {ar}, {br}\n  %{o}.b = fmul double {ai}, {bi}\n  %{o}.r = fsub double %{o}.a, %{o}.b\n  \
             %{o}.c = fmul double {ar}, {bi}\n  %{o}.d = fmul double {ai}, {br}\n  %{o}.i = fadd double %{o}.c, %{o}.d\n"
        )
    };
    let mut t = String::new();
    t.push_str(&format!(
        "define linkonce_odr hidden {{ double, double }} @\"{name}\"(double %ar, double %ai, double %br, double %bi) nounwind {{\n\
         entry:\n\
         \x20 %bre0 = fcmp oeq double %br, 0.0\n\
         \x20 %bim0 = fcmp oeq double %bi, 0.0\n\
         \x20 %b0 = and i1 %bre0, %bim0\n\
         \x20 br i1 %b0, label %one, label %t1\n\
         one:\n\
         \x20 ret {{ double, double }} {{ double 1.0, double 0.0 }}\n\
         t1:\n\
         \x20 %are0 = fcmp oeq double %ar, 0.0\n\
         \x20 %aim0 = fcmp oeq double %ai, 0.0\n\
         \x20 %a0 = and i1 %are0, %aim0\n\
         \x20 br i1 %a0, label %zero, label %t2\n\
         zero:\n\
         \x20 ret {{ double, double }} zeroinitializer\n\
         t2:\n\
         \x20 %fl = call double @llvm.floor.f64(double %br)\n\
         \x20 %integral = fcmp oeq double %br, %fl\n\
         \x20 %abr = call double @llvm.fabs.f64(double %br)\n\
         \x20 %small = fcmp ole double %abr, 100.0\n\
         \x20 %c1 = and i1 %bim0, %integral\n\
         \x20 %c2 = and i1 %c1, %small\n\
         \x20 br i1 %c2, label %powi, label %general\n\
         powi:\n\
         \x20 %n = fptosi double %br to i64\n\
         \x20 %nneg = icmp slt i64 %n, 0\n\
         \x20 %nabs0 = sub i64 0, %n\n\
         \x20 %nabs = select i1 %nneg, i64 %nabs0, i64 %n\n\
         \x20 br label %ploop\n\
         ploop:\n\
         \x20 %rr = phi double [ 1.0, %powi ], [ %rr2, %pstep ]\n\
         \x20 %ri = phi double [ 0.0, %powi ], [ %ri2, %pstep ]\n\
         \x20 %pr = phi double [ %ar, %powi ], [ %sq.r, %pstep ]\n\
         \x20 %pi = phi double [ %ai, %powi ], [ %sq.i, %pstep ]\n\
         \x20 %mask = phi i64 [ 1, %powi ], [ %mask2, %pstep ]\n\
         \x20 %mpos = icmp ne i64 %mask, 0\n\
         \x20 %mle = icmp uge i64 %nabs, %mask\n\
         \x20 %go = and i1 %mpos, %mle\n\
         \x20 br i1 %go, label %pbody, label %pdone\n\
         pbody:\n\
         \x20 %bit = and i64 %nabs, %mask\n\
         \x20 %set = icmp ne i64 %bit, 0\n"
    ));
    t.push_str(&cmul("m", "%rr", "%ri", "%pr", "%pi"));
    t.push_str(
        "  %rr2 = select i1 %set, double %m.r, double %rr\n  %ri2 = select i1 %set, double %m.i, double %ri\n  \
         %mask2 = shl i64 %mask, 1\n  br label %pstep\npstep:\n",
    );
    t.push_str(&cmul("sq", "%pr", "%pi", "%pr", "%pi"));
    t.push_str(
        "  br label %ploop\n\
         pdone:\n\
         \x20 br i1 %nneg, label %inv, label %pos\n\
         pos:\n\
         \x20 %o0 = insertvalue { double, double } undef, double %rr, 0\n\
         \x20 %o1 = insertvalue { double, double } %o0, double %ri, 1\n\
         \x20 ret { double, double } %o1\n\
         inv:\n\
         \x20 %q = call { double, double } @\"postc.cdiv.f64\"(double 1.0, double 0.0, double %rr, double %ri)\n\
         \x20 ret { double, double } %q\n\
         general:\n\
         \x20 %vabs = call double @hypot(double %ar, double %ai)\n\
         \x20 %len0 = call double @llvm.pow.f64(double %vabs, double %br)\n\
         \x20 %at = call double @atan2(double %ai, double %ar)\n\
         \x20 %ph0 = fmul double %at, %br\n\
         \x20 br i1 %bim0, label %fin, label %cplx\n\
         cplx:\n\
         \x20 %atb = fmul double %at, %bi\n\
         \x20 %e = call double @llvm.exp.f64(double %atb)\n\
         \x20 %len1 = fdiv double %len0, %e\n\
         \x20 %lg = call double @llvm.log.f64(double %vabs)\n\
         \x20 %bl = fmul double %bi, %lg\n\
         \x20 %ph1 = fadd double %ph0, %bl\n\
         \x20 br label %fin\n\
         fin:\n\
         \x20 %len = phi double [ %len0, %general ], [ %len1, %cplx ]\n\
         \x20 %ph = phi double [ %ph0, %general ], [ %ph1, %cplx ]\n\
         \x20 %c = call double @llvm.cos.f64(double %ph)\n\
         \x20 %s = call double @llvm.sin.f64(double %ph)\n\
         \x20 %gr = fmul double %len, %c\n\
         \x20 %gi = fmul double %len, %s\n\
         \x20 %g0 = insertvalue { double, double } undef, double %gr, 0\n\
         \x20 %g1 = insertvalue { double, double } %g0, double %gi, 1\n\
         \x20 ret { double, double } %g1\n}\n",
    );
    Helper {
        name,
        text: t,
        needs: vec![
            decl("llvm.floor.f64", "declare double @llvm.floor.f64(double)"),
            decl("llvm.fabs.f64", "declare double @llvm.fabs.f64(double)"),
            decl("llvm.pow.f64", "declare double @llvm.pow.f64(double, double)"),
            decl("llvm.exp.f64", "declare double @llvm.exp.f64(double)"),
            decl("llvm.log.f64", "declare double @llvm.log.f64(double)"),
            decl("llvm.cos.f64", "declare double @llvm.cos.f64(double)"),
            decl("llvm.sin.f64", "declare double @llvm.sin.f64(double)"),
            decl("hypot", "declare double @hypot(double, double) nounwind"),
            decl("atan2", "declare double @atan2(double, double) nounwind"),
        ],
    }
}
