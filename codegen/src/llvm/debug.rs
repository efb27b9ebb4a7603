//! Debug information (`-g`, [`crate::CodegenOptions::debug`]): DWARF built
//! with inkwell's `DebugInfoBuilder` (LLVM's DIBuilder) while a unit's
//! bodies are built, so that gdb, perf and crash reports name the POST
//! Python line.
//!
//! - **Compile units.** Each POST module is one compile unit (its own
//!   builder), naming the module's source file (the `.py` or `.pir` path
//!   as the loader read it) and the compilation directory (the working
//!   directory of the compiler, against which a debugger resolves a
//!   relative path); its language is Python. The module asks for DWARF 4:
//!   LLVM's DWARF 5 carries a `.debug_names` index and no `.debug_aranges`,
//!   and from those gdb 13 finds no function's information by address
//!   until something else made it read the compile unit (a backtrace from
//!   the runtime's panic handler would show no `.py` line).
//! - **Subprograms.** Every IR function gets a `DISubprogram` with its
//!   name, its symbol as linkage name when that differs (a private
//!   function's `module.function`), the line of its `def`, and the POST
//!   types of its parameters and result; the outlined panic paths
//!   (`postc.cold.panic.N`) and codegen's own panic thunks
//!   (`postc.cg.panic.N`) are artificial subprograms at the line of their
//!   panic. Functions that codegen adds and that call a described
//!   function (a ufunc's `NAME_loop`, the GPU host glue) get an artificial
//!   subprogram at the line of the first such callee, every instruction
//!   located there: what LLVM inlines into them keeps a complete
//!   inlined-at chain.
//! - **Line table.** Every instruction codegen builds for an IR
//!   instruction carries that instruction's file, line and column (an
//!   instruction the passes inserted without one takes the location before
//!   it in its block, or the function's line at the start of a block), so
//!   the checks and loads of one IR instruction share its line. A location
//!   in another file than the function's is scoped by a lexical block of
//!   that file. LLVM's inliner turns the locations of an inlined call into
//!   inlined-at locations.
//! - **Variables.** Every parameter, and every `let` whose name is a
//!   Python identifier (the frontend's temporaries carry a `.N` suffix),
//!   lives in a stack slot described by a `dbg.declare`, so at -O0 gdb's
//!   `info args`, `info locals` and `print` read them; optimisation turns
//!   the declarations into value locations where it can. Optimised code
//!   describes a parameter that has no slot of its own by its value
//!   (`dbg.value`) instead: a slot made for the debugger alone changes the
//!   code LLVM makes, and `-g` should not.
//! - **Types.** Scalars are DWARF base types named after their dtype
//!   (`Int64`, `Float32`, `Bool`, `Complex128`, ...); `Str` and `Bytes` are
//!   `{ptr, len}` structures; an array is a pointer to its `DLTensor`
//!   (docs/abi.md §3) whose `data` points to elements of its dtype, so
//!   `print *x` shows the header and `print x->data[0]@4` the first
//!   elements of a compact array.

use crate::llvm::emit::FnSig;
use inkwell::context::Context;
use inkwell::debug_info::{
    AsDIScope, DIFile, DIFlags, DIFlagsConstants, DILocation, DIScope, DISubprogram, DIType, DWARFEmissionKind,
    DWARFSourceLanguage, DebugInfoBuilder,
};
use inkwell::module::{FlagBehavior, Module as LlModule};
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, PointerValue};
use postc_ir::body::InstData;
use postc_ir::{DType, FileId, Function, Module, ModuleId, Program, SrcLoc, TypeId, ValueId};
use std::collections::HashMap;

/// DWARF base type encodings (`DW_ATE_*`).
mod ate {
    pub const BOOLEAN: u32 = 0x02;
    pub const COMPLEX_FLOAT: u32 = 0x03;
    pub const FLOAT: u32 = 0x04;
    pub const SIGNED: u32 = 0x05;
    pub const SIGNED_CHAR: u32 = 0x06;
    pub const UNSIGNED: u32 = 0x07;
    pub const UNSIGNED_CHAR: u32 = 0x08;
}

