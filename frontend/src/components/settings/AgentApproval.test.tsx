import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { blankAgent, normalizeAgent, type Agent } from '../../api'
import i18n from '../../i18n'
import { resetAgents } from '../../store/agents'
import { whoText } from '../policy/describe'
import { AgentForm } from './AgentForm'

type Fn = ReturnType<typeof vi.fn>
let app: Record<string, Fn>

beforeEach(() => {
  resetAgents()
  app = {
    AgentToolList: vi.fn(async () => []),
    SaveAgent: vi.fn(async (a: Agent) => ({ ...a, id: a.id || 'new1' })),
    ListAgents: vi.fn(async () => []),
  }
  window.go = { main: { App: app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
})

afterEach(async () => {
  delete window.go
  await i18n.changeLanguage('en')
})

const reviewer = (): Agent => ({ ...blankAgent(), id: 'reviewer', name: 'File reviewer (read-only)', builtIn: true, approval: 'reads' })

describe('an agent’s approval defaults in the editor', () => {
  it('shows the agent’s choice and saves another one', async () => {
    const user = userEvent.setup()
    const done = vi.fn()
    render(<AgentForm agent={reviewer()} onDone={done} />)
    expect(screen.getByTestId('agent-approval-reads')).toBeChecked()
    expect(screen.getByTestId('agent-approval-ask')).not.toBeChecked()
    expect(screen.getByText('Reads run without asking')).toBeInTheDocument()
    await user.click(screen.getByTestId('agent-approval-ask'))
    expect(screen.getByTestId('agent-approval-ask')).toBeChecked()
    await user.click(screen.getByTestId('agent-save'))
    await waitFor(() => expect(done).toHaveBeenCalled())
    expect(app.SaveAgent).toHaveBeenCalledTimes(1)
    expect((app.SaveAgent.mock.calls[0][0] as Agent).approval).toBe('ask')
  })

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh')
    render(<AgentForm agent={reviewer()} onDone={() => {}} />)
    expect(screen.getByText('每次都询问')).toBeInTheDocument()
    expect(screen.getByTestId('agent-approval')).toHaveAttribute('role', 'radiogroup')
  })

  it('reads an agent saved before the choice existed as “your rules decide”', () => {
    const old = { ...blankAgent(), name: 'Old' } as Partial<Agent>
    delete old.approval
    expect(normalizeAgent(old as Agent).approval).toBe('rules')
    expect(normalizeAgent({ ...blankAgent(), approval: 'yolo' as Agent['approval'] }).approval).toBe('rules')
  })

  it('names the agent that decided in the trail', () => {
    const t = i18n.getFixedT('en')
    expect(whoText('agent:nobody', t as never)).toBe('agent nobody')
  })
})
