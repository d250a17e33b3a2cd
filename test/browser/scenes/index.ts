import type { Scene } from '../layout-checks.ts';
import { channelHealthScene, channelKeysScene } from './channels.ts';
import { dashboardScene } from './dashboard.ts';
import { errorLogsScene } from './error-logs.ts';
import { phoneListsScene } from './phone-lists.ts';
import { pricingUnpricedScene, retriesScene } from './settings.ts';
import { shownRightScene } from './shown-right.ts';
import { taskLogsScene } from './task-logs.ts';
import { usageLogsScene } from './usage-logs.ts';
import { videoTasksScene } from './video-tasks.ts';

/** The scenes of scripts/screenshots.ts (`--scene <name>`), each seeded as its browser test seeds it. */
export const SCENES: Record<string, Scene> = {
  'channel-health': channelHealthScene,
  'channel-keys': channelKeysScene,
  dashboard: dashboardScene,
  'error-logs': errorLogsScene,
  'phone-lists': phoneListsScene,
  'pricing-unpriced': pricingUnpricedScene,
  retries: retriesScene,
  'shown-right': shownRightScene,
  'task-logs': taskLogsScene,
  'usage-logs': usageLogsScene,
  'video-tasks': videoTasksScene,
};
