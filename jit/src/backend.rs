//! The Cranelift back end for the host: ISA detection (cranelift_native: SSE4.1, AVX, AVX2,
//! FMA when the CPU has them), one `JITModule` per cache epoch, and the compile step that
//! turns a finished CLIF function into a callable code pointer.
//!
//! Code is freed only a whole module at a time (cranelift-jit has no per-function free),
//! so a `Backend` is the unit the code cache drops.

use cranelift_codegen::ir::{AbiParam, Signature};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;

use crate::error::JitError;

/// How hard Cranelift works on each function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackendOpts {
    /// `opt_level=speed` (else `none`); `WAVEJIT_JIT_OPT=speed|none` overrides the
    /// default for measurements. The lowering emits each chunk's instructions in the
    /// order they should run and numbers its own values where it matters (constants,
    /// shifts and masks, NaN tests, 64-bit zips), so both levels give the same speed on
    /// the VALU/SDWA/f64 kernels (`none` keeps emission order: no spills; `speed`
    /// re-places pure instructions at their first use by a store, which spills some
    /// intermediate values of overwrite chains but costs nothing measurable there);
    /// `speed` is the default because its value numbering and sinking still make the
    /// DPP and VINTRP units ~18% faster (their per-instruction uniforms and gathered
    /// chunks), while `none` compiles up to ~40% faster.
    pub optimize: bool,
    /// Cranelift's single-pass register allocator (`regalloc_algorithm=single_pass`)
    /// instead of the backtracking one: quicker to compile, slower code (the quick tier).
    pub single_pass: bool,
    /// Run the CLIF verifier on every function (slow; on in debug builds).
    pub verify: bool,
}

impl Default for BackendOpts {
    fn default() -> Self {
        let optimize = match std::env::var("WAVEJIT_JIT_OPT") {
            Ok(v) => v != "none",
            Err(_) => true,
        };
        BackendOpts {
            optimize,
            single_pass: false,
            verify: cfg!(debug_assertions),
        }
    }
}

impl BackendOpts {
    /// The quick tier's settings: `opt_level=none` and the single-pass register
    /// allocator (`WAVEJIT_JIT_REGALLOC=backtracking` gives it the backtracking one, for
    /// measurements).
    pub fn quick() -> Self {
        let single_pass = !matches!(
            std::env::var("WAVEJIT_JIT_REGALLOC").as_deref(),
            Ok("backtracking")
        );
        BackendOpts {
            optimize: false,
            single_pass,
            verify: cfg!(debug_assertions),
        }
    }
}

/// Build the host ISA with our flags.
pub fn host_isa(opts: BackendOpts) -> Result<OwnedTargetIsa, JitError> {
    let mut fb = settings::builder();
    let set = |fb: &mut settings::Builder, k: &str, v: &str| {
        fb.set(k, v)
            .map_err(|e| JitError::Backend(format!("setting {k}={v}: {e}")))
    };
    set(
        &mut fb,
        "opt_level",
        if opts.optimize { "speed" } else { "none" },
    )?;
    set(
        &mut fb,
        "regalloc_algorithm",
        if opts.single_pass {
            "single_pass"
        } else {
            "backtracking"
        },
    )?;
    set(
        &mut fb,
        "enable_verifier",
        if opts.verify { "true" } else { "false" },
    )?;
    // cranelift-jit requires absolute (non-PIC) code and far calls.
    set(&mut fb, "is_pic", "false")?;
    set(&mut fb, "use_colocated_libcalls", "false")?;
    // Chained blocks tail-call each other; Cranelift's tail calls need frame pointers.
    set(&mut fb, "preserve_frame_pointers", "true")?;
    let isa_builder = cranelift_native::builder().map_err(|e| JitError::Backend(e.to_string()))?;
    isa_builder
        .finish(settings::Flags::new(fb))
        .map_err(|e| JitError::Backend(format!("host ISA: {e}")))
}

/// Whether the host has a fused multiply-add instruction (vector `fma` is then one
/// `vfmadd`; without it Cranelift would call a library routine per lane).
pub fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// The diagnostic directories (`WAVEJIT_JIT_CLIF`, `WAVEJIT_JIT_DUMP`), read from the
/// environment once per process (every function's compile asked it before).
static CLIF_DIR: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();
static DUMP_DIR: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();

fn diag_dir(
    cell: &'static std::sync::OnceLock<Option<std::ffi::OsString>>,
    var: &str,
) -> Option<&'static std::ffi::OsString> {
    cell.get_or_init(|| std::env::var_os(var)).as_ref()
}

/// One JIT module: the functions compiled into it live until it is dropped.
pub struct Backend {
    module: Option<JITModule>,
    pub(crate) ctx: Context,
    pub(crate) fctx: FunctionBuilderContext,
    /// Bytes of machine code emitted so far.
    code_bytes: usize,
    /// Functions compiled so far.
    functions: usize,
    /// Keep each compiled function's machine code and relocations in `last` (for the
    /// disk cache).
    pub(crate) keep_artifacts: bool,
    /// The machine code of the last function compiled, when `keep_artifacts` is set and
    /// it can be stored (`Artifact::of`).
    pub(crate) last: Option<Artifact>,
}

