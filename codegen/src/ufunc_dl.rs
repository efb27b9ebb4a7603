//! The broadcasting driver behind every `NAME_dl` (docs/abi.md §6.3).
//!
//! One generic function, `postc.ufunc.dl(desc, ops, loop)`, in every codegen
//! unit that defines a ufunc (objects get its machine code, compiled once
//! per process and target: see [`crate::machine_code`]): it checks the operands against the
//! ufunc's descriptor (a constant that [`crate::ufunc`] emits per ufunc),
//! broadcasts the loop dimensions NumPy-style and calls `NAME_loop` once per
//! index of every loop axis but the innermost. `NAME_dl` itself only stores
//! its operands in an array and calls the driver. The driver runs once per
//! call and per outer index, never per element (the elements are
//! `NAME_loop`'s, which is fully optimised), so it is `optnone`: specialised
//! per ufunc, or optimised even for size, it took more compile time than
//! every other function of a small module together, for a few tens of
//! nanoseconds per call.
//!
//! Descriptor layout (every field 8 bytes on 64-bit hosts):
//!
//! ```text
//! desc:  { i64 nin, i64 nops, i64 ndims, i64 nsteps, i64 rowlen,
//!          ptr name, ptr at, ptr ops, ptr dims, i64 gpu }
//! op:    { i64 code, i64 bits, i64 elsize, i64 ncore, i64 corebase,
//!          ptr core (i64 per core axis: index into dims), ptr dtype name,
//!          ptr core signature ("m,k") }
//! dim:   { i64 fixed (0 or 1), i64 size, ptr name }
//! ```
//!
//! `rowlen` is [`MAX_LOOP_DIMS`](crate::ufunc) plus the largest core rank
//! (the length of one operand's row of element strides); `corebase` is where
//! the operand's core steps start in `steps`; `gpu` is 1 for a gpu ufunc
//! in a build with GPU code, whose `NAME_loop` also takes tensors in GPU
//! memory (`kDLCUDA`, `kDLROCM`, `kDLCUDAManaged`) and uses them in place.

/// The driver's symbol.
pub const DRIVER: &str = "postc.ufunc.dl";

/// The LLVM types of the descriptor's records.
pub const DESC_TYPE: &str = "{ i64, i64, i64, i64, i64, ptr, ptr, ptr, ptr, i64 }";
pub const OP_TYPE: &str = "{ i64, i64, i64, i64, i64, ptr, ptr, ptr }";
pub const DIM_TYPE: &str = "{ i64, i64, ptr }";

/// The panic messages (`dprintf` formats) of the driver, as in docs/abi.md.
const FORMATS: &[(&str, &str)] = &[
    ("f.host", "panic: ufunc %s: %s operand %lld is not in host memory%s\n"),
    ("f.hostgpu", "panic: ufunc %s: %s operand %lld is not in host or GPU memory%s\n"),
    ("f.dtype", "panic: ufunc %s: %s operand %lld is not a %s tensor%s\n"),
    ("f.few", "panic: ufunc %s: %s operand %lld has fewer dimensions than its core signature (%s)%s\n"),
    ("f.many", "panic: ufunc %s: %s operand %lld has more than MAXD loop dimensions%s\n"),
    ("f.bcast", "panic: ufunc %s: operands could not be broadcast together%s\n"),
    ("f.out", "panic: ufunc %s: output operand %lld does not have the broadcast loop shape%s\n"),
    ("f.fixed", "panic: ufunc %s: operand %lld has a size other than %llu for core dimension %lld%s\n"),
    (
        "f.core",
        "panic: ufunc %s: core dimension `%s` of operand %lld does not match its size in an earlier operand%s\n",
    ),
    ("s.input", "input"),
    ("s.output", "output"),
];

