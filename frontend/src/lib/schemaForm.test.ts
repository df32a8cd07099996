import { describe, expect, it } from 'vitest'
import { argsFromValues, emptyValues, schemaFields, valuesFromArgs } from './schemaForm'

const listDirectory = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Folder to list.' },
    recursive: { type: 'boolean' },
    depth: { type: 'integer', minimum: 1, maximum: 20 },
  },
}
const writeFile = {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' } },
  required: ['path', 'content'],
}
const misc = {
  type: 'object',
  properties: {
    ratio: { type: 'number' },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    tags: { type: 'array', items: { type: 'string' } },
    name: { type: ['string', 'null'] },
    old_text: { type: 'string' },
  },
  required: ['mode'],
}

describe('schemaFields', () => {
  it('maps JSON Schema types to field kinds and marks required fields (first)', () => {
    expect(schemaFields(listDirectory).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['path', 'string', false],
      ['recursive', 'boolean', false],
      ['depth', 'integer', false],
    ])
    expect(schemaFields(listDirectory)[2]).toMatchObject({ minimum: 1, maximum: 20 })
    expect(schemaFields(writeFile).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['path', 'string', true],
      ['content', 'text', true],
    ])
    expect(schemaFields(misc).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['mode', 'enum', true],
      ['ratio', 'number', false],
      ['tags', 'json', false],
      ['name', 'string', false],
      ['old_text', 'text', false],
    ])
    expect(schemaFields(null)).toEqual([])
    expect(schemaFields({ type: 'object' })).toEqual([])
  })
})

describe('argsFromValues', () => {
  it('parses numbers, leaves empty optional fields out, sends booleans that differ from the default', () => {
    const fields = schemaFields(listDirectory)
    expect(argsFromValues(fields, emptyValues(fields))).toEqual({ ok: true, args: {} })
    expect(argsFromValues(fields, { path: 'src', recursive: true, depth: ' 3 ' })).toEqual({
      ok: true,
      args: { path: 'src', recursive: true, depth: 3 },
    })
  })

  it('reports required, number, integer and range problems per field', () => {
    const w = schemaFields(writeFile)
    expect(argsFromValues(w, { path: '', content: '' })).toEqual({ ok: false, errors: { path: 'required' } })
    // an empty file is fine: content is multi-line text
    expect(argsFromValues(w, { path: 'a.md', content: '' })).toEqual({ ok: true, args: { path: 'a.md', content: '' } })
    // strings keep their spaces
    expect(argsFromValues(w, { path: 'a.md', content: '  x\n' })).toEqual({ ok: true, args: { path: 'a.md', content: '  x\n' } })
    const l = schemaFields(listDirectory)
    expect(argsFromValues(l, { depth: 'abc' })).toEqual({ ok: false, errors: { depth: 'number' } })
    expect(argsFromValues(l, { depth: '1.5' })).toEqual({ ok: false, errors: { depth: 'integer' } })
    expect(argsFromValues(l, { depth: '0' })).toEqual({ ok: false, errors: { depth: 'min' } })
    expect(argsFromValues(l, { depth: '21' })).toEqual({ ok: false, errors: { depth: 'max' } })
  })

  it('parses JSON fields, and enum choices', () => {
    const fields = schemaFields(misc)
    expect(argsFromValues(fields, { mode: 'fast', tags: '["a","b"]', ratio: '0.5' })).toEqual({
      ok: true,
      args: { mode: 'fast', tags: ['a', 'b'], ratio: 0.5 },
    })
    expect(argsFromValues(fields, { mode: '', tags: '[oops' })).toEqual({ ok: false, errors: { mode: 'required', tags: 'json' } })
  })
})

describe('valuesFromArgs', () => {
  it('fills the form back from an arguments object (raw JSON → form)', () => {
    const fields = schemaFields({ ...misc, properties: { ...misc.properties, on: { type: 'boolean' } } })
    const v = valuesFromArgs(fields, { mode: 'slow', ratio: 2, tags: ['x'], on: true, unknown: 1 })
    expect(v).toMatchObject({ mode: 'slow', ratio: '2', tags: '["x"]', on: true, name: '' })
    expect(argsFromValues(fields, v)).toEqual({ ok: true, args: { mode: 'slow', ratio: 2, tags: ['x'], on: true } })
  })
})

describe('titled choices (MCP elicitation)', () => {
  it('a oneOf of {const, title} is a choice showing the titles', () => {
    const [f] = schemaFields({ type: 'object', properties: { hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2' }], default: 'h1' } } })
    expect(f).toMatchObject({ kind: 'enum', enumValues: ['h1', 'h2'], enumLabels: ['Superman', 'h2'], default: 'h1' })
  })
})
