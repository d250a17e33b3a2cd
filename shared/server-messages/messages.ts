/** Messages: inbox and admin (server/domains/messages/). Joined with the other areas by shared/server-messages.ts. */
export const messagesMessages = {
  'message.not_found': '消息不存在',
  'message.enter_title': '请输入消息标题',
  'message.enter_content': '请输入消息内容',
  'message.select_recipient': '请至少选择一个接收者',
  'message.recipients_missing': '接收者不存在：{ids}',
  'message.format_invalid': '消息格式只能是 markdown 或 html',
} as const;
