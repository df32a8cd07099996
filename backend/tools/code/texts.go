package code

import "airlock/backend/uitext"

// The code tools' refusals and the Settings form's checks of their limits,
// coded for the UI's language (backend/uitext).
var (
	txtLimits        = uitext.Define("code_limits", "code limits: {{issues}}")
	txtLimitTime     = uitext.Define("code_limit_time", "wall time must be between {{lo}} and {{hi}} seconds (got {{got}})")
	txtLimitMemory   = uitext.Define("code_limit_memory", "memory must be between {{lo}} and {{hi}} MiB (got {{got}})")
	txtLimitOutput   = uitext.Define("code_limit_output", "output must be between {{lo}} and {{hi}} KiB (got {{got}})")
	txtLimitFiles    = uitext.Define("code_limit_files", "files written must be between {{lo}} and {{hi}} files (got {{got}})")
	txtLimitBytes    = uitext.Define("code_limit_bytes", "bytes written must be between {{lo}} and {{hi}} MiB (got {{got}})")
	txtArgsNotObject = uitext.Define("code_args_not_object", `{{tool}}: the arguments must be a JSON object {"code": "..."}: {{reason}}`)
	txtNeedsCode     = uitext.Define("code_needs_code", `{{tool}} needs the argument "code": the program to run`)
	txtCodeTooLong   = uitext.Define("code_too_long", "{{tool}}: the code is {{size}}; at most {{max}}")
	txtBadTimeout    = uitext.Define("code_bad_timeout", `{{tool}}: "timeout" must be a whole number of seconds from 1 to {{max}} (got {{got}})`)
	txtBadReadOnly   = uitext.Define("code_bad_read_only", `{{tool}}: "read_only" must be true or false`)
	txtNoWorkspace   = uitext.Define("code_no_workspace", "this chat has no workspace for the code to run in")
)
