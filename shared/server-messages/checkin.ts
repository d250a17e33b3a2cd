/** Check-in (server/domains/checkin/). Joined with the other areas by shared/server-messages.ts. */
export const checkinMessages = {
  'checkin.disabled': '签到功能未开启',
  'checkin.already': '今天已经签到过了，明天再来吧',
  // new-api's 2026 console (issue 32)
  'checkin.done': '签到成功',
} as const;
