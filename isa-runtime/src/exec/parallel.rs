//! Workgroups on every core: [`dispatch_parallel`] runs the workgroups of a grid on scoped
//! threads over one [`SharedMemory`].
//!
//! # Memory model
//!
//! Workgroups share global memory and nothing else (each thread has its own LDS and waves),
//! as on the hardware. [`SharedMemory`] holds every byte in an `AtomicU8` accessed with
//! relaxed ordering: plain loads and stores from different threads never make a data race in
//! the Rust sense, and — as on the GPU — carry no ordering between workgroups. Instructions
//! that read, modify and write device memory (global, flat, buffer and scalar atomics) run
//! under one lock ([`Memory::begin_atomic`] / [`Memory::end_atomic`], taken by the driver
//! around those instructions), so each atomic is indivisible with respect to every other
//! atomic. A lock rather than per-address atomic operations keeps the generated executors
//! unchanged (they implement atomics as a read and a write) and costs nothing for the
//! non-atomic accesses that dominate ordinary kernels.
//!
//! Results equal the serial run's for every kernel whose workgroups do not race (no
//! workgroup reads what another writes without atomics); the final memory after commutative
//! atomics (add, min, max, and, or, xor, inc) is the same too, while the values that
//! returning atomics give back depend on the order the threads reach them. On an error the
//! reported failure is the one of the first workgroup (in grid order) that failed; other
//! threads stop after their current workgroup.

use super::dispatch::{
    run_workgroup, setup_wave, DispatchConfig, DispatchError, DispatchStats, Program,
};
use super::memory::{locate, FlatMemory, Lds, MemError, Memory, Region};
use super::wave::Wave;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::*};
use std::sync::Mutex;

/// One allocation of a [`SharedMemory`].
struct SharedAllocation {
    base: u64,
    bytes: Box<[AtomicU8]>,
    writable: bool,
}

impl Region for SharedAllocation {
    fn base(&self) -> u64 {
        self.base
    }
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn writable(&self) -> bool {
        self.writable
    }
}

/// A copy of a [`FlatMemory`] that threads read and write at once (see the module docs).
pub struct SharedMemory {
    allocations: Vec<SharedAllocation>,
    atomic_lock: AtomicBool,
}

impl SharedMemory {
    /// Copies `mem`'s allocations.
    pub fn from_flat(mem: &FlatMemory) -> SharedMemory {
        SharedMemory {
            allocations: mem
                .regions()
                .map(|(base, bytes, writable)| SharedAllocation {
                    base,
                    bytes: bytes.iter().map(|b| AtomicU8::new(*b)).collect(),
                    writable,
                })
                .collect(),
            atomic_lock: AtomicBool::new(false),
        }
    }

    /// Copies the contents back into `mem` (the memory it was made from).
    pub fn write_back(&self, mem: &mut FlatMemory) {
        for (a, bytes) in self.allocations.iter().zip(mem.regions_mut()) {
            for (d, s) in bytes.iter_mut().zip(a.bytes.iter()) {
                *d = s.load(Relaxed);
            }
        }
    }

    /// A handle for one thread.
    pub fn handle(&self) -> SharedHandle<'_> {
        SharedHandle {
            mem: self,
            holding: false,
        }
    }
}

/// One thread's access to a [`SharedMemory`].
pub struct SharedHandle<'a> {
    mem: &'a SharedMemory,
    holding: bool,
}

impl Memory for SharedHandle<'_> {
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        let (i, off) = locate(&self.mem.allocations, addr, buf.len() as u64, false)?;
        let src = &self.mem.allocations[i].bytes[off..off + buf.len()];
        for (d, s) in buf.iter_mut().zip(src) {
            *d = s.load(Relaxed);
        }
        Ok(())
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let (i, off) = locate(&self.mem.allocations, addr, data.len() as u64, true)?;
        let dst = &self.mem.allocations[i].bytes[off..off + data.len()];
        for (d, s) in dst.iter().zip(data) {
            d.store(*s, Relaxed);
        }
        Ok(())
    }

    fn begin_atomic(&mut self) {
        while self
            .mem
            .atomic_lock
            .compare_exchange_weak(false, true, Acquire, Relaxed)
            .is_err()
        {
            std::thread::yield_now();
        }
        self.holding = true;
    }

    fn end_atomic(&mut self) {
        if self.holding {
            self.holding = false;
            self.mem.atomic_lock.store(false, Release);
        }
    }
}

/// A wave to keep after the run: workgroup and wave index.
pub type WatchId = ([u32; 3], u32);

/// Runs `program` over the grid on `threads` threads (1 runs [`super::dispatch()`]'s serial
/// order on the calling thread), updating `mem`. Returns the statistics and, when `watch` names
/// one, that wave's final state.
pub fn dispatch_parallel(
    program: &Program,
    cfg: &DispatchConfig,
    mem: &mut FlatMemory,
    threads: usize,
    watch: Option<WatchId>,
) -> Result<(DispatchStats, Option<Wave>), DispatchError> {
    let [gx, gy, gz] = cfg.grid;
    let total = gx as u64 * gy as u64 * gz as u64;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<(u64, DispatchError)>> = Mutex::new(None);
    let watched: Mutex<Option<Wave>> = Mutex::new(None);
    let group_of = |i: u64| {
        let (x, rest) = (i % gx as u64, i / gx as u64);
        [
            x as u32,
            (rest % gy as u64) as u32,
            (rest / gy as u64) as u32,
        ]
    };
    // One worker: takes workgroups in grid order until none are left or one failed.
    let worker = |mem: &mut dyn Memory| -> DispatchStats {
        let mut stats = DispatchStats::default();
        let mut lds = Lds::new(cfg.lds_size);
        let mut waves: Vec<Wave> = (0..cfg.waves_per_group())
            .map(|_| Wave::new(cfg.wave64, cfg.num_vgprs, cfg.num_agprs))
            .collect();
        while !stop.load(Relaxed) {
            let i = next.fetch_add(1, Relaxed);
            if i >= total {
                break;
            }
            let group = group_of(i);
            lds.clear();
            for (k, w) in waves.iter_mut().enumerate() {
                setup_wave(w, cfg, program, group, k as u32);
            }
            if let Err(e) = run_workgroup(program, cfg, &mut waves, mem, &mut lds, group) {
                let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
                let first = match f.as_ref() {
                    Some((j, _)) => i < *j,
                    None => true,
                };
                if first {
                    *f = Some((i, e));
                }
                stop.store(true, Relaxed);
                break;
            }
            stats.workgroups += 1;
            stats.waves += waves.len() as u64;
            stats.instructions += waves.iter().map(|w| w.steps).sum::<u64>();
            if let Some((_, wave)) = watch.filter(|(g, _)| *g == group) {
                if let Some(w) = waves.get(wave as usize) {
                    *watched.lock().unwrap_or_else(|p| p.into_inner()) = Some(w.clone());
                }
            }
        }
        stats
    };
    let stats = if threads <= 1 {
        worker(mem)
    } else {
        let shared = SharedMemory::from_flat(mem);
        let parts: Vec<DispatchStats> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut h = shared.handle();
                        worker(&mut h)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        shared.write_back(mem);
        parts
            .into_iter()
            .fold(DispatchStats::default(), |a, b| DispatchStats {
                workgroups: a.workgroups + b.workgroups,
                waves: a.waves + b.waves,
                instructions: a.instructions + b.instructions,
            })
    };
    if let Some((_, e)) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok((
        stats,
        watched.into_inner().unwrap_or_else(|p| p.into_inner()),
    ))
}
