//! AMDGPU code objects: the ELF files (`.hsaco`, `.co`, relocatable `.o`) that clang, hipcc
//! or a JIT write. Read with the `object` crate (HSA code object v4–v6, shared objects and
//! relocatable objects): the target from `e_flags`, the executable sections with their
//! function symbols, each kernel's descriptor and the metadata note.
//!
//! - [`target`]: `EF_AMDGPU_MACH` → processor and generation.
//! - [`descriptor`]: the 64-byte kernel descriptor.
//! - [`metadata`]: the `NT_AMDGPU_METADATA` MessagePack note.
//! - [`launch`](mod@launch): what a kernel's descriptor and metadata say about launching it.

pub mod descriptor;
mod elf;
pub mod launch;
pub mod metadata;
pub mod target;

pub use descriptor::KernelDescriptor;
pub use metadata::{KernelArg, KernelMetadata, Metadata};
pub use target::Target;

use std::path::Path;

/// What kind of ELF file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `ET_REL`: clang's `-c` output.
    Relocatable,
    /// `ET_DYN`: a linked code object (`ld.lld -shared`).
    SharedObject,
    Executable,
}

impl FileKind {
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Relocatable => "relocatable object",
            FileKind::SharedObject => "shared object",
            FileKind::Executable => "executable",
        }
    }
}

/// An executable section and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeSection {
    /// ELF section index.
    pub index: usize,
    pub name: String,
    /// The section's address (0 in a relocatable object).
    pub address: u64,
    pub bytes: Vec<u8>,
}

/// A symbol in an executable section (a kernel's entry point or another function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub address: u64,
    pub size: u64,
    /// ELF section index.
    pub section: usize,
}

/// A kernel: its descriptor and, when the note has it, its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub descriptor_address: u64,
    /// Address of the first instruction.
    pub entry: u64,
    pub descriptor: KernelDescriptor,
    pub metadata: Option<KernelMetadata>,
}

/// A parsed code object (everything copied out of the file).
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    pub kind: FileKind,
    /// 4, 5 or 6.
    pub code_object_version: u32,
    pub target: Target,
    pub sections: Vec<CodeSection>,
    /// Symbols in executable sections, by address.
    pub functions: Vec<Symbol>,
    pub kernels: Vec<Kernel>,
    pub metadata: Option<Metadata>,
}

/// A run of code that one symbol labels: from the symbol to the next one (or the section's
/// end), as `llvm-objdump -d` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeRange<'a> {
    /// None for bytes before the section's first symbol.
    pub symbol: Option<&'a str>,
    pub address: u64,
    pub bytes: &'a [u8],
}

/// Whether `bytes` start like an ELF file.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

impl CodeObject {
    /// Parses a whole file's bytes. Errors say what is wrong (the caller adds the file name).
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, String> {
        elf::parse(bytes)
    }

    /// Reads and parses a file; errors start with its name.
    pub fn read(path: &Path) -> Result<CodeObject, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        CodeObject::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The kernel `name`, or an error listing the kernels there are.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, String> {
        self.kernels.iter().find(|k| k.name == name).ok_or_else(|| {
            let have: Vec<&str> = self.kernels.iter().map(|k| k.name.as_str()).collect();
            if have.is_empty() {
                format!("no kernel `{name}`: the code object has no kernel descriptors")
            } else {
                format!("no kernel `{name}` (kernels: {})", have.join(", "))
            }
        })
    }

    /// The section's code split at its symbols, in address order.
    pub fn ranges<'a>(&'a self, section: &'a CodeSection) -> Vec<CodeRange<'a>> {
        let end = section.address + section.bytes.len() as u64;
        let starts: Vec<(&str, u64)> = self
            .functions
            .iter()
            .filter(|f| {
                f.section == section.index && f.address >= section.address && f.address < end
            })
            .map(|f| (f.name.as_str(), f.address))
            .collect();
        let mut out = Vec::new();
        let first = starts.first().map_or(end, |s| s.1);
        if first > section.address {
            out.push(CodeRange {
                symbol: None,
                address: section.address,
                bytes: &section.bytes[..(first - section.address) as usize],
            });
        }
        for (i, &(name, start)) in starts.iter().enumerate() {
            let stop = starts.get(i + 1).map_or(end, |s| s.1);
            let (a, b) = (
                (start - section.address) as usize,
                (stop - section.address) as usize,
            );
            out.push(CodeRange {
                symbol: Some(name),
                address: start,
                bytes: &section.bytes[a..b],
            });
        }
        out
    }

    /// The executable section holding `address`.
    pub fn section_at(&self, address: u64) -> Option<&CodeSection> {
        self.sections
            .iter()
            .find(|s| address >= s.address && address < s.address + s.bytes.len() as u64)
    }
}