/// The driver, as LLVM IR text (a module of its own, linked into the unit).
pub fn ir_text() -> String {
    let mut out = String::new();
    for (name, text) in FORMATS {
        let text = text.replace("MAXD", &crate::ufunc::MAX_LOOP_DIMS.to_string());
        let esc = crate::emit::escape_bytes(format!("{text}\0").as_bytes());
        out.push_str(&format!("@{name} = private unnamed_addr constant [{} x i8] c\"{esc}\"\n", text.len() + 1));
    }
    out + &DRIVER_IR
        .replace("%desc.t", DESC_TYPE)
        .replace("%op.t", OP_TYPE)
        .replace("%dim.t", DIM_TYPE)
        .replace("%dlt.t", crate::runtime::dltensor::LLVM_TYPE)
        .replace("MAXD", &crate::ufunc::MAX_LOOP_DIMS.to_string())
}

const DRIVER_IR: &str = r#"
declare i32 @dprintf(i32, ptr, ...)
declare void @abort() noreturn nounwind

define linkonce_odr hidden void @postc.ufunc.dl(ptr %d, ptr %ops, ptr %lp) noinline nounwind optnone {
entry:
  %nin.p = getelementptr %desc.t, ptr %d, i64 0, i32 0
  %nin = load i64, ptr %nin.p
  %nops.p = getelementptr %desc.t, ptr %d, i64 0, i32 1
  %nops = load i64, ptr %nops.p
  %ndims.p = getelementptr %desc.t, ptr %d, i64 0, i32 2
  %ndims = load i64, ptr %ndims.p
  %nsteps.p = getelementptr %desc.t, ptr %d, i64 0, i32 3
  %nsteps = load i64, ptr %nsteps.p
  %row.p = getelementptr %desc.t, ptr %d, i64 0, i32 4
  %row = load i64, ptr %row.p
  %name.p = getelementptr %desc.t, ptr %d, i64 0, i32 5
  %name = load ptr, ptr %name.p
  %at.p = getelementptr %desc.t, ptr %d, i64 0, i32 6
  %at = load ptr, ptr %at.p
  %opd.p = getelementptr %desc.t, ptr %d, i64 0, i32 7
  %opd = load ptr, ptr %opd.p
  %dimd.p = getelementptr %desc.t, ptr %d, i64 0, i32 8
  %dimd = load ptr, ptr %dimd.p
  %gpu.p = getelementptr %desc.t, ptr %d, i64 0, i32 9
  %gpu.v = load i64, ptr %gpu.p
  %gpu = icmp ne i64 %gpu.v, 0
  %bases = alloca ptr, i64 %nops
  %shapes = alloca ptr, i64 %nops
  %lnds = alloca i64, i64 %nops
  %off = alloca i64, i64 %nops
  %args = alloca ptr, i64 %nops
  %nestr = mul i64 %nops, %row
  %estr = alloca i64, i64 %nestr
  %nlstr = mul i64 %nops, MAXD
  %lstr = alloca i64, i64 %nlstr
  %lshape = alloca i64, i64 MAXD
  %idx = alloca i64, i64 MAXD
  %ndims1 = add i64 %ndims, 1
  %dims = alloca i64, i64 %ndims1
  %seen = alloca i8, i64 %ndims1
  %steps = alloca i64, i64 %nsteps
  br label %op.head

; Per operand: device, dtype and rank checks, then its element strides.
op.head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %op.next ]
  %l.acc = phi i64 [ 0, %entry ], [ %l.new, %op.next ]
  %op.more = icmp slt i64 %i, %nops
  br i1 %op.more, label %op.body, label %bcast.init

