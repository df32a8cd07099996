// English strings of where a chat's tool mode and call format come from (merged into en.ts as `agentFollow`).
export const agentFollowEn = {
  follows: 'Tool mode and call format follow the agent {{name}}: editing the agent changes the next turns of this chat.',
  own: 'This chat keeps its own {{what}}; the agent {{name}} says {{agent}}.',
  ownMode: 'tool mode',
  ownFormat: 'call format',
  ownBoth: 'tool mode and call format',
  follow: 'Follow the agent',
}
