//! The AMDGPU metadata note (`NT_AMDGPU_METADATA`, owner `AMDGPU`): a MessagePack map that
//! describes each kernel's arguments — offset, size and kind in the kernarg segment,
//! including the hidden ones the launcher fills (block counts, group sizes, remainders,
//! global offsets, …). Code object v3, v4 and v5 use it (AMDGPUUsage, "Code Object V3 to
//! V5 Metadata"). Unknown keys are ignored; a value of the wrong type is an error.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use serde::Deserialize;

/// ELF note type of the AMDGPU metadata.
pub const NT_AMDGPU_METADATA: u32 = 32;
/// Owner name of AMDGPU notes.
pub const NOTE_OWNER: &[u8] = b"AMDGPU";

/// The whole note.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Metadata {
    /// `[major, minor]`: 1.0 = code object v3, 1.1 = v4, 1.2 = v5.
    #[serde(rename = "amdhsa.version", default)]
    pub version: Vec<u32>,
    /// e.g. `amdgcn-amd-amdhsa--gfx803`.
    #[serde(rename = "amdhsa.target", default)]
    pub target: Option<String>,
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMeta>,
}

/// One kernel's entry.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct KernelMeta {
    #[serde(rename = ".name")]
    pub name: String,
    /// The descriptor's symbol (`NAME.kd`).
    #[serde(rename = ".symbol")]
    pub symbol: String,
    #[serde(rename = ".args", default)]
    pub args: Vec<ArgMeta>,
    #[serde(rename = ".kernarg_segment_size", default)]
    pub kernarg_segment_size: u32,
    #[serde(rename = ".kernarg_segment_align", default)]
    pub kernarg_segment_align: u32,
    #[serde(rename = ".group_segment_fixed_size", default)]
    pub group_segment_fixed_size: u32,
    #[serde(rename = ".private_segment_fixed_size", default)]
    pub private_segment_fixed_size: u32,
    #[serde(rename = ".wavefront_size", default)]
    pub wavefront_size: u32,
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: u32,
    #[serde(rename = ".sgpr_count", default)]
    pub sgpr_count: u32,
    #[serde(rename = ".vgpr_count", default)]
    pub vgpr_count: u32,
    #[serde(rename = ".reqd_workgroup_size", default)]
    pub reqd_workgroup_size: Option<Vec<u32>>,
}

/// One argument of the kernarg segment.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ArgMeta {
    /// The source name, when the compiler kept it.
    #[serde(rename = ".name", default)]
    pub name: Option<String>,
    #[serde(rename = ".type_name", default)]
    pub type_name: Option<String>,
    #[serde(rename = ".offset")]
    pub offset: u32,
    #[serde(rename = ".size")]
    pub size: u32,
    /// `by_value`, `global_buffer`, `dynamic_shared_pointer`, `hidden_block_count_x`, …
    #[serde(rename = ".value_kind")]
    pub value_kind: String,
    /// `global`, `constant`, `local`, … for pointers.
    #[serde(rename = ".address_space", default)]
    pub address_space: Option<String>,
    #[serde(rename = ".is_const", default)]
    pub is_const: bool,
}

impl ArgMeta {
    /// Hidden arguments are filled by the launcher, not given by the user.
    pub fn is_hidden(&self) -> bool {
        self.value_kind.starts_with("hidden_")
    }

    /// A short description for messages: `arg 2 (c: uint*)`.
    pub fn describe(&self, index: usize) -> String {
        match (&self.name, &self.type_name) {
            (Some(n), Some(t)) => format!("argument {index} (`{n}`: {t})"),
            (None, Some(t)) => format!("argument {index} ({t})"),
            (Some(n), None) => format!("argument {index} (`{n}`)"),
            (None, None) => format!("argument {index} ({})", self.value_kind),
        }
    }
}

/// A note that is not valid metadata.
#[derive(Debug, thiserror::Error)]
#[error("AMDGPU metadata note: {0}")]
pub struct MetadataError(pub String);

impl Metadata {
    /// Decode the note's descriptor bytes.
    pub fn parse(desc: &[u8]) -> Result<Metadata, MetadataError> {
        let m: Metadata = rmp_serde::from_slice(desc).map_err(|e| MetadataError(e.to_string()))?;
        for k in &m.kernels {
            for (i, a) in k.args.iter().enumerate() {
                if a.offset.checked_add(a.size).is_none() {
                    return Err(MetadataError(format!(
                        "kernel `{}`: {} has offset {} + size {} past 4 GiB",
                        k.name,
                        a.describe(i),
                        a.offset,
                        a.size
                    )));
                }
            }
        }
        Ok(m)
    }