/// A compiled function as bytes that can be loaded into another module (another
/// process): its machine code, alignment and relocations. Only relocations against
/// Cranelift's library routines are kept (by name); a function with any other
/// relocation has no artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    pub align: u32,
    pub bytes: Vec<u8>,
    pub relocs: Vec<LibReloc>,
}

/// An 8-byte absolute relocation against a library routine (`LibCall`), by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibReloc {
    pub offset: u32,
    pub libcall: String,
    pub addend: i64,
}

impl Artifact {
    fn of(code: &cranelift_codegen::CompiledCode) -> Option<Artifact> {
        use cranelift_codegen::binemit::Reloc;
        use cranelift_codegen::ir::ExternalName;
        use cranelift_codegen::FinalizedRelocTarget;
        let mut relocs = Vec::new();
        for r in code.buffer.relocs() {
            match (&r.target, r.kind) {
                (FinalizedRelocTarget::ExternalName(ExternalName::LibCall(lc)), Reloc::Abs8) => {
                    relocs.push(LibReloc {
                        offset: r.offset,
                        libcall: lc.to_string(),
                        addend: r.addend,
                    })
                }
                _ => return None,
            }
        }
        Some(Artifact {
            align: code.buffer.alignment,
            bytes: code.code_buffer().to_vec(),
            relocs,
        })
    }
}

// SAFETY: a JITModule holds raw pointers to its own code memory and a symbol table of
// host function addresses; nothing in it is tied to the thread that created it. The
// cache only ever touches a Backend behind a Mutex.
unsafe impl Send for Backend {}

impl Backend {
    pub fn new(opts: BackendOpts) -> Result<Backend, JitError> {
        let isa = host_isa(opts)?;
        let jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        let module = JITModule::new(jb);
        let ctx = module.make_context();
        Ok(Backend {
            module: Some(module),
            ctx,
            fctx: FunctionBuilderContext::new(),
            code_bytes: 0,
            functions: 0,
            keep_artifacts: false,
            last: None,
        })
    }

    fn module(&self) -> Result<&JITModule, JitError> {
        self.module
            .as_ref()
            .ok_or_else(|| JitError::Backend("module already freed".into()))
    }

    /// The signature of a compiled block: `(wave: *mut Wave, ctx: *mut JitCtx) -> u32`, in
    /// the tail-call convention so that blocks can chain with `return_call_indirect`.
    pub fn block_signature(&self) -> Result<Signature, JitError> {
        let ptr = self.module()?.target_config().pointer_type();
        let mut sig = Signature::new(CallConv::Tail);
        sig.params.push(AbiParam::new(ptr));
        sig.params.push(AbiParam::new(ptr));
        sig.returns
            .push(AbiParam::new(cranelift_codegen::ir::types::I32));
        Ok(sig)
    }

    /// A signature in the host's C convention (for helpers and the entry trampoline).
    pub fn c_signature(&self, params: usize, ret: bool) -> Result<Signature, JitError> {
        let m = self.module()?;
        let ptr = m.target_config().pointer_type();
        let mut sig = m.make_signature();
        for _ in 0..params {
            sig.params.push(AbiParam::new(ptr));
        }
        if ret {
            sig.returns
                .push(AbiParam::new(cranelift_codegen::ir::types::I32));
        }
        Ok(sig)
    }

    /// What `FunctionBuilder::finalize` needs to know about the target.
    pub fn frontend_config(&self) -> cranelift_codegen::isa::TargetFrontendConfig {
        match self.module.as_ref() {
            Some(m) => m.target_config(),
            None => cranelift_codegen::isa::TargetFrontendConfig {
                default_call_conv: CallConv::SystemV,
                pointer_width: target_lexicon::PointerWidth::U64,
                page_size_align_log2: 12,
            },
        }
    }

    pub fn pointer_type(&self) -> cranelift_codegen::ir::Type {
        self.module
            .as_ref()
            .map_or(cranelift_codegen::ir::types::I64, |m| {
                m.target_config().pointer_type()
            })
    }

