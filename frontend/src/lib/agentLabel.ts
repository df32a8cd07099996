import type { TFunction } from '../i18n'
import { BUILTIN_AGENTS, type Agent } from '../api'

/** An agent's name and description in the UI's language: a built-in one not renamed is translated. */
export function agentLabel(a: Pick<Agent, 'id' | 'name' | 'description' | 'builtIn'>, t: TFunction): { name: string; description: string } {
  if (a.builtIn && BUILTIN_AGENTS[a.id] === a.name) {
    return { name: t(`agents.builtins.${a.id}.name`), description: t(`agents.builtins.${a.id}.description`) }
  }
  return { name: a.name, description: a.description }
}