    /// The code object version this metadata declares (3, 4, 5, …), if it says.
    pub fn code_object_version(&self) -> Option<u32> {
        match self.version.as_slice() {
            [1, minor, ..] => Some(3 + minor),
            _ => None,
        }
    }

    pub fn kernel(&self, name: &str) -> Option<&KernelMeta> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Build a note the way a msgpack writer would (map of string keys), independently of
    /// the serde derive under test: rmp's low-level writers.
    fn note() -> Vec<u8> {
        use rmp::encode::*;
        let mut b = Vec::new();
        write_map_len(&mut b, 3).unwrap();
        write_str(&mut b, "amdhsa.version").unwrap();
        write_array_len(&mut b, 2).unwrap();
        write_uint(&mut b, 1).unwrap();
        write_uint(&mut b, 2).unwrap();
        write_str(&mut b, "amdhsa.target").unwrap();
        write_str(&mut b, "amdgcn-amd-amdhsa--gfx803").unwrap();
        write_str(&mut b, "amdhsa.kernels").unwrap();
        write_array_len(&mut b, 1).unwrap();
        write_map_len(&mut b, 5).unwrap();
        write_str(&mut b, ".name").unwrap();
        write_str(&mut b, "vadd").unwrap();
        write_str(&mut b, ".symbol").unwrap();
        write_str(&mut b, "vadd.kd").unwrap();
        write_str(&mut b, ".kernarg_segment_size").unwrap();
        write_uint(&mut b, 288).unwrap();
        write_str(&mut b, ".unknown_key").unwrap();
        write_bool(&mut b, true).unwrap();
        write_str(&mut b, ".args").unwrap();
        write_array_len(&mut b, 2).unwrap();
        for (off, size, kind) in [
            (0u64, 8u64, "global_buffer"),
            (32, 4, "hidden_block_count_x"),
        ] {
            write_map_len(&mut b, 3).unwrap();
            write_str(&mut b, ".offset").unwrap();
            write_uint(&mut b, off).unwrap();
            write_str(&mut b, ".size").unwrap();
            write_uint(&mut b, size).unwrap();
            write_str(&mut b, ".value_kind").unwrap();
            write_str(&mut b, kind).unwrap();
        }
        b
    }

    #[test]
    fn parses_hand_built_note() {
        let m = Metadata::parse(&note()).unwrap();
        assert_eq!(m.code_object_version(), Some(5));
        assert_eq!(m.target.as_deref(), Some("amdgcn-amd-amdhsa--gfx803"));
        let k = m.kernel("vadd").unwrap();
        assert_eq!(k.symbol, "vadd.kd");
        assert_eq!(k.kernarg_segment_size, 288);
        assert_eq!(k.args.len(), 2);
        assert_eq!((k.args[0].offset, k.args[0].size), (0, 8));
        assert!(!k.args[0].is_hidden());
        assert!(k.args[1].is_hidden());
        assert_eq!(k.args[1].offset, 32);
    }

    #[test]
    fn rejects_garbage_and_truncation() {
        let n = note();
        let err = |b: &[u8]| Metadata::parse(b).unwrap_err().0;
        // A cut note runs out of bytes (inside a marker or inside its data).
        for cut in [0, 1, 5, n.len() / 2, n.len() - 1] {
            let e = err(&n[..cut]);
            assert!(e.starts_with("IO error while reading"), "cut at {cut}: {e}");
        }
        // 0xc1 is the one marker msgpack never uses.
        assert_eq!(err(&[0xc1]), "wrong msgpack marker Reserved");
        // `.name` of the wrong type.
        let mut b = Vec::new();
        rmp::encode::write_map_len(&mut b, 1).unwrap();
        rmp::encode::write_str(&mut b, "amdhsa.kernels").unwrap();
        rmp::encode::write_array_len(&mut b, 1).unwrap();
        rmp::encode::write_map_len(&mut b, 1).unwrap();
        rmp::encode::write_str(&mut b, ".name").unwrap();
        rmp::encode::write_uint(&mut b, 7).unwrap();
        assert!(
            err(&b).starts_with("invalid type: integer `7`"),
            "{}",
            err(&b)
        );
    }
}
