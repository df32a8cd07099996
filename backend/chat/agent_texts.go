package chat

import "airlock/backend/uitext"

// An agent refused (the agent editor shows these), coded for the UI's
// language.
var (
	txtAgentName          = uitext.Define("agent_name", "an agent needs a name of 1 to {{max}} characters")
	txtAgentPrompt        = uitext.Define("agent_prompt_too_long", "the system prompt is longer than {{max}} characters")
	txtAgentTemperature   = uitext.Define("agent_temperature", "temperature must be between 0 and 2")
	txtAgentTopP          = uitext.Define("agent_top_p", "top_p must be above 0 and at most 1")
	txtAgentMaxOutput     = uitext.Define("agent_max_output", "max output tokens must be between 0 (the provider's default) and {{max}}")
	txtAgentTurns         = uitext.Define("agent_turns", "the turn limit must be between 1 and 1000, got {{got}}")
	txtAgentTimeout       = uitext.Define("agent_tool_timeout", "the tool timeout must be between 1 and 3600 seconds, got {{got}}")
	txtAgentToggles       = uitext.Define("agent_too_many_tools", "an agent can name at most {{max}} tools")
	txtAgentToolMode      = uitext.Define("agent_tool_mode", "unknown tool mode {{mode}} (want text, native or auto)")
	txtAgentApproval      = uitext.Define("agent_approval", "unknown approval default {{approval}} (want rules, reads or ask)")
	txtAgentParadigm      = uitext.Define("agent_paradigm", "unknown tool-call paradigm {{paradigm}} (want json, xml or vcp)")
	txtAgentNeedsFolder   = uitext.Define("workspace_needs_folder", "a {{kind}} workspace needs a folder")
	txtAgentWorkspaceKind = uitext.Define("agent_workspace_kind", "unknown workspace kind {{kind}} (want scratch, folder or overlay)")
	txtAgentToolName      = uitext.Define("agent_tool_name", "{{name}} is not a tool name")
)
