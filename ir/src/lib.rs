//! postc-ir: the POST intermediate representation.
//!
//! The IR is stored as data-oriented tables indexed by typed `u32` ids (see
//! [`body`]); the text format (`.pir`) is printed by [`print`] and read by
//! [`parse`]; [`verify`] checks a module and [`interp`] runs it.

pub mod body;
pub mod builder;
pub mod builtins;
pub mod calls;
pub mod cfg;
pub mod diag;
pub mod dtype;
pub mod entity;
pub mod exports;
pub mod gen;
pub mod interp;
pub mod loc;
pub mod module;
pub mod opcode;
pub mod parse;
pub mod print;
pub mod resolve;
pub mod types;
pub mod ufunc;
pub mod verify;
pub mod view;

pub use body::{BlockData, BlockId, Body, ConstValue, Field, InstData, Literal, NameId, ValueId, ValueList};
pub use builder::FunctionBuilder;
pub use diag::{Diagnostic, Pos, SourceMap};
pub use dtype::{DType, DTypeKind};
pub use entity::{EntityId, IndexVec};
pub use loc::{FileId, FileTable, Loc, SrcLoc};
pub use module::{
    regroup, ArrayDefault, Constant, DTypeParam, FuncAttrs, FuncId, Function, ImportedName, MaybeNone, Module,
    ModuleId, Program,
};
pub use opcode::{BinOp, Format, Item, Opcode, PayloadLayout, Slot, Trap, UnaryOp, ValueSlots};
pub use types::{Layout, Shape, TypeData, TypeId, TypeTable};
pub use ufunc::UFuncSignature;
