//! Wave state, operand access and the bounds-checked memories.

use isa_runtime::exec::memory::{FlatMemory, Lds, MemErrorKind, Memory, MemoryExt, Segment};
use isa_runtime::exec::wave::{
    FlatTarget, InlineFloat, LaneIter, ScratchInfo, Special, Src, Status, MAX_LANES,
};
use isa_runtime::exec::{ExecError, Wave};
use isa_runtime::RegFile;

#[test]
fn flat_memory_bounds() {
    let mut m = FlatMemory::new();
    let a = m.alloc(16, 256);
    let b = m.alloc_dwords(&[1, 2, 3]);
    assert!(a >= FlatMemory::FIRST_ADDRESS && b >= a + 16 + FlatMemory::GUARD);
    assert_eq!(a % 256, 0);
    m.write_u32(a + 12, 0xdead_beef).unwrap();
    assert_eq!(m.read_u32(a + 12).unwrap(), 0xdead_beef);
    assert_eq!(m.dwords(b, 3).unwrap(), vec![1, 2, 3]);
    // Crossing the end of an allocation.
    let e = m.read_u64(a + 12).unwrap_err();
    assert_eq!(
        (e.segment, e.addr, e.size, e.write),
        (Segment::Global, a + 12, 8, false)
    );
    assert_eq!(e.kind, MemErrorKind::OutOfBounds { base: a, size: 16 });
    assert!(e.to_string().contains("runs past the end"), "{e}");
    // The guard gap, null, and beyond everything.
    assert_eq!(m.read_u8(a + 16).unwrap_err().kind, MemErrorKind::Unmapped);
    assert_eq!(m.write_u32(0, 1).unwrap_err().kind, MemErrorKind::Unmapped);
    assert_eq!(
        m.read_u32(u64::MAX - 2).unwrap_err().kind,
        MemErrorKind::Unmapped
    );
    // An access whose end overflows the address space.
    let big = m.alloc(8, 256);
    let mut buf = [0u8; 4];
    assert!(m.read(big + 6, &mut buf).is_err());
    // Read-only allocations.
    let ro = m.alloc_read_only(&[7; 8], 256);
    assert_eq!(m.read_u8(ro).unwrap(), 7);
    let e = m.write_u8(ro, 1).unwrap_err();
    assert_eq!((e.kind, e.write), (MemErrorKind::ReadOnly, true));
    // Multi-dword reads beyond 16 dwords.
    let many: Vec<u32> = (0..40).collect();
    let c = m.alloc_dwords(&many);
    let mut out = [0u32; 40];
    m.read_dwords(c, &mut out).unwrap();
    assert_eq!(out.to_vec(), many);
}

#[test]
fn lds_bounds() {
    let mut l = Lds::new(64);
    l.write_u32(60, 5).unwrap();
    assert_eq!(l.read_u32(60).unwrap(), 5);
    let e = l.read_u32(62).unwrap_err();
    assert_eq!((e.segment, e.addr, e.size), (Segment::Lds, 62, 4));
    assert_eq!(e.kind, MemErrorKind::OutOfBounds { base: 0, size: 64 });
    assert_eq!(l.write_u64(64, 1).unwrap_err().kind, MemErrorKind::Unmapped);
    assert!(l.read_u32(u64::MAX).is_err());
    l.clear();
    assert_eq!(l.read_u64(56).unwrap(), 0);
}

