// 中文：MCP 服务器的工具运行时（合并到 zh.ts 的 `mcpLive`）。
export const mcpLiveZh = {
  asks: '{{server}} 提问',
  urlAsks: '{{server}} 请你打开 {{domain}} 上的一个页面',
  urlHint: '按下按钮之前不会打开任何页面；页面将在浏览器中打开，位于 {{domain}}。',
  open: '打开 {{domain}}',
  accept: '发送',
  decline: '拒绝',
  cancel: '取消',
  progress: '进度',
  progressOf: '{{progress}} / {{total}}',
  progressSoFar: '已完成 {{progress}}',
  readOnly: '只读',
  destructive: '可能删除或覆盖',
}
