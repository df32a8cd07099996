// 为完善细节新增的中文文案（作为 `finish` 合并进 zh.ts）。
export const finishZh = {
  useTextCalls: '对此模型使用文本调用',
  discardEdits: {
    title: '放弃未保存的更改？',
    message: '你正在编辑的服务商有尚未保存的更改。关闭设置并丢弃它们吗？',
    confirm: '放弃更改',
  },
  searchResultsOf: '结果 · {{tools}}',
  refused: '运行此调用将被拒绝：{{why}}',
  refusedEdit: '按此修改运行将被拒绝：{{why}}',
  revoke: {
    title: '撤销规则 #{{id}}（{{tool}}）？',
    messageAllow: '它曾自动允许的 {{tool}} 调用将重新在卡片上等待你处理。',
    messageDeny: '它曾自动拒绝的 {{tool}} 调用将重新在卡片上等待你处理。',
  },
  ruleTestEverywhere: {
    testAllowed_one: '在所有对话的 {{total}} 次调用中，会允许 {{count}} 次：',
    testAllowed_other: '在所有对话的 {{total}} 次调用中，会允许 {{count}} 次：',
    testDenied_one: '在所有对话的 {{total}} 次调用中，会拒绝 {{count}} 次：',
    testDenied_other: '在所有对话的 {{total}} 次调用中，会拒绝 {{count}} 次：',
    testNone: '所有对话至今的 {{total}} 次调用中，没有一次会被它覆盖。',
  },
  workspace: {
    unavailableTitle: '无法使用本对话的文件夹',
    unavailableNew: '消息未发送：为这个新对话选择的文件夹无法使用。请重新选择，或切换到临时工作区，然后再发送。',
    chooseAgain: '重新选择文件夹…',
    useScratch: '切换到临时工作区',
    switched: '工作区已更改。按“重试”再次发送。',
  },
}
