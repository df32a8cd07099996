// 对话的工具模式和调用格式从何而来的中文字符串（并入 zh.ts 的 `agentFollow`）。
export const agentFollowZh = {
  follows: '工具模式和调用格式跟随智能体 {{name}}：编辑该智能体会改变此对话之后的轮次。',
  own: '此对话保留自己的{{what}}；智能体 {{name}} 的设置是 {{agent}}。',
  ownMode: '工具模式',
  ownFormat: '调用格式',
  ownBoth: '工具模式和调用格式',
  follow: '跟随智能体',
}