/// What a type description is of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum TypeKey {
    Scalar(DType),
    /// A pointer to a `DLTensor` of elements of the dtype.
    Tensor(DType),
    /// `char` (`Str`'s bytes) or `unsigned char` (`Bytes`').
    Char(bool),
}

/// The debug information of one POST module: its builder, compile unit,
/// files and types.
struct Cu<'c> {
    di: DebugInfoBuilder<'c>,
    file: DIFile<'c>,
    files: HashMap<FileId, DIFile<'c>>,
    types: HashMap<TypeKey, DIType<'c>>,
}

/// The debug information of one LLVM module (a codegen unit).
pub struct DebugInfo<'c> {
    cx: &'c Context,
    optimized: bool,
    ptr_bits: u64,
    /// The compile unit of each POST module, by module index.
    cus: Vec<Cu<'c>>,
    /// Every function given a subprogram: its module, file and line (what an
    /// artificial subprogram of a caller takes, see [`DebugInfo::finish`]).
    described: HashMap<FunctionValue<'c>, (ModuleId, DIFile<'c>, u32)>,
}

/// The debug state of one function while its body is built.
pub struct FnDebug<'c> {
    mid: ModuleId,
    sp: DISubprogram<'c>,
    /// The file of the subprogram (`None`: one outside the module's file table).
    file: Option<FileId>,
    line: u32,
    /// Lexical blocks that scope locations in other files.
    other_files: HashMap<FileId, DIScope<'c>>,
    /// The location of the last located instruction of the current block.
    last: Option<SrcLoc>,
}