op.body:
  %t.p = getelementptr ptr, ptr %ops, i64 %i
  %t = load ptr, ptr %t.p
  %od = getelementptr %op.t, ptr %opd, i64 %i
  %is.in = icmp slt i64 %i, %nin
  %role = select i1 %is.in, ptr @s.input, ptr @s.output
  %dev.p = getelementptr %dlt.t, ptr %t, i64 0, i32 1, i32 0
  %dev = load i32, ptr %dev.p
  %h1 = icmp eq i32 %dev, 1
  %h3 = icmp eq i32 %dev, 3
  %h11 = icmp eq i32 %dev, 11
  %h13 = or i1 %h1, %h3
  %host = or i1 %h13, %h11
  %g2 = icmp eq i32 %dev, 2
  %g10 = icmp eq i32 %dev, 10
  %g13 = icmp eq i32 %dev, 13
  %g2.10 = or i1 %g2, %g10
  %ondev = or i1 %g2.10, %g13
  %ondev.ok = and i1 %ondev, %gpu
  %placed = or i1 %host, %ondev.ok
  br i1 %placed, label %dtype.check, label %fail.host, !prof !0

fail.host:
  %f.place = select i1 %gpu, ptr @f.hostgpu, ptr @f.host
  %r.host = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr %f.place, ptr %name, ptr %role, i64 %i, ptr %at)
  call void @abort()
  unreachable

dtype.check:
  %code.p = getelementptr %dlt.t, ptr %t, i64 0, i32 3, i32 0
  %code = load i8, ptr %code.p
  %bits.p = getelementptr %dlt.t, ptr %t, i64 0, i32 3, i32 1
  %bits = load i8, ptr %bits.p
  %lanes.p = getelementptr %dlt.t, ptr %t, i64 0, i32 3, i32 2
  %lanes = load i16, ptr %lanes.p
  %wcode.p = getelementptr %op.t, ptr %od, i64 0, i32 0
  %wcode = load i64, ptr %wcode.p
  %wbits.p = getelementptr %op.t, ptr %od, i64 0, i32 1
  %wbits = load i64, ptr %wbits.p
  %code64 = zext i8 %code to i64
  %bits64 = zext i8 %bits to i64
  %code.ok = icmp eq i64 %code64, %wcode
  %bits.ok = icmp eq i64 %bits64, %wbits
  %lanes.ok = icmp eq i16 %lanes, 1
  %dt.ok1 = and i1 %code.ok, %bits.ok
  %dt.ok = and i1 %dt.ok1, %lanes.ok
  br i1 %dt.ok, label %rank.check, label %fail.dtype, !prof !0

fail.dtype:
  %dtn.p = getelementptr %op.t, ptr %od, i64 0, i32 6
  %dtn = load ptr, ptr %dtn.p
  %r.dtype = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.dtype, ptr %name, ptr %role, i64 %i, ptr %dtn, ptr %at)
  call void @abort()
  unreachable

rank.check:
  %nd.p = getelementptr %dlt.t, ptr %t, i64 0, i32 2
  %nd32 = load i32, ptr %nd.p
  %nd = sext i32 %nd32 to i64
  %ncore.p = getelementptr %op.t, ptr %od, i64 0, i32 3
  %ncore = load i64, ptr %ncore.p
  %lnd = sub i64 %nd, %ncore
  %few = icmp slt i64 %lnd, 0
  br i1 %few, label %fail.few, label %many.check, !prof !1

fail.few:
  %sig.p = getelementptr %op.t, ptr %od, i64 0, i32 7
  %sig = load ptr, ptr %sig.p
  %r.few = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.few, ptr %name, ptr %role, i64 %i, ptr %sig, ptr %at)
  call void @abort()
  unreachable

many.check:
  %many = icmp sgt i64 %lnd, MAXD
  br i1 %many, label %fail.many, label %strides, !prof !1

fail.many:
  %r.many = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.many, ptr %name, ptr %role, i64 %i, ptr %at)
  call void @abort()
  unreachable

