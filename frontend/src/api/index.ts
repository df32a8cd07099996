// The typed layer over the Go bindings, one file per concern behind this
// single entry: core (the call into Go, errors, events, browser, clipboard),
// chats, settings, calls, workspace, mcp, history, undo, policy, events,
// contextWindow, code (running code: the bounds, a code card's plan and report), mcpLive.
// Only store/ imports the bindings (api, historyApi, policyApi, undoApi, events):
// components go through the stores (src/architecture.test.ts checks it).
//
// Shapes shared with Go come from ./generated.ts (generated from the Go types by
// facade/tstypes_test.go, `make types`; a Go test fails when it is stale). Only what
// the generator cannot express is written by hand: unions for fields Go keeps as
// plain strings, and fields the normalize* functions fill (optional there).
import { callsApi } from './calls'
import { chatsApi } from './chats'
import { mcpApi } from './mcp'
import { settingsApi } from './settings'
import { workspaceApi } from './workspace'

export * from './core'
export * from './chats'
export * from './settings'
export * from './calls'
export * from './workspace'
export * from './mcp'
export * from './history'
export * from './undo'
export * from './policy'
export * from './events'
export * from './agents'
export * from './contextWindow'
export * from './mcpLive'
export * from './context'
export * from './code'
export * from './finish'
export * from './attachments'
export * from './mcpOffers'
export * from './trash'
export * from './filesOut'

export const api = { ...settingsApi, ...chatsApi, ...callsApi, ...workspaceApi, ...mcpApi }

export type Api = typeof api
