// 针对 MCP 服务器只读工具的规则的中文字符串（以 `rulesReadOnly` 并入 zh.ts）。
export const rulesReadOnlyZh = {
  menu: '{{server}} 的只读工具',
  menuDesc: '{{server}} 自称只读的每个工具',
  kind: '{{server}} 的只读工具',
  match: '服务器自称只读的工具',
  claim: '“只读”只是服务器自己的声明，并非证明。每次判定调用时都会重新检查：不再声明只读、声明具有破坏性或没有声明的工具会等待你决定。',
}