strides:
  %data.p = getelementptr %dlt.t, ptr %t, i64 0, i32 0
  %data = load ptr, ptr %data.p
  %bo.p = getelementptr %dlt.t, ptr %t, i64 0, i32 6
  %bo = load i64, ptr %bo.p
  %base = getelementptr i8, ptr %data, i64 %bo
  %shape.p = getelementptr %dlt.t, ptr %t, i64 0, i32 4
  %shape = load ptr, ptr %shape.p
  %str.p = getelementptr %dlt.t, ptr %t, i64 0, i32 5
  %str = load ptr, ptr %str.p
  %base.slot = getelementptr ptr, ptr %bases, i64 %i
  store ptr %base, ptr %base.slot
  %shape.slot = getelementptr ptr, ptr %shapes, i64 %i
  store ptr %shape, ptr %shape.slot
  %lnd.slot = getelementptr i64, ptr %lnds, i64 %i
  store i64 %lnd, ptr %lnd.slot
  %erow = mul i64 %i, %row
  %e = getelementptr i64, ptr %estr, i64 %erow
  %compact = icmp eq ptr %str, null
  br i1 %compact, label %compact.head, label %given.head

given.head:
  %ga = phi i64 [ 0, %strides ], [ %ga.next, %given.body ]
  %g.more = icmp slt i64 %ga, %nd
  br i1 %g.more, label %given.body, label %op.next

given.body:
  %gs.p = getelementptr i64, ptr %str, i64 %ga
  %gs = load i64, ptr %gs.p
  %ge.p = getelementptr i64, ptr %e, i64 %ga
  store i64 %gs, ptr %ge.p
  %ga.next = add i64 %ga, 1
  br label %given.head

; Compact row-major: the product of the later extents.
compact.head:
  %cr = phi i64 [ 0, %strides ], [ %cr.next, %compact.body ]
  %cacc = phi i64 [ 1, %strides ], [ %cacc.next, %compact.body ]
  %c.more = icmp slt i64 %cr, %nd
  br i1 %c.more, label %compact.body, label %op.next

compact.body:
  %clast = sub i64 %nd, 1
  %ca = sub i64 %clast, %cr
  %ce.p = getelementptr i64, ptr %e, i64 %ca
  store i64 %cacc, ptr %ce.p
  %cx.p = getelementptr i64, ptr %shape, i64 %ca
  %cx = load i64, ptr %cx.p
  %cacc.next = mul i64 %cacc, %cx
  %cr.next = add i64 %cr, 1
  br label %compact.head

op.next:
  %l.gt = icmp sgt i64 %lnd, %l.acc
  %l.new = select i1 %l.gt, i64 %lnd, i64 %l.acc
  %i.next = add i64 %i, 1
  br label %op.head

; The loop rank %l is the largest operand loop rank.
bcast.init:
  %l = phi i64 [ %l.acc, %op.head ]
  br label %fill.head

fill.head:
  %fa = phi i64 [ 0, %bcast.init ], [ %fa.next, %fill.body ]
  %f.more = icmp slt i64 %fa, MAXD
  br i1 %f.more, label %fill.body, label %zero.head

fill.body:
  %fs.p = getelementptr i64, ptr %lshape, i64 %fa
  store i64 1, ptr %fs.p
  %fa.next = add i64 %fa, 1
  br label %fill.head

zero.head:
  %za = phi i64 [ 0, %fill.head ], [ %za.next, %zero.body ]
  %z.more = icmp slt i64 %za, %nlstr
  br i1 %z.more, label %zero.body, label %seen.head

zero.body:
  %zs.p = getelementptr i64, ptr %lstr, i64 %za
  store i64 0, ptr %zs.p
  %za.next = add i64 %za, 1
  br label %zero.head

seen.head:
  %sa = phi i64 [ 0, %zero.head ], [ %sa.next, %seen.body ]
  %s.more = icmp slt i64 %sa, %ndims
  br i1 %s.more, label %seen.body, label %b.op.head

seen.body:
  %ss.p = getelementptr i8, ptr %seen, i64 %sa
  store i8 0, ptr %ss.p
  %sa.next = add i64 %sa, 1
  br label %seen.head

; Broadcast the loop dimensions, right-aligned.
b.op.head:
  %bi = phi i64 [ 0, %seen.head ], [ %bi.next, %b.ax.head ]
  %b.more = icmp slt i64 %bi, %nops
  br i1 %b.more, label %b.op.body, label %out.head