#[test]
fn vgpr_layout_is_register_major() {
    let mut w = Wave::new(false, 8, 0);
    assert_eq!((w.lanes(), w.vgpr.len()), (32, 8 * 32));
    w.write_vgpr(3, 5, 0x55).unwrap();
    assert_eq!(w.vgpr[3 * 32 + 5], 0x55);
    assert_eq!(w.vgpr_lanes(3).unwrap()[5], 0x55);
    w.write_vgpr_b64(6, 1, 0x1111_2222_3333_4444).unwrap();
    assert_eq!(
        (w.vgpr[6 * 32 + 1], w.vgpr[7 * 32 + 1]),
        (0x3333_4444, 0x1111_2222)
    );
    assert_eq!(w.read_vgpr_b64(6, 1).unwrap(), 0x1111_2222_3333_4444);
    assert_eq!(
        w.read_vgpr(8, 0),
        Err(ExecError::RegisterOutOfRange {
            file: RegFile::Vgpr,
            index: 8,
            limit: 8
        })
    );
    assert!(w.write_vgpr_b64(7, 0, 1).is_err(), "v[7:8] runs past v7");
    // Masked writes touch only the lanes in the mask.
    let values: [u32; MAX_LANES] = std::array::from_fn(|i| 100 + i as u32);
    w.write_vgpr_masked(1, &values, 0b1010).unwrap();
    assert_eq!(&w.vgpr_lanes(1).unwrap()[..4], &[0, 101, 0, 103]);
    w.write_vgpr_masked(2, &values, 0xffff_ffff).unwrap();
    assert_eq!(w.vgpr_lanes(2).unwrap()[31], 131);
    let w64 = Wave::new(true, 2, 4);
    assert_eq!(
        (w64.lanes(), w64.agpr.len(), w64.exec_mask()),
        (64, 4 * 64, u64::MAX)
    );
    assert!(w64.agpr_lanes(4).is_err() && w64.agpr_lanes(3).is_ok());
}

#[test]
fn scalar_operands() {
    let mut w = Wave::new(false, 4, 0);
    w.write_sgpr_pair(10, 0x0123_4567_89ab_cdef).unwrap();
    assert_eq!((w.sgpr[10], w.sgpr[11]), (0x89ab_cdef, 0x0123_4567));
    assert_eq!(
        w.read_scalar_b64(Src::Sgpr(10), false).unwrap(),
        0x0123_4567_89ab_cdef
    );
    assert_eq!(
        w.read_sgpr(106),
        Err(ExecError::RegisterOutOfRange {
            file: RegFile::Sgpr,
            index: 106,
            limit: 106
        })
    );
    assert!(w.read_sgpr_pair(105).is_err());
    // Inline constants by width.
    assert_eq!(w.read_scalar_b32(Src::Int(-1)).unwrap(), 0xffff_ffff);
    assert_eq!(
        w.read_scalar_b64(Src::Int(-16), false).unwrap(),
        (-16i64) as u64
    );
    assert_eq!(
        w.read_scalar_b32(Src::Float(InlineFloat::Value(0.5)))
            .unwrap(),
        0x3f00_0000
    );
    assert_eq!(
        w.read_scalar_b64(Src::Float(InlineFloat::Value(-4.0)), false)
            .unwrap(),
        0xc010_0000_0000_0000
    );
    assert_eq!(
        w.read_scalar_b16(Src::Float(InlineFloat::Value(2.0)))
            .unwrap(),
        0x4000
    );
    assert_eq!(
        w.read_scalar_b32(Src::Float(InlineFloat::InvTwoPi))
            .unwrap(),
        0x3e22_f983
    );
    assert_eq!(
        w.read_scalar_b16(Src::Float(InlineFloat::InvTwoPi))
            .unwrap(),
        0x3118
    );
    assert_eq!(
        w.read_scalar_b64(Src::Literal(0x4000_0000), true).unwrap(),
        0x4000_0000_0000_0000,
        "f64 literal is the high dword"
    );
    assert_eq!(
        w.read_scalar_b64(Src::Literal(0x4000_0000), false).unwrap(),
        0x4000_0000
    );
    // Specials.
    w.write_scalar_b32(Src::Special(Special::VccHi), 0xaa)
        .unwrap();
    w.write_scalar_b32(Src::Special(Special::VccLo), 0xbb)
        .unwrap();
    assert_eq!(w.vcc, 0xaa_0000_00bb);
    assert_eq!(
        w.read_scalar_b64(Src::Special(Special::VccLo), false)
            .unwrap(),
        0xaa_0000_00bb
    );
    w.write_scalar_b64(Src::Special(Special::ExecLo), 0xf0)
        .unwrap();
    assert_eq!(w.exec, 0xf0);
    assert_eq!(w.read_scalar_b32(Src::Special(Special::Execz)).unwrap(), 0);
    w.write_scalar_b32(Src::Special(Special::Null), 5).unwrap();
    assert_eq!(w.read_scalar_b32(Src::Special(Special::Null)).unwrap(), 0);
    assert!(
        w.write_scalar_b32(Src::Special(Special::Scc), 1).is_err(),
        "SRC_SCC is read-only"
    );
    assert!(w.write_scalar_b32(Src::Int(3), 1).is_err());
    assert!(matches!(
        w.read_scalar_b32(Src::Vgpr(0)),
        Err(ExecError::IllegalOperand { .. })
    ));
    assert!(matches!(
        w.read_scalar_b32(Src::Other("SRC_LDS_DIRECT")),
        Err(ExecError::IllegalOperand { .. })
    ));
    w.m0 = 9;
    assert_eq!(
        w.read_scalar_b32(Src::Special(Special::from_name("m0").unwrap()))
            .unwrap(),
        9
    );
    assert_eq!(
        Special::from_name("OPR_SSRC_SPECIAL_SCC"),
        Some(Special::Scc)
    );
    assert_eq!(
        Special::from_name("SRC_SHARED_BASE"),
        Some(Special::SharedBase)
    );
    // STATUS merges SCC/EXECZ/VCCZ.
    w.scc = true;
    w.exec = 0;
    w.vcc = 0x1_0000_0000; // only a bit beyond wave32's lanes: VCCZ
    let s = Status(w.status_value());
    assert!(s.get(Status::SCC) && s.get(Status::EXECZ) && s.get(Status::VCCZ));
}

