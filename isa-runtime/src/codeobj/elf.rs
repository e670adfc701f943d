//! Reading an AMDGPU ELF file with the `object` crate: header checks (64-bit little-endian,
//! `EM_AMDGPU`, HSA OS/ABI and its ABI version → code object version), the executable
//! sections, their function symbols, the kernel descriptors (`NAME.kd`) and the notes.

use super::descriptor::{KernelDescriptor, DESCRIPTOR_SIZE};
use super::metadata::Metadata;
use super::target::Target;
use super::{CodeObject, CodeSection, FileKind, Kernel, Symbol};
use object::elf;
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

/// `e_ident[EI_OSABI]` of the HSA runtime.
const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// The note type holding the MessagePack metadata (owner `AMDGPU`).
const NT_AMDGPU_METADATA: u32 = 32;

/// Code object version of an HSA `e_ident[EI_ABIVERSION]` (2 → v4, 3 → v5, 4 → v6).
fn code_object_version(abi_version: u8) -> Result<u32, String> {
    match abi_version {
        2..=4 => Ok(abi_version as u32 + 2),
        0 | 1 => Err(format!(
            "HSA ABI version {abi_version} (code object v{}) is older than v4, which is not supported",
            abi_version + 2
        )),
        v => Err(format!("unknown HSA ABI version {v}")),
    }
}

/// Parses `data` (the whole file).
pub fn parse(data: &[u8]) -> Result<CodeObject, String> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err("not an ELF file (no \\x7fELF magic)".into());
    }
    if data.len() < 64 {
        return Err(format!(
            "truncated ELF file: {} bytes, shorter than the 64-byte header",
            data.len()
        ));
    }
    if data[4] != elf::ELFCLASS64 || data[5] != elf::ELFDATA2LSB {
        return Err("not a 64-bit little-endian ELF file, as AMDGPU code objects are".into());
    }
    let file =
        ElfFile64::<LittleEndian>::parse(data).map_err(|e| format!("malformed ELF file: {e}"))?;
    let endian = file.endian();
    let header = file.elf_header();
    let machine = header.e_machine(endian);
    if machine != elf::EM_AMDGPU {
        return Err(format!(
            "not an AMDGPU code object: ELF machine {machine} (AMDGPU is {})",
            elf::EM_AMDGPU
        ));
    }
    let ident = header.e_ident();
    if ident.os_abi != ELFOSABI_AMDGPU_HSA {
        return Err(format!(
            "OS/ABI {} is not the HSA runtime's ({ELFOSABI_AMDGPU_HSA}): only HSA code objects are read",
            ident.os_abi
        ));
    }
    let version = code_object_version(ident.abi_version)?;
    let target = Target::from_e_flags(header.e_flags(endian))?;
    let kind = match header.e_type(endian) {
        elf::ET_REL => FileKind::Relocatable,
        elf::ET_DYN => FileKind::SharedObject,
        elf::ET_EXEC => FileKind::Executable,
        t => return Err(format!("ELF type {t} is not an object or shared object")),
    };

    let mut sections = Vec::new();
    for s in file.sections() {
        if s.kind() != SectionKind::Text {
            continue;
        }
        let name = s.name().unwrap_or("?").to_string();
        let bytes = s
            .data()
            .map_err(|e| format!("section {name}: its bytes lie outside the file ({e})"))?;
        sections.push(CodeSection {
            index: s.index().0,
            name,
            address: s.address(),
            bytes: bytes.to_vec(),
        });
    }
    if sections.is_empty() {
        return Err("no executable section (.text): nothing to disassemble or run".into());
    }

    let mut functions = Vec::new();
    let mut descriptors = Vec::new();
    for sym in file.symbols() {
        let Ok(name) = sym.name() else { continue };
        let Some(index) = sym.section_index() else {
            continue;
        };
        if name.is_empty() || matches!(sym.kind(), SymbolKind::Section | SymbolKind::File) {
            continue;
        }
        if sections.iter().any(|s| s.index == index.0) {
            functions.push(Symbol {
                name: name.to_string(),
                address: sym.address(),
                size: sym.size(),
                section: index.0,
            });
        } else if let Some(kernel) = name.strip_suffix(".kd") {
            let section = file
                .section_by_index(index)
                .map_err(|e| format!("descriptor {name}: {e}"))?;
            let bytes = section
                .data()
                .map_err(|e| format!("descriptor {name}: section bytes outside the file ({e})"))?;
            let at = sym.address().wrapping_sub(section.address()) as usize;
            let kd = bytes
                .get(at..)
                .and_then(|b| b.get(..DESCRIPTOR_SIZE))
                .ok_or_else(|| {
                    format!(
                        "descriptor {name} at {:#x}: its {DESCRIPTOR_SIZE} bytes run past its section",
                        sym.address()
                    )
                })?;
            let descriptor =
                KernelDescriptor::parse(kd).map_err(|e| format!("descriptor {name}: {e}"))?;
            descriptors.push((kernel.to_string(), sym.address(), descriptor));
        }
    }
    functions.sort_by(|a, b| (a.address, &a.name).cmp(&(b.address, &b.name)));
    functions.dedup_by(|b, a| a.address == b.address && a.section == b.section);

    let mut metadata = None;
    for s in file.sections() {
        let sh = s.elf_section_header();
        let notes = sh
            .notes(endian, data)
            .map_err(|e| format!("note section {}: {e}", s.name().unwrap_or("?")))?;
        let Some(mut notes) = notes else { continue };
        loop {
            let note = match notes.next() {
                Ok(Some(n)) => n,
                Ok(None) => break,
                Err(e) => return Err(format!("malformed note: {e}")),
            };
            if note.name() == b"AMDGPU" && note.n_type(endian) == NT_AMDGPU_METADATA {
                metadata = Some(Metadata::parse(note.desc())?);
            }
        }
    }

    let mut kernels = Vec::new();
    for (name, descriptor_address, descriptor) in descriptors {
        // The function symbol of the same name is the entry point (in a relocatable object the
        // descriptor's offset is filled by a relocation, so the symbol is the reliable source).
        let entry = match functions.iter().find(|f| f.name == name) {
            Some(f) => f.address,
            None => descriptor_address.wrapping_add(descriptor.entry_byte_offset as u64),
        };
        kernels.push(Kernel {
            metadata: metadata
                .as_ref()
                .and_then(|m: &Metadata| m.kernel(&name).cloned()),
            name,
            descriptor_address,
            entry,
            descriptor,
        });
    }
    Ok(CodeObject {
        kind,
        code_object_version: version,
        target,
        sections,
        functions,
        kernels,
        metadata,
    })
}
