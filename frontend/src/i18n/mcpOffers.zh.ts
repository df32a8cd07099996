// 中文：MCP 服务器除工具之外提供的内容：说明、提示词（输入框中的 "/"）和资源（合并到 zh.ts 的 `mcpOffers`）。
import type { mcpOffersEn } from './mcpOffers.en'

export const mcpOffersZh: typeof mcpOffersEn = {
  instructions: {
    title: '此服务器的说明',
    on: '将此服务器的说明加入系统提示词',
    onHint: '在提供其工具的对话中，模型会读到这些说明，并标明来自此服务器。',
    cut: '已截断到 8 KB，这是 Airlock 对服务器说明的上限。',
    show: '显示说明',
    hide: '隐藏说明',
  },
  prompts: {
    label: '此对话的 MCP 服务器提供的提示词',
    loading: '正在读取服务器的提示词…',
    none: '此对话的 MCP 服务器没有提供提示词。',
    noMatch: '没有与 “/{{query}}” 匹配的提示词。',
    hint: '↑↓ 选择 · Enter 使用 · Esc 关闭',
    from: '来自 {{server}}',
    formTitle: '来自 {{server}} 的 /{{name}}',
    required: '必填',
    use: '插入',
    using: '正在询问 {{server}}…',
    cancel: '取消',
    fillIn: '请先填写 “{{name}}”。',
    suggestions: '{{name}} 的建议',
  },
  resources: {
    button: '从 MCP 服务器附加…',
    title: '从 MCP 服务器附加',
    description: '此对话的服务器提供的资源。文本作为带名称的文本块附加，图片作为图片附加；两者都像其他附件一样计入上下文。',
    filter: '筛选资源',
    loading: '正在读取服务器的资源…',
    none: '此对话的 MCP 服务器没有提供资源。',
    noMatch: '没有与 “{{query}}” 匹配的内容。',
    templates: '模板',
    templateHint: '填写模板以获取资源。',
    attach: '附加',
    attaching: '正在从 {{server}} 读取…',
    back: '返回',
    problems: '部分列表无法读取：',
  },
  signIn: {
    title: '需要先登录 MCP 服务器 {{server}}，此对话才能使用它的工具。',
  },
  errors: {
    instructions: '无法更改服务器的说明',
  },
}
