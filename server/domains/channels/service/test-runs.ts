import type { StoredChannelTest } from '../../../../shared/channel-test-result.ts';
import { ChannelStatus } from '../../../../shared/constants.ts';
import { splitChannelKeys } from '../../../../shared/channel-info.ts';
import { splitList } from '../../../../shared/schemas/common.ts';
import { scrubParams, scrubSecrets } from '../../../../shared/scrub-secrets.ts';
import { type StoredMessage, storedMessageText } from '../../../../shared/stored-message.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { ChannelRow } from '../channels.table.ts';
import { badRequest, conflict } from '../../../errors.ts';
import { listAllChannels, updateChannel } from '../channels.repo.ts';
import { noticeChannelDisabled } from '../disabled-notice.service.ts';
import { syncAbilities } from './abilities.ts';
import { isMultiKey, probeKeys } from './multi-key.ts';
import { type ChannelsCtx, channelsChanged, getChannelOrThrow } from './context.ts';

export interface ChannelTestResult {
  ok: boolean;
  timeMs: number;
  message: string;
  /** `message` as its registry code and parameters (stored beside it as other_info.status_message). */
  reason?: StoredMessage;
  /** The upstream answered (passed, or failed only by being slower than ChannelDisableThreshold). */
  answered?: boolean;
  /** Technical text behind a network failure, for the console's "details" disclosure (ProbeResult.detail). */
  detail?: string;
}

/*
 * Channel tests (relay.md §4): one probe per channel through the relay's
 * adapters (the request real traffic would send), the result stored as
 * response_time/test_time and the outcome (passed, or failed and why) as test_result. A pass re-enables an auto-disabled channel when
 * AutomaticEnableChannelEnabled; in a test-all run a failure auto-disables an
 * enabled channel with auto_ban when AutomaticDisableChannelEnabled.
 */
/** other_info of an auto-disabled channel: new-api's status_reason and time, and the reason's code beside them. */
const disabledInfo = (r: ChannelTestResult) => ({
  status_reason: r.message,
  status_time: nowSeconds(),
  ...(r.reason ? { status_message: r.reason } : {}),
});

/**
 * A probe's result without the channel's key (issue 39): the upstream's 401 text is stored as the test
 * result, a key's or the channel's disable reason and root's notice, and answered to the admin.
 */
function masked(channel: ChannelRow, r: ChannelTestResult): ChannelTestResult {
  if (r.ok) return r;
  const keys = [channel.key, ...splitChannelKeys(channel.key)];
  return {
    ...r,
    message: scrubSecrets(r.message, keys),
    ...(r.reason ? { reason: { ...r.reason, params: scrubParams(r.reason.params, keys) } } : {}),
    ...(r.detail ? { detail: scrubSecrets(r.detail, keys) } : {}),
  };
}

/** What channels.test_result keeps of a test (shared/channel-test-result.ts); a pass clears the last failure. */
const storedTest = (r: ChannelTestResult): StoredChannelTest =>
  r.ok
    ? { ok: true, time_ms: Math.max(0, Math.round(r.timeMs)) }
    : {
        ok: false,
        time_ms: Math.max(0, Math.round(r.timeMs)),
        message: r.message,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.detail ? { detail: r.detail } : {}),
      };