b.op.body:
  %bl.p = getelementptr i64, ptr %lnds, i64 %bi
  %blnd = load i64, ptr %bl.p
  %bsh.p = getelementptr ptr, ptr %shapes, i64 %bi
  %bsh = load ptr, ptr %bsh.p
  %blead = sub i64 %l, %blnd
  br label %b.ax.head

b.ax.head:
  %bj = phi i64 [ 0, %b.op.body ], [ %bj.next, %b.ok ]
  %bj.more = icmp slt i64 %bj, %blnd
  %bi.next = add i64 %bi, 1
  br i1 %bj.more, label %b.ax.body, label %b.op.head

b.ax.body:
  %bax = add i64 %blead, %bj
  %bn.p = getelementptr i64, ptr %bsh, i64 %bj
  %bn = load i64, ptr %bn.p
  %bcur.p = getelementptr i64, ptr %lshape, i64 %bax
  %bcur = load i64, ptr %bcur.p
  %cur.one = icmp eq i64 %bcur, 1
  %n.one = icmp eq i64 %bn, 1
  %same = icmp eq i64 %bn, %bcur
  %bok1 = or i1 %cur.one, %n.one
  %bok = or i1 %bok1, %same
  br i1 %bok, label %b.ok, label %fail.bcast, !prof !0

fail.bcast:
  %r.bcast = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.bcast, ptr %name, ptr %at)
  call void @abort()
  unreachable

b.ok:
  %bnew = select i1 %cur.one, i64 %bn, i64 %bcur
  store i64 %bnew, ptr %bcur.p
  %bj.next = add i64 %bj, 1
  br label %b.ax.head

; Outputs have the broadcast loop shape exactly.
out.head:
  %oi = phi i64 [ %nin, %b.op.head ], [ %oi.next, %out.ax.head ]
  %o.more = icmp slt i64 %oi, %nops
  br i1 %o.more, label %out.body, label %cs.op.head

out.body:
  %ol.p = getelementptr i64, ptr %lnds, i64 %oi
  %olnd = load i64, ptr %ol.p
  %osh.p = getelementptr ptr, ptr %shapes, i64 %oi
  %osh = load ptr, ptr %osh.p
  %orank.bad = icmp ne i64 %olnd, %l
  br i1 %orank.bad, label %fail.out, label %out.ax.head, !prof !1

out.ax.head:
  %oj = phi i64 [ 0, %out.body ], [ %oj.next, %out.ax.body ]
  %oj.more = icmp slt i64 %oj, %l
  %oi.next = add i64 %oi, 1
  br i1 %oj.more, label %out.ax.body, label %out.head

out.ax.body:
  %on.p = getelementptr i64, ptr %osh, i64 %oj
  %on = load i64, ptr %on.p
  %ow.p = getelementptr i64, ptr %lshape, i64 %oj
  %ow = load i64, ptr %ow.p
  %oj.next = add i64 %oj, 1
  %o.bad = icmp ne i64 %on, %ow
  br i1 %o.bad, label %fail.out, label %out.ax.head, !prof !1

fail.out:
  %r.out = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.out, ptr %name, i64 %oi, ptr %at)
  call void @abort()
  unreachable

; Loop byte strides (0 along a stretched axis), core sizes and core steps.
cs.op.head:
  %ci = phi i64 [ 0, %out.head ], [ %ci.next, %core.head ]
  %ci.more = icmp slt i64 %ci, %nops
  br i1 %ci.more, label %cs.op.body, label %inner