    /// Compile the function now in `self.ctx` (built by the caller) and return its
    /// address. The context is cleared afterwards.
    pub fn compile_current(&mut self) -> Result<*const u8, JitError> {
        let module = self
            .module
            .as_mut()
            .ok_or_else(|| JitError::Backend("module freed".into()))?;
        let sig = self.ctx.func.signature.clone();
        let id = module
            .declare_anonymous_function(&sig)
            .map_err(|e| JitError::Backend(format!("declare: {e}")))?;
        // Cranelift reports most problems as errors, but a lowering it lacks may panic:
        // treat that like an error (the block then runs in the interpreter).
        if let Some(dir) = diag_dir(&CLIF_DIR, "WAVEJIT_JIT_CLIF") {
            let path = std::path::Path::new(&dir)
                .join(format!("fn{}_{}.clif", self.functions, self.ctx.func.name));
            let _ = std::fs::write(path, self.ctx.func.display().to_string());
        }
        let ctx = &mut self.ctx;
        let r = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            module.define_function(id, ctx).map_err(Box::new)
        })) {
            Ok(r) => r,
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                module.clear_context(&mut self.ctx);
                return Err(JitError::Codegen(format!("cranelift panicked: {msg}")));
            }
        };
        if let Err(e) = r {
            let msg = match *e {
                cranelift_module::ModuleError::Compilation(ce) => {
                    cranelift_codegen::print_errors::pretty_error(&self.ctx.func, ce)
                }
                other => other.to_string(),
            };
            module.clear_context(&mut self.ctx);
            return Err(JitError::Codegen(msg));
        }
        let size = self
            .ctx
            .compiled_code()
            .map_or(0, |c| c.code_buffer().len());
        self.last = if self.keep_artifacts {
            self.ctx.compiled_code().and_then(Artifact::of)
        } else {
            None
        };
        // Diagnostics: `WAVEJIT_JIT_DUMP=<dir>` writes each function's machine code there
        // (`objdump -D -b binary -mi386:x86-64 <file>` disassembles it).
        if let Some(dir) = diag_dir(&DUMP_DIR, "WAVEJIT_JIT_DUMP") {
            if let Some(c) = self.ctx.compiled_code() {
                let path = std::path::Path::new(&dir)
                    .join(format!("fn{}_{}.bin", self.functions, self.ctx.func.name));
                let _ = std::fs::write(path, c.code_buffer());
            }
        }
        module.clear_context(&mut self.ctx);
        module
            .finalize_definitions()
            .map_err(|e| JitError::Backend(format!("finalize: {e}")))?;
        self.code_bytes += size;
        self.functions += 1;
        Ok(module.get_finalized_function(id))
    }

    /// Load a function compiled earlier (by this build with these settings: the caller
    /// checks) with the block signature, and return its address.
    pub fn define_artifact(&mut self, a: &Artifact) -> Result<*const u8, JitError> {
        use cranelift_codegen::binemit::Reloc;
        use cranelift_codegen::ir::LibCall;
        use cranelift_module::{ModuleReloc, ModuleRelocTarget};
        use std::str::FromStr;
        let sig = self.block_signature()?;
        let mut relocs = Vec::with_capacity(a.relocs.len());
        for r in &a.relocs {
            let lc = LibCall::from_str(&r.libcall)
                .map_err(|_| JitError::Backend(format!("unknown library routine {}", r.libcall)))?;
            if r.offset as usize + 8 > a.bytes.len() {
                return Err(JitError::Backend("relocation past the code".into()));
            }
            relocs.push(ModuleReloc {
                offset: r.offset,
                kind: Reloc::Abs8,
                name: ModuleRelocTarget::LibCall(lc),
                addend: r.addend,
            });
        }
        if !a.align.is_power_of_two() || a.align > 4096 || a.bytes.is_empty() {
            return Err(JitError::Backend("bad code alignment or size".into()));
        }
        let module = self
            .module
            .as_mut()
            .ok_or_else(|| JitError::Backend("module freed".into()))?;
        let id = module
            .declare_anonymous_function(&sig)
            .map_err(|e| JitError::Backend(format!("declare: {e}")))?;
        module
            .define_function_bytes(id, a.align as u64, &a.bytes, &relocs)
            .map_err(|e| JitError::Backend(format!("define: {e}")))?;
        module
            .finalize_definitions()
            .map_err(|e| JitError::Backend(format!("finalize: {e}")))?;
        self.code_bytes += a.bytes.len();
        self.functions += 1;
        Ok(module.get_finalized_function(id))
    }

    /// What identifies this back end's code generation: Cranelift's shared and ISA
    /// flags (optimisation level, host CPU features).
    pub fn fingerprint(&self) -> String {
        match self.module.as_ref() {
            Some(m) => {
                let isa = m.isa();
                let isa_flags: Vec<String> =
                    isa.isa_flags().iter().map(|v| v.to_string()).collect();
                format!(
                    "{} {}\n{}\n{}",
                    isa.name(),
                    isa.triple(),
                    isa.flags(),
                    isa_flags.join(" ")
                )
            }
            None => String::new(),
        }
    }

    pub fn code_bytes(&self) -> usize {
        self.code_bytes
    }

    pub fn functions(&self) -> usize {
        self.functions
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the cache drops a Backend only when it holds the only reference to
            // the code (exclusive `&mut` access to the cache, so no wave is running any of
            // its functions and every published pointer to them has been cleared).
            unsafe { m.free_memory() };
        }
    }
}