export function createChannelTests(ctx: ChannelsCtx) {
  let running: Promise<void> | null = null;

  async function probeOne(
    channel: ChannelRow,
    model?: string,
    signal?: AbortSignal,
    key?: string,
  ): Promise<ChannelTestResult> {
    const testModel = model || channel.test_model || splitList(channel.models)[0];
    if (!testModel) throw badRequest('channel.no_test_model');
    const r = masked(channel, await ctx.probe.test(channel, testModel, signal, key));
    const threshold = ctx.options.get('ChannelDisableThreshold');
    if (r.ok && threshold > 0 && r.timeMs > threshold * 1000) {
      const reason: StoredMessage = {
        code: 'channel.test_too_slow',
        params: { seconds: (r.timeMs / 1000).toFixed(2), threshold },
      };
      return { ok: false, answered: true, timeMs: r.timeMs, message: storedMessageText(reason), reason };
    }
    return r;
  }

  async function record(channel: ChannelRow, r: ChannelTestResult, disableOnFailure: boolean): Promise<void> {
    let status: number | undefined;
    if (r.ok && channel.status === ChannelStatus.AutoDisabled && ctx.options.get('AutomaticEnableChannelEnabled'))
      status = ChannelStatus.Enabled;
    if (
      !r.ok &&
      disableOnFailure &&
      channel.status === ChannelStatus.Enabled &&
      channel.auto_ban === 1 &&
      ctx.options.get('AutomaticDisableChannelEnabled')
    )
      status = ChannelStatus.AutoDisabled;
    await ctx.db.transaction().execute(async (trx) => {
      await updateChannel(trx, channel.id, {
        test_time: nowSeconds(),
        // A slow answer's time is stored too (relay.md §4); a failed call has no response time.
        ...(r.ok || r.answered ? { response_time: r.timeMs } : {}),
        // The outcome itself, so the channel list shows a failure in the row (issue 28).
        test_result: JSON.stringify(storedTest(r)),
        ...(status !== undefined ? { status } : {}),
        ...(status === ChannelStatus.AutoDisabled ? { other_info: JSON.stringify(disabledInfo(r)) } : {}),
      });
      if (status !== undefined) await syncAbilities(trx, [channel.id]);
    });
    if (status !== undefined) channelsChanged(ctx);
    if (status === ChannelStatus.AutoDisabled) void noticeChannelDisabled(ctx, channel, r.message, nowSeconds());
  }

  async function testAllNow(signal?: AbortSignal): Promise<void> {
    for (const channel of await listAllChannels(ctx.db)) {
      // Shutdown: stop between channels rather than hold the app open for a whole run.
      if (signal?.aborted) return;
      // Manually disabled channels stay out of automatic runs.
      if (channel.status === ChannelStatus.ManuallyDisabled) continue;
      try {
        // A multi-key channel: each auto-disabled key re-tested, a failing key marked, never the channel alone (issue 28).
        const r = await probeKeys(ctx, channel, (key) => probeOne(channel, undefined, signal, key), true);
        // A test cut short by the shutdown says nothing about the channel.
        if (signal?.aborted) return;
        await record(channel, r, !isMultiKey(channel));
      } catch (err) {
        ctx.log.warn({ channelId: channel.id, err: (err as Error).message }, 'channel test skipped');
      }
    }
  }

  return {
    /** GET /api/channel/test/:id; the model defaults to test_model, then the first model. */
    async testChannel(id: number, model?: string): Promise<ChannelTestResult> {
      const channel = await getChannelOrThrow(ctx, id);
      const r = await probeKeys(ctx, channel, (key) => probeOne(channel, model, undefined, key), false);
      await record(channel, r, false);
      return r;
    },

    /** GET /api/channel/test: starts a run in the background; one run at a time. */
    startTestAll(): void {
      if (running) throw conflict('channel.test_running');
      running = testAllNow()
        .catch((err) => ctx.log.error({ err }, 'channel test run failed'))
        .finally(() => {
          running = null;
        });
    },

    /**
     * The periodic test-all (relay.md §4; the background job, every
     * ChannelTestIntervalMinutes): waits for a run already going instead of
     * starting a second one over the same channels.
     */
    testAll(signal?: AbortSignal): Promise<void> {
      running ??= testAllNow(signal).finally(() => {
        running = null;
      });
      return running;
    },

    /** Resolves when no test-all run is going (graceful shutdown, tests). */
    whenTestsIdle: async (): Promise<void> => {
      await running?.catch(() => undefined);
    },
  };
}