cs.op.body:
  %cod = getelementptr %op.t, ptr %opd, i64 %ci
  %csize.p = getelementptr %op.t, ptr %cod, i64 0, i32 2
  %csize = load i64, ptr %csize.p
  %cncore.p = getelementptr %op.t, ptr %cod, i64 0, i32 3
  %cncore = load i64, ptr %cncore.p
  %cbase.p = getelementptr %op.t, ptr %cod, i64 0, i32 4
  %cbase = load i64, ptr %cbase.p
  %ccore.p = getelementptr %op.t, ptr %cod, i64 0, i32 5
  %ccore = load ptr, ptr %ccore.p
  %cl.p = getelementptr i64, ptr %lnds, i64 %ci
  %clnd = load i64, ptr %cl.p
  %csh.p = getelementptr ptr, ptr %shapes, i64 %ci
  %csh = load ptr, ptr %csh.p
  %cerow = mul i64 %ci, %row
  %ce = getelementptr i64, ptr %estr, i64 %cerow
  %clead = sub i64 %l, %clnd
  %clrow = mul i64 %ci, MAXD
  br label %ls.head

ls.head:
  %lj = phi i64 [ 0, %cs.op.body ], [ %lj.next, %ls.body ]
  %lj.more = icmp slt i64 %lj, %clnd
  br i1 %lj.more, label %ls.body, label %core.head

ls.body:
  %lax = add i64 %clead, %lj
  %ln.p = getelementptr i64, ptr %csh, i64 %lj
  %ln = load i64, ptr %ln.p
  %les.p = getelementptr i64, ptr %ce, i64 %lj
  %les = load i64, ptr %les.p
  %lbs = mul i64 %les, %csize
  %ln.one = icmp eq i64 %ln, 1
  %lsv = select i1 %ln.one, i64 0, i64 %lbs
  %lk = add i64 %clrow, %lax
  %lk.p = getelementptr i64, ptr %lstr, i64 %lk
  store i64 %lsv, ptr %lk.p
  %lj.next = add i64 %lj, 1
  br label %ls.head

core.head:
  %ka = phi i64 [ 0, %ls.head ], [ %ka.next, %core.step ]
  %ka.more = icmp slt i64 %ka, %cncore
  %ci.next = add i64 %ci, 1
  br i1 %ka.more, label %core.body, label %cs.op.head

core.body:
  %kd.p = getelementptr i64, ptr %ccore, i64 %ka
  %kd = load i64, ptr %kd.p
  %kaxis = add i64 %clnd, %ka
  %kn.p = getelementptr i64, ptr %csh, i64 %kaxis
  %kn = load i64, ptr %kn.p
  %kdd = getelementptr %dim.t, ptr %dimd, i64 %kd
  %kfixed.p = getelementptr %dim.t, ptr %kdd, i64 0, i32 0
  %kfixed = load i64, ptr %kfixed.p
  %kslot = add i64 %kd, 1
  %kslot.p = getelementptr i64, ptr %dims, i64 %kslot
  %kseen.p = getelementptr i8, ptr %seen, i64 %kd
  %kseen = load i8, ptr %kseen.p
  %is.fixed = icmp ne i64 %kfixed, 0
  br i1 %is.fixed, label %core.fixed, label %core.free

core.fixed:
  %kfx.p = getelementptr %dim.t, ptr %kdd, i64 0, i32 1
  %kfx = load i64, ptr %kfx.p
  %kfx.bad = icmp ne i64 %kn, %kfx
  br i1 %kfx.bad, label %fail.fixed, label %core.record, !prof !1

fail.fixed:
  %r.fixed = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.fixed, ptr %name, i64 %ci, i64 %kfx, i64 %ka, ptr %at)
  call void @abort()
  unreachable

core.free:
  %kwas = icmp ne i8 %kseen, 0
  br i1 %kwas, label %core.compare, label %core.record

core.compare:
  %kwant = load i64, ptr %kslot.p
  %kbad = icmp ne i64 %kn, %kwant
  br i1 %kbad, label %fail.core, label %core.record, !prof !1

fail.core:
  %kname.p = getelementptr %dim.t, ptr %kdd, i64 0, i32 2
  %kname = load ptr, ptr %kname.p
  %r.core = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @f.core, ptr %name, ptr %kname, i64 %ci, ptr %at)
  call void @abort()
  unreachable

core.record:
  %kfirst = icmp eq i8 %kseen, 0
  br i1 %kfirst, label %core.first, label %core.step

