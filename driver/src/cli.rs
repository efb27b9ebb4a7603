//! The command line's arguments, as clap declares them.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "postc-driver", version, about = "The postc compiler for POST Python and POST IR modules")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Parse and verify modules (and the modules they import).
    Check {
        /// `.py` and `.pir` files; files named together resolve each other's imports.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Directories searched for imported modules (`a.b` is `a/b.py` or `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
    /// Run a pass pipeline over a module and print the result.
    Opt {
        /// The module to optimise (its imports are loaded and checked too).
        file: PathBuf,
        /// A pipeline such as `insert-checks,stride-lower,select-fold,dce,cold-outline`.
        #[arg(long, conflicts_with = "opt_level")]
        passes: Option<String>,
        /// Optimisation level 0-3 (its default pipeline and check settings).
        #[arg(short = 'O', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(0..=3))]
        opt_level: Option<u8>,
        /// Write the result here instead of standard output.
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
        /// Worker threads for function passes.
        #[arg(short = 'j', value_name = "N")]
        jobs: Option<usize>,
        /// Print the time spent in each pass to standard error.
        #[arg(long)]
        time_passes: bool,
        /// Print each function after this pass to standard error.
        #[arg(long, value_name = "PASS")]
        print_after: Option<String>,
        /// Verify the module after every pass.
        #[arg(long)]
        verify_each: bool,
        /// Run only the first N pass applications (to find a miscompiling pass).
        #[arg(long, value_name = "N")]
        bisect_limit: Option<u64>,
        /// Code-generation options: overflow-checks=on|off, bounds-checks=on|off, div-checks=on|off.
        #[arg(short = 'C', value_name = "OPT=VALUE")]
        codegen: Vec<String>,
        /// Directories searched for imported modules (`a.b` is `a/b.py` or `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
    /// List every pass with its description.
    Passes,
    /// Write the host runtime that compiled code links (`libpostc_runtime.a`)
    /// and its header (`postc_runtime.h`), for linking `--emit obj` output;
    /// `postc.h`; and the runtime's C sources in `DIR/src`, which build with
    /// `--emit c` output under any C11 compiler.
    Runtime {
        /// The directory to write them into (created if missing).
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
    },
    /// Run a function in the reference interpreter with scalar arguments and
    /// print its result as Python would.
    Run {
        /// The module (`.py` or `.pir`; its imports are loaded and checked too).
        file: PathBuf,
        /// The function to call.
        #[arg(long)]
        entry: String,
        /// Panic on integer overflow (the -O0 semantics) instead of wrapping.
        #[arg(long)]
        overflow_checks: bool,
        /// Stop with an `out of fuel` error (exit status 101) after N units of work: one per
        /// instruction, and one more per byte of text an instruction reads and per element it allocates.
        #[arg(long, value_name = "N")]
        fuel: Option<u64>,
        /// Directories searched for imported modules (`a.b` is `a/b.py` or `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Arguments, one per parameter, in Python syntax (`3`, `0x1f`, `-1.5`, `True`, `1+2j`, `'text'`, `b'\x00'`).
        #[arg(last = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Compile modules to an object, assembly, LLVM IR, bitcode, C, a shared
    /// library, an executable or a CPython extension module.
    Compile {
        /// `.py` and `.pir` files; files named together resolve each other's
        /// imports and compile into one output.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The output file (default: from the first file's stem).
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
        /// What to write.
        #[arg(long, value_enum, default_value = "obj")]
        emit: EmitArg,
        /// Optimisation level 0-3.
        #[arg(short = 'O', value_name = "LEVEL", default_value = "2")]
        opt_level: u8,
        /// Target triple (default: the host).
        #[arg(long, value_name = "TRIPLE")]
        target: Option<String>,
        /// Target CPU (default: the host's; `generic` with --target).
        #[arg(long, value_name = "CPU")]
        cpu: Option<String>,
        /// Threads compiling the codegen units (default: the core count); the
        /// split into units depends on the program only, so -j never changes the output.
        #[arg(short = 'j', value_name = "N")]
        jobs: Option<usize>,
        /// Code-generation options: overflow-checks=on|off, bounds-checks=on|off, div-checks=on|off,
        /// fast-math=on|off (float reassociation and contraction).
        #[arg(short = 'C', value_name = "OPT=VALUE")]
        codegen: Vec<String>,
        /// LLVM IR (`.ll`) to link in; its functions become internal.
        #[arg(long = "link-ir", value_name = "FILE")]
        link_ir: Vec<PathBuf>,
        /// Print the time of each phase to standard error.
        #[arg(long)]
        time_passes: bool,
        /// Directories searched for imported modules (`a.b` is `a/b.py` or `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// GPU code for `gpu` functions: nvptx (default), amdgpu or off (host only).
        #[arg(long, value_enum, default_value = "nvptx")]
        gpu: GpuArg,
        /// GPU architecture (default sm_90, or gfx90a for amdgpu; with `--emit ptx|hsaco`, `--cpu` sets it too).
        #[arg(long = "gpu-arch", value_name = "ARCH")]
        gpu_arch: Option<String>,
        /// The backend that translates the program: `llvm` (the default), `c`
        /// (C11 through the system C compiler, `CC` or `cc`) or `qbe` (QBE IL
        /// through `qbe`, the system assembler and `cc`) or `wasm` (a
        /// WebAssembly module; `--target wasm32-unknown-unknown` implies it).
        #[arg(long, value_name = "NAME", default_value = "llvm")]
        backend: String,
        /// Debug information: DWARF that maps the code to the `.py`/`.pir` lines,
        /// with parameters and locals (docs/debugging.md).
        #[arg(short = 'g')]
        debug: bool,
        /// The CPython that imports a `--emit pyext` module: it names the
        /// extension's suffix, and its version must be the one postc-pyabi was built for.
        #[arg(long, value_name = "PYTHON", default_value = "python3")]
        python: String,
        /// A `--emit pyext` module for CPython's stable ABI (`NAME.abi3.so`),
        /// which every CPython from the version postc-pyabi's abi3 library was
        /// built for imports (docs/aot.md says what it costs).
        #[arg(long)]
        abi3: bool,
    },
    /// Lower a POST Python file to IR and print it (`.pir` text that `check`
    /// accepts and `fmt` leaves as it is).
    Lower {
        /// The `.py` file (its imports are loaded and checked too).
        file: PathBuf,
        /// Write the IR here instead of standard output.
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
        /// Directories searched for imported modules (`a.b` is `a/b.py` or `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
    /// Print a module in canonical form (a `.py` file: the IR it lowers to).
    Fmt {
        /// A `.pir` or `.py` file, or `-` for standard input (`.pir` text).
        file: PathBuf,
        /// Exit with status 1 if the file is not in canonical form.
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the file in place.
        #[arg(short = 'w', long = "write")]
        write: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum EmitArg {
    Obj,
    Asm,
    #[value(name = "llvm-ir")]
    LlvmIr,
    Bc,
    Shared,
    Exe,
    /// C11 source and its header of exported prototypes (`--backend c`).
    C,
    /// Only the C header of exported prototypes (`--backend c`).
    #[value(name = "c-header")]
    CHeader,
    /// QBE IL text (`--backend qbe`).
    Qbe,
    /// A WebAssembly module (`--backend wasm`).
    Wasm,
    /// The WebAssembly module as text (`--backend wasm`).
    Wat,
    /// The PTX of the program's gpu functions.
    Ptx,
    /// The AMDGPU code object of the program's gpu functions (implies `--gpu amdgpu`).
    Hsaco,
    /// A CPython extension module, `NAME<EXT_SUFFIX>`, that needs only NumPy, and
    /// its type stub `NAME.pyi` (docs/aot.md).
    Pyext,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum GpuArg {
    Nvptx,
    Amdgpu,
    Off,
}
