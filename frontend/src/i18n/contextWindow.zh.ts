// 模型上下文窗口的中文文案（在 zh.ts 中合并为 `contextWindow`）。
export const contextWindowZh = {
  title: '上下文窗口',
  loading: '正在询问服务器…',
  tokens: '{{tokens}} 个 token',
  unknown: '未知：服务器没有说明，Airlock 的常见模型表里也没有这个模型。请在下方设置。',
  source: {
    user: '由你设置',
    'learned:overflow': '来自服务器的超长报错',
    table: '来自 Airlock 的常见模型表',
    server: '来自服务器（{{server}}）',
  },
  modelMax: '模型本身最多可接受 {{tokens}} 个 token。',
  learned: '服务器拒绝了一个更长的请求，并说明窗口为 {{tokens}} 个 token。',
  window: '窗口（token）',
  windowHint: '留空：以服务器所说为准。',
  maxOutput: '最长回答（token）',
  maxOutputHint: '作为 max_tokens 发送。留空：服务器默认值。',
  save: '保存窗口',
  saved: '已保存。',
  detect: '重新检测',
  detectHint: '再次询问服务器（例如你调大了它的窗口之后）。',
  notNumber: '请输入整数个 token，或留空。',
}