core.first:
  store i64 %kn, ptr %kslot.p
  store i8 1, ptr %kseen.p
  br label %core.step

core.step:
  %kes.p = getelementptr i64, ptr %ce, i64 %kaxis
  %kes = load i64, ptr %kes.p
  %kbs = mul i64 %kes, %csize
  %kst = add i64 %cbase, %ka
  %kst.p = getelementptr i64, ptr %steps, i64 %kst
  store i64 %kbs, ptr %kst.p
  %ka.next = add i64 %ka, 1
  br label %core.head

; The innermost loop axis goes to NAME_loop; an empty loop shape is one
; iteration.
inner:
  %has.loop = icmp sgt i64 %l, 0
  %lm1 = sub i64 %l, 1
  %iax = select i1 %has.loop, i64 %lm1, i64 0
  %in.p = getelementptr i64, ptr %lshape, i64 %iax
  %in = load i64, ptr %in.p
  store i64 %in, ptr %dims
  br label %is.head

is.head:
  %ii = phi i64 [ 0, %inner ], [ %ii.next, %is.body ]
  %ii.more = icmp slt i64 %ii, %nops
  br i1 %ii.more, label %is.body, label %total.head

is.body:
  %irow = mul i64 %ii, MAXD
  %ik = add i64 %irow, %iax
  %ik.p = getelementptr i64, ptr %lstr, i64 %ik
  %is = load i64, ptr %ik.p
  %ist.p = getelementptr i64, ptr %steps, i64 %ii
  store i64 %is, ptr %ist.p
  %ioff.p = getelementptr i64, ptr %off, i64 %ii
  store i64 0, ptr %ioff.p
  %ii.next = add i64 %ii, 1
  br label %is.head

; Nothing to do when any loop axis is empty.
total.head:
  %ta = phi i64 [ 0, %is.head ], [ %ta.next, %total.body ]
  %tot = phi i64 [ 1, %is.head ], [ %tot.next, %total.body ]
  %ta.more = icmp slt i64 %ta, %l
  br i1 %ta.more, label %total.body, label %total.done

total.body:
  %tn.p = getelementptr i64, ptr %lshape, i64 %ta
  %tn = load i64, ptr %tn.p
  %tot.next = mul i64 %tot, %tn
  %tidx.p = getelementptr i64, ptr %idx, i64 %ta
  store i64 0, ptr %tidx.p
  %ta.next = add i64 %ta, 1
  br label %total.head

total.done:
  %empty = icmp eq i64 %tot, 0
  br i1 %empty, label %exit, label %run

; One NAME_loop call per outer index, then the odometer.
run:
  br label %args.head

args.head:
  %ai = phi i64 [ 0, %run ], [ %ai.next, %args.body ]
  %ai.more = icmp slt i64 %ai, %nops
  br i1 %ai.more, label %args.body, label %call

args.body:
  %ab.p = getelementptr ptr, ptr %bases, i64 %ai
  %ab = load ptr, ptr %ab.p
  %ao.p = getelementptr i64, ptr %off, i64 %ai
  %ao = load i64, ptr %ao.p
  %aptr = getelementptr i8, ptr %ab, i64 %ao
  %aslot = getelementptr ptr, ptr %args, i64 %ai
  store ptr %aptr, ptr %aslot
  %ai.next = add i64 %ai, 1
  br label %args.head

call:
  call void %lp(ptr %args, ptr %dims, ptr %steps, ptr null)
  %outer = sub i64 %iax, 1
  br label %next

next:
  %ax = phi i64 [ %outer, %call ], [ %ax.prev, %carry.done ]
  %finished = icmp slt i64 %ax, 0
  br i1 %finished, label %exit, label %step

step:
  %v.p = getelementptr i64, ptr %idx, i64 %ax
  %v = load i64, ptr %v.p
  %v1 = add i64 %v, 1
  %vn.p = getelementptr i64, ptr %lshape, i64 %ax
  %vn = load i64, ptr %vn.p
  %within = icmp slt i64 %v1, %vn
  br i1 %within, label %advance, label %carry

