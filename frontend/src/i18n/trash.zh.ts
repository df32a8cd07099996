// Chinese strings of the Trash (merged into zh.ts as `trash`).


export const trashZh = {
  title: '废纸篓',
  move: '移到废纸篓',
  moveChat: '把“{{title}}”移到废纸篓',
  moved: '已移到废纸篓',
  movedMessage: '“{{title}}”——30 天内可以从废纸篓恢复。',
  intro: '删除的对话会在这里保留 30 天，之后被永久删除。恢复后对话与删除前完全一样：消息、工具调用、附件和工作区都在。',
  forever: '永久删除时，也会删除这个对话在“活动”中的记录，以及没有其他对话使用的附件。“导出全部”不包含废纸篓。',
  empty: '废纸篓是空的。',
  emptyHint: '删除的对话会在这里保留 30 天。',
  listLabel: '废纸篓中的对话',
  deletedOn: '删除于 {{date}}',
  daysLeft_one: '还剩 {{count}} 天',
  daysLeft_other: '还剩 {{count}} 天',
  lastDay: '今天将被永久删除',
  messages_one: '{{count}} 条消息',
  messages_other: '{{count}} 条消息',
  restore: '恢复',
  restoreChat: '恢复“{{title}}”',
  deleteForever: '永久删除',
  deleteForeverChat: '永久删除“{{title}}”',
  emptyTrash: '清空废纸篓',
  confirmDelete: {
    title: '永久删除这个对话？',
    message: '“{{title}}”及其消息、文件和活动记录将被永久删除，且无法恢复。',
  },
  confirmEmpty: {
    title: '清空废纸篓？',
    message_one: '{{count}} 个对话及其消息、文件和活动记录将被永久删除，且无法恢复。',
    message_other: '{{count}} 个对话及其消息、文件和活动记录将被永久删除，且无法恢复。',
  },
  emptied: '废纸篓已清空',
  emptiedMessage_one: '已永久删除 {{count}} 个对话。',
  emptiedMessage_other: '已永久删除 {{count}} 个对话。',
  errors: {
    load: '无法读取废纸篓',
    restore: '无法恢复对话',
    delete: '无法删除对话',
    empty: '无法清空废纸篓',
  },
}