#[test]
fn vector_sources_and_exec_iteration() {
    let mut w = Wave::new(false, 4, 0);
    for lane in 0..32 {
        w.write_vgpr(2, lane, lane as u32 * 3).unwrap();
    }
    let mut buf = [0u32; MAX_LANES];
    w.load_src_b32(Src::Vgpr(2), &mut buf).unwrap();
    assert_eq!(buf[31], 93);
    w.load_src_b32(Src::Literal(0x1234), &mut buf).unwrap();
    assert!(buf[..32].iter().all(|&v| v == 0x1234));
    assert_eq!(w.read_lane_b32(Src::Vgpr(2), 7).unwrap(), 21);
    assert_eq!(w.read_lane_b32(Src::Int(4), 7).unwrap(), 4);
    w.write_lane_b32(Src::Vgpr(3), 4, 77).unwrap();
    assert_eq!(w.read_vgpr(3, 4).unwrap(), 77);
    assert!(w.write_lane_b32(Src::Sgpr(3), 4, 77).is_err());
    w.exec = 0xffff_ffff_0000_0005; // high half ignored in wave32
    assert_eq!(w.active_lanes().collect::<Vec<_>>(), vec![0, 2]);
    assert_eq!(LaneIter(1 << 63 | 1).collect::<Vec<_>>(), vec![0, 63]);
    assert_eq!(LaneIter(0b1011).len(), 3);
}

#[test]
fn flat_apertures_and_scratch() {
    let mut w = Wave::new(true, 1, 0);
    let shared = w.apertures.shared_base;
    let private = w.apertures.private_base;
    assert_eq!(w.flat_target(shared + 0x40), FlatTarget::Lds(0x40));
    assert_eq!(w.flat_target(private + 8), FlatTarget::Scratch(8));
    assert_eq!(
        w.flat_target(0x1_0000_1000),
        FlatTarget::Global(0x1_0000_1000)
    );
    assert_eq!(
        w.read_scalar_b32(Src::Special(Special::SharedBase))
            .unwrap(),
        (shared >> 32) as u32
    );
    w.scratch = ScratchInfo {
        base: 0x1000,
        per_lane: 16,
    };
    assert_eq!(
        w.scratch_address(3, 12, 4, false).unwrap(),
        0x1000 + 3 * 16 + 12
    );
    match w.scratch_address(5, 14, 4, true) {
        Err(ExecError::Memory {
            fault,
            lane: Some(5),
        }) => {
            assert_eq!(
                (fault.segment, fault.addr, fault.size, fault.write),
                (Segment::Scratch, 14, 4, true)
            );
        }
        other => panic!("{other:?}"),
    }
}
