//! The wasmtime engine every plugin shares: component model, pooling allocator sized by the
//! operator's limits, and epoch interruption driven by a ticker thread so a call past its
//! deadline traps instead of hanging the host.

use crate::config::Limits;
use anyhow::Result;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// How often the epoch advances; deadlines are whole ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

pub fn build(limits: &Limits) -> Result<Engine> {
    let instances = limits.max_instances.max(2);
    let cores = limits.core_instances_per_component.max(1);
    let memories = limits.memories_per_component.max(1);
    let tables = limits.tables_per_component.max(1);
    let mut pool = PoolingAllocationConfig::new();
    // The totals leave room for every slot to hold a small component and for a few of the
    // largest at once: a slot reserves address space, not memory, until it is used.
    pool.total_component_instances(instances)
        .total_core_instances((instances * 16).max(cores))
        .total_memories((instances * 4).max(memories))
        .total_tables((instances * 8).max(tables))
        .max_core_instances_per_component(cores)
        .max_memories_per_component(memories)
        .max_tables_per_component(tables)
        .max_memory_size(memory_cap_bytes(limits));
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        .epoch_interruption(true)
        .parallel_compilation(true)
        .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    Ok(Engine::new(&config)?)
}

pub fn memory_cap_bytes(limits: &Limits) -> usize {
    (limits.memory_mib.max(1) as usize).saturating_mul(1 << 20)
}

/// Ticks between checks of a running plugin (cancelled? deadline spent?): 50 ms.
pub const SLICE_TICKS: u64 = 5;

/// Deadline of one call, in epoch ticks (at least one).
pub fn deadline_ticks(timeout_ms: u64) -> u64 {
    timeout_ms.div_ceil(EPOCH_TICK.as_millis() as u64).max(1)
}

/// Advances the engine's epoch every [`EPOCH_TICK`] until dropped.
pub struct EpochTicker {
    stop: Arc<AtomicBool>,
}

impl EpochTicker {
    pub fn start(engine: &Engine) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let (engine, flag) = (engine.clone(), stop.clone());
        std::thread::Builder::new()
            .name("epoch-ticker".into())
            .spawn(move || {
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    engine.increment_epoch();
                }
            })
            .expect("spawning the epoch ticker thread");
        Self { stop }
    }
}

impl Drop for EpochTicker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_round_up_to_ticks() {
        assert_eq!(deadline_ticks(0), 1);
        assert_eq!(deadline_ticks(25), 3);
        assert_eq!(deadline_ticks(30_000), 3_000);
    }
}
