import { statfs } from 'node:fs/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { AppDeps } from '../../context.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { PIN_KEY_PREFIX } from '../../relay/affinity/pins.ts';

/*
 * new-api's performance screen (GET /api/performance/stats) with this process's real numbers. new-api's
 * disk cache for large request bodies does not exist here (bodies are relayed in memory), so its cache
 * block reads zeros and its directory does not exist; the memory block is V8's heap and the resident set;
 * `switchyard` adds what a Node process is judged by: uptime, event-loop delay and the caches it holds.
 */

const MB = 1 << 20;

export function createPerformanceMonitor(deps: Pick<AppDeps, 'config' | 'services' | 'kv'>) {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  let gcCount = 0;
  const gc = new PerformanceObserver((list) => (gcCount += list.getEntries().length));
  gc.observe({ entryTypes: ['gc'] });
  const startedAt = Date.now();

  async function diskSpace() {
    try {
      const s = await statfs(deps.config.dataDir);
      const total = s.blocks * s.bsize;
      const free = s.bavail * s.bsize;
      return { total, free, used: total - free, used_percent: total > 0 ? ((total - free) / total) * 100 : 0 };
    } catch {
      return { total: 0, free: 0, used: 0, used_percent: 0 };
    }
  }

  const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
  const o = deps.services.options;

  return {
    async stats() {
      const mem = process.memoryUsage();
      return {
        cache_stats: {
          active_disk_files: 0,
          current_disk_usage_bytes: 0,
          active_memory_buffers: 0,
          current_memory_usage_bytes: 0,
          disk_cache_hits: 0,
          memory_cache_hits: 0,
          disk_cache_max_bytes: 0,
          disk_cache_threshold_bytes: 0,
        },
        memory_stats: {
          alloc: mem.heapUsed,
          total_alloc: mem.heapTotal,
          sys: mem.rss,
          num_gc: gcCount,
          // Node has no goroutines: the open handles and requests keeping the process busy.
          num_goroutine: process.getActiveResourcesInfo().length,
        },
        disk_cache_info: { path: '', exists: false, file_count: 0, total_size: 0 },
        disk_space_info: await diskSpace(),
        config: {
          disk_cache_enabled: false,
          disk_cache_threshold_mb: o.get('performance_setting.disk_cache_threshold_mb'),
          disk_cache_max_size_mb: o.get('performance_setting.disk_cache_max_size_mb'),
          disk_cache_path: '',
          is_running_in_container: process.env.container !== undefined || process.pid === 1,
          monitor_enabled: false,
          monitor_cpu_threshold: o.get('performance_setting.monitor_cpu_threshold'),
          monitor_memory_threshold: o.get('performance_setting.monitor_memory_threshold'),
          monitor_disk_threshold: o.get('performance_setting.monitor_disk_threshold'),
        },
        switchyard: {
          uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
          process_uptime_seconds: Math.round(process.uptime()),
          node_version: process.version,
          rss_mb: Math.round((mem.rss / MB) * 10) / 10,
          heap_used_mb: Math.round((mem.heapUsed / MB) * 10) / 10,
          external_mb: Math.round((mem.external / MB) * 10) / 10,
          event_loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
          options_cached: o.list().length,
          affinity_pins: (await deps.kv.countPrefix?.(PIN_KEY_PREFIX)) ?? 0,
        },
      };
    },

    /** The event-loop figures start again from now (new-api: its disk-cache hit counters). */
    resetStats() {
      loop.reset();
      gcCount = 0;
    },

    /** A forced collection needs node --expose-gc; without it the call is refused, never faked. */
    collectGarbage() {
      const forced = (globalThis as { gc?: () => void }).gc;
      if (!forced) throw notAvailable('feature.gc_unavailable');
      forced();
    },

    stop() {
      loop.disable();
      gc.disconnect();
    },
  };
}
