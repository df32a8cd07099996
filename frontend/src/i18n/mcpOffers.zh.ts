// 中文：MCP 服务器除工具之外提供的内容：说明、提示词（输入框中的 "/"）和资源（合并到 zh.ts 的 `mcpOffers`）。
import type { mcpOffersEn } from './mcpOffers.en'

export const mcpOffersZh: typeof mcpOffersEn = {
  instructions: {
    title: '此服务器的说明',
    on: '加入系统提示词',
    onHint: '在提供其工具的对话中，模型会读到这些说明，并标明来自此服务器。',
    cut: '已截断到 8 KB，这是 Airlock 对服务器说明的上限。',
    show: '显示说明',
    hide: '隐藏说明',
  },
  errors: {
    instructions: '无法更改服务器的说明',
  },
}
