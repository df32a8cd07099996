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
  cutOff: '回答达到了长度上限',
  continue: '继续',
  continuePrompt: '请从你停下的地方接着写。',
  runsWith: {
    ollama:
      'Ollama 以 {{loaded}} 个 token 的窗口运行 {{model}}，而模型本身可接受 {{max}} 个。要调大：在运行 Ollama 的环境中设置 OLLAMA_CONTEXT_LENGTH（例如 OLLAMA_CONTEXT_LENGTH=32768 ollama serve），或在 Ollama 应用中拖动上下文长度滑块，或在模型的 Modelfile 中加入 PARAMETER num_ctx 32768；然后重新加载模型并点“重新检测”。',
    lmstudio:
      'LM Studio 以 {{loaded}} 个 token 的窗口加载了 {{model}}，而模型本身可接受 {{max}} 个。要调大：以更大的上下文长度（Context Length）加载模型（“我的模型”→ 模型设置，或 lms load --context-length），然后点“重新检测”。',
    llamacpp:
      'llama-server 每个槽位以 {{loaded}} 个 token 的窗口运行 {{model}}，而模型训练长度为 {{max}}。要调大：用更大的 --ctx-size（-c）启动 llama-server；--parallel 会把它分给各个槽位。然后点“重新检测”。',
  },
  assumed: '{{model}} 尚未加载，服务器还没有说明将使用多大的窗口。在它说明之前，Airlock 假定为 {{tokens}} 个 token，并会在下一次回答时再次询问。',
  overLoaded: '服务器只以 {{loaded}} 个 token 运行此模型。此处设置更大的窗口会让它悄悄截断对话，除非你也调大服务器的窗口。',
  unreachable: 'Airlock 无法连接服务器来询问此模型的窗口。它会在下一次回答时，或你点“重新检测”时再次询问。',
}
