// Backend events, typed.
import { onEvent } from './core'
import { normalizeMessage, type ChatNotice, type Message, type StreamDelta, type StreamEnd } from './chats'
import { normalizeCall, normalizeForming, type Call, type CallsForming } from './calls'

export const events = {
  onStreamDelta: (cb: (d: StreamDelta) => void) => onEvent<StreamDelta>('stream:delta', cb),
  onStreamEnd: (cb: (d: StreamEnd) => void) => onEvent<StreamEnd>('stream:end', cb),
  onChatsChanged: (cb: () => void) => onEvent('chats:changed', () => cb()),
  /** A call was found or changed state (upsert by id). */
  onCallUpdated: (cb: (c: Call) => void) => onEvent<Call>('call:updated', (c) => cb(normalizeCall(c))),
  /** A message the backend added by itself (tool results; the next streaming answer). */
  onMessageAdded: (cb: (m: Message) => void) => onEvent<Message>('message:added', (m) => cb(normalizeMessage(m))),
  onChatNotice: (cb: (n: ChatNotice) => void) => onEvent<ChatNotice>('chat:notice', cb),
  /** The calls a streaming answer is writing (the whole list each time; display only). */
  onCallsForming: (cb: (f: CallsForming) => void) => onEvent<CallsForming>('calls:forming', (f) => cb(normalizeForming(f))),
  /** A tool that may change files ran in a chat's workspace. */
  onWorkspaceChanged: (cb: (w: { chatId: string }) => void) => onEvent<{ chatId: string }>('workspace:changed', cb),
  /** An MCP server's status or tool list changed. */
  onMcpChanged: (cb: () => void) => onEvent('mcp:changed', () => cb()),
  /** Something found while the app runs that people must know (a damaged database); also in Info's notices. */
  onNotice: (cb: (message: string) => void) => onEvent<string>('app:notice', cb),
  // The native menu (its shortcuts reach the page only through these on Linux/Windows).
  onMenuNewChat: (cb: () => void) => onEvent('menu:new-chat', () => cb()),
  onMenuSettings: (cb: () => void) => onEvent('menu:settings', () => cb()),
  onMenuAbout: (cb: () => void) => onEvent('menu:about', () => cb()),
}
