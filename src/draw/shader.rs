//! A pixel shader for `draw`: its code, entry point and the SPI configuration that says
//! which input VGPRs it expects — from an object file of
//! `llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=… -filetype=obj` (ELF: `.text` plus the
//! `.AMDGPU.config` section of register/value pairs), or from assembly text (`.s`), whose
//! configuration the scene gives.
//!
//! Registers read from `.AMDGPU.config` (byte addresses, as LLVM writes them):
//! SPI_SHADER_PGM_RSRC1_PS (0xB028: VGPRS 5:0 in granules of 4, FLOAT_MODE 19:12,
//! DX10_CLAMP 21, IEEE 23), SPI_PS_INPUT_ENA (0x286CC) and SPI_PS_INPUT_ADDR (0x286D0);
//! the others (SPI_SHADER_PGM_RSRC2_PS, SPI_TMPRING_SIZE, LLVM's spill counts) are not
//! needed. A configuration without SPI_PS_INPUT_ENA is not a pixel shader's.

use std::path::Path;

use object::elf::{FileHeader64, EM_AMDGPU};
use object::read::elf::{ElfFile64, FileHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol, SymbolKind};
use wavejit_isa::Gen;

use super::error::DrawError;

const SPI_SHADER_PGM_RSRC1_PS: u32 = 0xB028;
const SPI_PS_INPUT_ENA: u32 = 0x286CC;
const SPI_PS_INPUT_ADDR: u32 = 0x286D0;

/// A loaded pixel shader.
#[derive(Clone, Debug)]
pub struct PixelShader {
    /// The generation the object file was compiled for (`None` for text and raw code).
    pub gen: Option<Gen>,
    pub code: Vec<u8>,
    /// Byte offset of the first instruction in `code`.
    pub entry: u32,
    /// SPI_PS_INPUT_ENA (`None` for text and raw code: the scene gives it).
    pub input_ena: Option<u32>,
    pub input_addr: Option<u32>,
    /// SPI_SHADER_PGM_RSRC1_PS.
    pub rsrc1: Option<u32>,
}

impl PixelShader {
    /// Load `path`: an ELF object, assembly text for `gen` (`.s`), or raw code.
    pub fn from_file(path: &Path, gen: Gen) -> Result<PixelShader, DrawError> {
        let bytes = crate::read_file_limited(path, crate::MAX_PROGRAM_BYTES)
            .map_err(|e| DrawError::Shader(e.to_string()))?;
        let at = |e: DrawError| match e {
            DrawError::Shader(m) => DrawError::Shader(format!("{}: {m}", path.display())),
            other => other,
        };
        if bytes.starts_with(b"\x7fELF") {
            return PixelShader::from_elf(&bytes).map_err(at);
        }
        let code = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("s"))
        {
            let text = String::from_utf8(bytes)
                .map_err(|e| DrawError::Shader(format!("{}: not UTF-8: {e}", path.display())))?;
            wavejit_isa::gcn::asm::assemble(gen, &text)
                .map_err(|e| DrawError::Shader(format!("{}: {e}", path.display())))?
                .bytes
        } else {
            bytes
        };
        Ok(PixelShader {
            gen: None,
            code,
            entry: 0,
            input_ena: None,
            input_addr: None,
            rsrc1: None,
        })
    }

    /// Read an object file of `llc-19 -mtriple=amdgcn-mesa-mesa3d -filetype=obj`.
    pub fn from_elf(bytes: &[u8]) -> Result<PixelShader, DrawError> {
        let bad = |m: String| DrawError::Shader(m);
        let file = ElfFile64::<LittleEndian>::parse(bytes).map_err(|e| bad(format!("{e}")))?;
        let hdr: &FileHeader64<LittleEndian> = file.elf_header();
        if hdr.e_machine(LittleEndian) != EM_AMDGPU {
            return Err(bad("not an AMDGPU object (e_machine)".into()));
        }
        let m = hdr.e_flags(LittleEndian) & 0xff;
        let (_, gen) = crate::load::elf::mach(m).ok_or_else(|| {
            bad(format!(
                "EF_AMDGPU_MACH 0x{m:02x} is not a GCN 1.0-1.2 processor"
            ))
        })?;
        let text = file
            .section_by_name(".text")
            .ok_or_else(|| bad("no .text section".into()))?;
        if text.relocations().next().is_some() {
            return Err(bad(
                ".text has relocations; draw runs self-contained shaders only".into(),
            ));
        }
        let code = text
            .data()
            .map_err(|e| bad(format!(".text: {e}")))?
            .to_vec();
        let funcs: Vec<_> = file
            .symbols()
            .filter(|s| s.kind() == SymbolKind::Text && s.section_index() == Some(text.index()))
            .collect();
        let entry = funcs
            .iter()
            .find(|s| s.name().ok() == Some("main"))
            .or(funcs.first())
            .map_or(0, |s| s.address());
        let entry = u32::try_from(entry)
            .ok()
            .filter(|&e| (e as usize) < code.len())
            .ok_or_else(|| bad(format!("entry point {entry:#x} is outside .text")))?;
        let config = file
            .section_by_name(".AMDGPU.config")
            .ok_or_else(|| bad("no .AMDGPU.config section".into()))?;
        let words = config
            .data()
            .map_err(|e| bad(format!(".AMDGPU.config: {e}")))?;
        if words.len() % 8 != 0 {
            return Err(bad(format!(
                ".AMDGPU.config is {} bytes, not register/value pairs",
                words.len()
            )));
        }
        let mut s = PixelShader {
            gen: Some(gen),
            code,
            entry,
            input_ena: None,
            input_addr: None,
            rsrc1: None,
        };
        for pair in words.chunks_exact(8) {
            let reg = u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]);
            let val = u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]);
            match reg {
                SPI_SHADER_PGM_RSRC1_PS => s.rsrc1 = Some(val),
                SPI_PS_INPUT_ENA => s.input_ena = Some(val),
                SPI_PS_INPUT_ADDR => s.input_addr = Some(val),
                _ => {}
            }
        }
        if s.input_ena.is_none() {
            return Err(bad(
                ".AMDGPU.config has no SPI_PS_INPUT_ENA: not a pixel shader".into(),
            ));
        }
        Ok(s)
    }

    /// VGPRs the shader was given (RSRC1's VGPRS field), 256 without a configuration.
    pub fn vgprs(&self) -> usize {
        self.rsrc1
            .map_or(256, |r| ((r & 63) as usize + 1) * 4)
            .min(256)
    }

    /// The MODE register at wave start: FLOAT_MODE, DX10_CLAMP and IEEE from RSRC1.
    pub fn mode(&self) -> Option<u32> {
        self.rsrc1
            .map(|r| (r >> 12 & 0xff) | (r >> 21 & 1) << 8 | (r >> 23 & 1) << 9)
    }
}