advance:
  store i64 %v1, ptr %v.p
  br label %adv.head

adv.head:
  %di = phi i64 [ 0, %advance ], [ %di.next, %adv.body ]
  %di.more = icmp slt i64 %di, %nops
  br i1 %di.more, label %adv.body, label %run

adv.body:
  %drow = mul i64 %di, MAXD
  %dk = add i64 %drow, %ax
  %dk.p = getelementptr i64, ptr %lstr, i64 %dk
  %ds = load i64, ptr %dk.p
  %do.p = getelementptr i64, ptr %off, i64 %di
  %do = load i64, ptr %do.p
  %do.new = add i64 %do, %ds
  store i64 %do.new, ptr %do.p
  %di.next = add i64 %di, 1
  br label %adv.head

carry:
  store i64 0, ptr %v.p
  br label %carry.head

carry.head:
  %ri = phi i64 [ 0, %carry ], [ %ri.next, %carry.body ]
  %ri.more = icmp slt i64 %ri, %nops
  br i1 %ri.more, label %carry.body, label %carry.done

carry.body:
  %rrow = mul i64 %ri, MAXD
  %rk = add i64 %rrow, %ax
  %rk.p = getelementptr i64, ptr %lstr, i64 %rk
  %rs = load i64, ptr %rk.p
  %rback = mul i64 %rs, %v
  %ro.p = getelementptr i64, ptr %off, i64 %ri
  %ro = load i64, ptr %ro.p
  %ro.new = sub i64 %ro, %rback
  store i64 %ro.new, ptr %ro.p
  %ri.next = add i64 %ri, 1
  br label %carry.head

carry.done:
  %ax.prev = sub i64 %ax, 1
  br label %next

exit:
  ret void
}

!0 = !{!"branch_weights", i32 2000, i32 1}
!1 = !{!"branch_weights", i32 1, i32 2000}
"#;

#[cfg(test)]
mod tests {
    use crate::{emit, CodegenOptions, EmitKind, OptLevel};

    #[test]
    fn objects_take_machine_code_and_ir_output_the_ir() {
        let src = "module m\nufunc twice(%x: Float64) -> Float64 \"()->()\" {\nentry:\n  \
                   %y: Float64 = add %x, %x\n  return %y\n}\n";
        let m = postc_ir::parse::parse_module("m.pir", src.as_bytes()).expect("parses");
        let program = postc_ir::Program::from_module(m);
        let options = CodegenOptions::for_level(OptLevel::O2);
        let ir = String::from_utf8(emit(&program, &options, EmitKind::LlvmIr).expect("IR")).unwrap();
        assert!(ir.contains("define linkonce_odr hidden void @postc.ufunc.dl("), "{ir}");
        assert!(!ir.contains("module asm"), "{ir}");
        let asm = String::from_utf8(emit(&program, &options, EmitKind::Assembly).expect("asm")).unwrap();
        assert!(asm.contains("postc.ufunc.dl:"), "{asm}");
        assert!(asm.contains(".Lpostc.dl."), "{asm}");
        assert!(asm.contains("twice_dl:"), "{asm}");
        // The system assembler takes the assembly output as it is.
        if std::process::Command::new("cc").arg("--version").output().is_ok_and(|o| o.status.success()) {
            let dir = tempfile::tempdir().unwrap();
            let s = dir.path().join("m.s");
            std::fs::write(&s, &asm).unwrap();
            let out = std::process::Command::new("cc")
                .arg("-c")
                .arg(&s)
                .arg("-o")
                .arg(dir.path().join("m.o"))
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
        // Compiled once, the same machine code serves every later object.
        let a = emit(&program, &options, EmitKind::Object).expect("object");
        let b = emit(&program, &options, EmitKind::Object).expect("object");
        assert_eq!(a, b);
    }
}