/// Where a described variable is.
pub enum Described<'c> {
    /// In a stack slot, for the whole function.
    Slot(PointerValue<'c>),
    /// This value (from the start of the function).
    Value(inkwell::values::BasicValueEnum<'c>),
}

/// Whether `name` is a Python identifier (the name of a variable a user
/// wrote; the frontend's temporaries are `name.N`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The file a module's compile unit names: the file of its declaration,
/// else its first file, else a name made from the module's.
fn module_file(m: &Module) -> (Option<FileId>, String) {
    let id = m.decl_locs.module.map(|l| l.file).or_else(|| (!m.files.is_empty()).then(|| FileId::from_u32(0)));
    match id {
        Some(id) => (Some(id), m.files.path(id).to_owned()),
        None => (None, format!("{}.pir", m.name)),
    }
}

impl<'c> DebugInfo<'c> {
    /// A compile unit for every module of `program` in `module`, and the
    /// module flags that ask for DWARF 4 (see the module docs).
    pub fn new(cx: &'c Context, module: &LlModule<'c>, program: &Program, optimized: bool) -> DebugInfo<'c> {
        let i32t = cx.i32_type();
        module.add_basic_value_flag(
            "Debug Info Version",
            FlagBehavior::Warning,
            i32t.const_int(inkwell::debug_info::debug_metadata_version() as u64, false),
        );
        module.add_basic_value_flag("Dwarf Version", FlagBehavior::Warning, i32t.const_int(4, false));
        let ptr_bits = inkwell::targets::TargetData::create(&module.get_data_layout().as_str().to_string_lossy())
            .get_pointer_byte_size(None) as u64
            * 8;
        let dir = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| ".".into());
        let producer = concat!("postc ", env!("CARGO_PKG_VERSION"));
        let cus = program
            .modules
            .iter()
            .map(|m| {
                let (_, path) = module_file(m);
                let (di, cu) = module.create_debug_info_builder(
                    true,
                    DWARFSourceLanguage::Python,
                    &path,
                    &dir,
                    producer,
                    optimized,
                    "",
                    0,
                    "",
                    DWARFEmissionKind::Full,
                    0,
                    true,
                    false,
                    "",
                    "",
                );
                let file = cu.get_file();
                Cu { di, file, files: HashMap::new(), types: HashMap::new() }
            })
            .collect();
        DebugInfo { cx, optimized, ptr_bits, cus, described: HashMap::new() }
    }

    /// Whether the code is optimised (`-O1` and up).
    pub fn optimized(&self) -> bool {
        self.optimized
    }

    fn file(&mut self, mid: ModuleId, m: &Module, id: Option<FileId>) -> DIFile<'c> {
        let cu = &mut self.cus[mid.as_u32() as usize];
        let Some(id) = id else { return cu.file };
        let dir = {
            let mut len = 0;
            // SAFETY: the compile unit's file is a valid `DIFile`; the
            // directory's bytes live as long as the context.
            unsafe {
                let p = inkwell::llvm_sys::debuginfo::LLVMDIFileGetDirectory(cu.file.as_mut_ptr(), &mut len);
                String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len as usize)).into_owned()
            }
        };
        *cu.files.entry(id).or_insert_with(|| cu.di.create_file(m.files.path(id), &dir))
    }

    fn basic(&self, mid: ModuleId, name: &str, bits: u64, encoding: u32) -> DIType<'c> {
        match self.cus[mid.as_u32() as usize].di.create_basic_type(name, bits, encoding, DIFlags::ZERO) {
            Ok(t) => t.as_type(),
            // Only an empty name is refused (every name here has letters):
            // an opaque structure of the size would do.
            Err(_) => self.structure(mid, name, bits / 8, 1, &[]),
        }
    }

    fn pointer(&self, mid: ModuleId, to: DIType<'c>) -> DIType<'c> {
        let di = &self.cus[mid.as_u32() as usize].di;
        di.create_pointer_type("", to, self.ptr_bits, self.ptr_bits as u32, inkwell::AddressSpace::default()).as_type()
    }

    /// A structure of `(name, type, offset in bytes)` members.
    fn structure(
        &self,
        mid: ModuleId,
        name: &str,
        bytes: u64,
        align: u32,
        fields: &[(&str, DIType<'c>, u64)],
    ) -> DIType<'c> {
        let cu = &self.cus[mid.as_u32() as usize];
        let scope = cu.file.as_debug_info_scope();
        let members: Vec<DIType<'c>> = fields
            .iter()
            .map(|(n, t, off)| {
                let bits = t.get_size_in_bits();
                cu.di
                    .create_member_type(scope, n, cu.file, 0, bits, t.get_align_in_bits(), off * 8, DIFlags::ZERO, *t)
                    .as_type()
            })
            .collect();
        cu.di
            .create_struct_type(
                scope,
                name,
                cu.file,
                0,
                bytes * 8,
                align * 8,
                DIFlags::ZERO,
                None,
                &members,
                0,
                None,
                "",
            )
            .as_type()
    }

    fn key(&mut self, mid: ModuleId, key: TypeKey) -> DIType<'c> {
        if let Some(t) = self.cus[mid.as_u32() as usize].types.get(&key) {
            return *t;
        }
        let t = match key {
            TypeKey::Char(unsigned) => {
                if unsigned {
                    self.basic(mid, "unsigned char", 8, ate::UNSIGNED_CHAR)
                } else {
                    self.basic(mid, "char", 8, ate::SIGNED_CHAR)
                }
            }
            TypeKey::Scalar(d) => match d {
                DType::Bool => self.basic(mid, d.name(), 8, ate::BOOLEAN),
                DType::Float16 | DType::Float32 | DType::Float64 => {
                    self.basic(mid, d.name(), d.bits() as u64, ate::FLOAT)
                }
                DType::Complex64 | DType::Complex128 => self.basic(mid, d.name(), d.bits() as u64, ate::COMPLEX_FLOAT),
                DType::Str | DType::Bytes => {
                    let c = self.key(mid, TypeKey::Char(d == DType::Bytes));
                    let p = self.pointer(mid, c);
                    let len = self.key(mid, TypeKey::Scalar(DType::Int64));
                    self.structure(mid, d.name(), 16, 8, &[("ptr", p, 0), ("len", len, 8)])
                }
                d if d.is_signed_int() => self.basic(mid, d.name(), d.bits() as u64, ate::SIGNED),
                d => self.basic(mid, d.name(), d.bits() as u64, ate::UNSIGNED),
            },
            TypeKey::Tensor(d) => {
                use crate::abi::dltensor as at;
                let i = |me: &mut Self, d| me.key(mid, TypeKey::Scalar(d));
                let (i32t, u8t, u16t, i64t, u64t) = (
                    i(self, DType::Int32),
                    i(self, DType::UInt8),
                    i(self, DType::UInt16),
                    i(self, DType::Int64),
                    i(self, DType::UInt64),
                );
                let device = self.structure(mid, "DLDevice", 8, 4, &[("device_type", i32t, 0), ("device_id", i32t, 4)]);
                let dtype =
                    self.structure(mid, "DLDataType", 4, 2, &[("code", u8t, 0), ("bits", u8t, 1), ("lanes", u16t, 2)]);
                let elem = self.key(mid, TypeKey::Scalar(d));
                let data = self.pointer(mid, elem);
                let extents = self.pointer(mid, i64t);
                let tensor = self.structure(
                    mid,
                    "DLTensor",
                    at::SIZE,
                    8,
                    &[
                        ("data", data, at::DATA),
                        ("device", device, at::DEVICE),
                        ("ndim", i32t, at::NDIM),
                        ("dtype", dtype, at::DTYPE),
                        ("shape", extents, at::SHAPE),
                        ("strides", extents, at::STRIDES),
                        ("byte_offset", u64t, at::BYTE_OFFSET),
                    ],
                );
                self.pointer(mid, tensor)
            }
        };
        self.cus[mid.as_u32() as usize].types.insert(key, t);
        t
    }

    /// The description of a value of POST type `t` (Int64 when untyped, as
    /// codegen takes it).
    pub fn ty(&mut self, mid: ModuleId, m: &Module, t: Option<TypeId>) -> DIType<'c> {
        let key = match t.map(|t| m.types.get(t)) {
            Some(t) if t.is_array => TypeKey::Tensor(t.dtype),
            Some(t) => TypeKey::Scalar(t.dtype),
            None => TypeKey::Scalar(DType::Int64),
        };
        self.key(mid, key)
    }

    /// A subprogram for function `f` of module `mid`, attached to `func`.
    pub fn function(
        &mut self,
        mid: ModuleId,
        m: &Module,
        f: &Function,
        sig: &FnSig,
        func: FunctionValue<'c>,
    ) -> FnDebug<'c> {
        // A function without a location (one the passes made) is at its
        // first located instruction.
        let at = f.loc.or_else(|| f.body.tags.ids().find_map(|v| f.body.loc(v)));
        let file_id = at.map(|l| l.file).or(module_file(m).0);
        let line = at.map(|l| l.line).unwrap_or(0);
        let file = self.file(mid, m, file_id);
        let params: Vec<DIType<'c>> = f.body.all_params().map(|p| self.ty(mid, m, f.body.ty(p))).collect();
        // A tuple result is written through pointers the parameters do
        // not describe: the subroutine returns nothing.
        let ret = f.ret.filter(|t| !m.types.get(*t).is_tuple()).map(|t| self.ty(mid, m, Some(t)));
        let artificial = crate::calls::is_panic_thunk(f);
        let mut flags = DIFlags::PROTOTYPED;
        if artificial {
            flags |= DIFlags::ARTIFICIAL;
        }
        let cu = &self.cus[mid.as_u32() as usize];
        let ty = cu.di.create_subroutine_type(file, ret, &params, DIFlags::ZERO);
        let linkage = if sig.symbol == f.name { "" } else { sig.symbol.as_str() };
        let sp = cu.di.create_function(
            cu.file.as_debug_info_scope(),
            &f.name,
            Some(linkage),
            file,
            line,
            ty,
            !sig.exported,
            true,
            line,
            flags,
            self.optimized,
        );
        func.set_subprogram(sp);
        self.described.insert(func, (mid, file, line));
        FnDebug { mid, sp, file: file_id, line, other_files: HashMap::new(), last: None }
    }

    /// The location of an instruction at `loc` (see the module docs for
    /// one without).
    pub fn location(&mut self, fd: &mut FnDebug<'c>, m: &Module, loc: Option<SrcLoc>) -> DILocation<'c> {
        if loc.is_some() {
            fd.last = loc;
        }
        let Some(l) = fd.last else {
            return self.cus[fd.mid.as_u32() as usize].di.create_debug_location(
                self.cx,
                fd.line,
                0,
                fd.sp.as_debug_info_scope(),
                None,
            );
        };
        let scope = if Some(l.file) == fd.file {
            fd.sp.as_debug_info_scope()
        } else {
            match fd.other_files.get(&l.file) {
                Some(s) => *s,
                None => {
                    let file = self.file(fd.mid, m, Some(l.file));
                    let di = &self.cus[fd.mid.as_u32() as usize].di;
                    let s =
                        di.create_lexical_block(fd.sp.as_debug_info_scope(), file, l.line, l.col).as_debug_info_scope();
                    fd.other_files.insert(l.file, s);
                    s
                }
            }
        };
        self.cus[fd.mid.as_u32() as usize].di.create_debug_location(self.cx, l.line, l.col, scope, None)
    }

    /// The function's body is complete: its subprogram takes the variables
    /// declared (LLVM's verifier refuses one left open).
    pub fn end_function(&self, fd: &FnDebug<'c>) {
        self.close(fd.mid, fd.sp);
    }

    fn close(&self, mid: ModuleId, sp: DISubprogram<'c>) {
        let di = &self.cus[mid.as_u32() as usize].di;
        // SAFETY: the builder made the subprogram; both are of this context.
        unsafe { inkwell::llvm_sys::debuginfo::LLVMDIBuilderFinalizeSubprogram(di.as_mut_ptr(), sp.as_mut_ptr()) }
    }

    /// A new block starts: until a located instruction, the function's line.
    pub fn block_start(&self, fd: &mut FnDebug<'c>) {
        fd.last = None;
    }

    /// Describes value `v` of function `f`, the parameter number `arg`
    /// (from 1) or a local, where `at` says: in its stack slot for the whole
    /// function (`dbg.declare`), or (a parameter without a slot in
    /// optimised code) as the argument's value (`dbg.value`; a slot only for
    /// the debugger would change the code LLVM makes). The record goes at
    /// the end of `block` (the entry block, while its allocas are built).
    #[allow(clippy::too_many_arguments)]
    pub fn describe(
        &mut self,
        fd: &FnDebug<'c>,
        m: &Module,
        f: &Function,
        v: ValueId,
        arg: Option<u32>,
        at: Described<'c>,
        block: inkwell::basic_block::BasicBlock<'c>,
    ) {
        let name = match (f.body.name(v), arg) {
            // A later version of a parameter (`x$1`, bound at the top level
            // of a Python function) is the debugger's `x`.
            (Some(n), _) if !n.is_empty() => n.split('$').next().unwrap_or(n).to_owned(),
            (_, Some(k)) => format!("arg{k}"),
            _ => return,
        };
        let line = f.body.loc(v).map(|l| l.line).unwrap_or(fd.line);
        let ty = self.ty(fd.mid, m, f.body.ty(v));
        let file = self.file(fd.mid, m, fd.file);
        let scope = fd.sp.as_debug_info_scope();
        let di = &self.cus[fd.mid.as_u32() as usize].di;
        let var = match arg {
            Some(k) => di.create_parameter_variable(scope, &name, k, file, line, ty, true, DIFlags::ZERO),
            None => di.create_auto_variable(scope, &name, file, line, ty, true, DIFlags::ZERO, 0),
        };
        let loc = di.create_debug_location(self.cx, line, 0, scope, None);
        let expr = di.create_expression(Vec::new());
        use inkwell::llvm_sys::debuginfo::{
            LLVMDIBuilderInsertDbgValueRecordAtEnd, LLVMDIBuilderInsertDeclareRecordAtEnd,
        };
        // SAFETY: every operand is of this module's context; the record goes
        // at the end of `block`, before the instructions built after it.
        // (inkwell's own `insert_declare_at_end` takes the record LLVM
        // returns for an instruction, which it is not.)
        unsafe {
            let insert = match at {
                Described::Slot(_) => LLVMDIBuilderInsertDeclareRecordAtEnd,
                Described::Value(_) => LLVMDIBuilderInsertDbgValueRecordAtEnd,
            };
            let value = match at {
                Described::Slot(p) => p.as_value_ref(),
                Described::Value(x) => x.as_value_ref(),
            };
            insert(di.as_mut_ptr(), value, var.as_mut_ptr(), expr.as_mut_ptr(), loc.as_mut_ptr(), block.as_mut_ptr());
        }
    }

    /// Whether a local `let` or `set` target `v` is described (parameters
    /// always are).
    pub fn is_described_local(f: &Function, v: ValueId) -> bool {
        matches!(f.body.inst(v), InstData::Let { .. }) && f.body.name(v).is_some_and(is_identifier)
    }

    /// An artificial subprogram for codegen's panic thunk `func` (the
    /// panic at `at` of module `mid`); returns the location of its code.
    pub fn thunk(&mut self, func: FunctionValue<'c>, m: &Module, mid: ModuleId, at: Option<SrcLoc>) -> DILocation<'c> {
        let name = func.get_name().to_string_lossy().into_owned();
        let file = self.file(mid, m, at.map(|l| l.file).or(module_file(m).0));
        let line = at.map(|l| l.line).unwrap_or(0);
        let sp = self.artificial(mid, func, &name, file, line);
        let di = &self.cus[mid.as_u32() as usize].di;
        di.create_debug_location(self.cx, line, at.map(|l| l.col).unwrap_or(0), sp.as_debug_info_scope(), None)
    }

    fn artificial(
        &mut self,
        mid: ModuleId,
        func: FunctionValue<'c>,
        name: &str,
        file: DIFile<'c>,
        line: u32,
    ) -> DISubprogram<'c> {
        let cu = &self.cus[mid.as_u32() as usize];
        let ty = cu.di.create_subroutine_type(file, None, &[], DIFlags::ZERO);
        let sp = cu.di.create_function(
            cu.file.as_debug_info_scope(),
            name,
            Some(""),
            file,
            line,
            ty,
            true,
            true,
            line,
            DIFlags::ARTIFICIAL | DIFlags::PROTOTYPED,
            self.optimized,
        );
        func.set_subprogram(sp);
        self.close(mid, sp);
        self.described.insert(func, (mid, file, line));
        sp
    }

    /// Completes the unit's debug information once every function is in
    /// `module`: each defined function without a subprogram that calls a
    /// described one gets an artificial subprogram at that callee's line,
    /// and every one of its instructions that location; then each builder
    /// is finalised.
    pub fn finish(mut self, module: &LlModule<'c>) {
        for func in module.get_functions() {
            if func.count_basic_blocks() == 0 || func.get_subprogram().is_some() {
                continue;
            }
            let callee = func.get_basic_block_iter().flat_map(|b| b.get_instructions()).find_map(|i| {
                if i.get_opcode() != InstructionOpcode::Call {
                    return None;
                }
                // SAFETY: `i` is a call, whose called operand is a value of
                // the module; `FunctionValue::new` checks that it is a
                // function.
                let f = unsafe { FunctionValue::new(inkwell::llvm_sys::core::LLVMGetCalledValue(i.as_value_ref())) }?;
                self.described.get(&f).copied()
            });
            let Some((mid, file, line)) = callee else { continue };
            let name = func.get_name().to_string_lossy().into_owned();
            let sp = self.artificial(mid, func, &name, file, line);
            let di = &self.cus[mid.as_u32() as usize].di;
            let loc = di.create_debug_location(self.cx, line, 0, sp.as_debug_info_scope(), None);
            for b in func.get_basic_block_iter() {
                for i in b.get_instructions() {
                    // SAFETY: the instruction and the location are of this
                    // module's context.
                    unsafe {
                        inkwell::llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(i.as_value_ref(), loc.as_mut_ptr());
                    }
                }
            }
        }
        for cu in &self.cus {
            cu.di.finalize();
        }
    }
}
