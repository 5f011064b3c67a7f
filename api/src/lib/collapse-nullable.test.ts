import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { z } from 'zod';
import { collapseNullable } from './collapse-nullable';

const answer = z.object({
  id: z.string(),
  dueDate: z.iso.date().nullable(),
  createdAt: z.iso.datetime(),
  referenceId: z.string().max(50).nullable(),
  count: z.number().int().nullable(),
  done: z.boolean().nullable(),
  status: z.enum(['OPEN', 'DONE']).nullable(),
  parent: z.object({ id: z.string(), title: z.string().nullable() }).nullable(),
  assignees: z.array(z.object({ id: z.string(), email: z.string().nullable() })),
});

/** A serializer as fastify compiles it (plugins' serializerCompiler uses the same compiler). */
const fastJsonStringify = (schema: Record<string, unknown>) =>
  SerializerSelector()({}, {})({ schema, method: 'GET', url: '/', httpStatus: '200' });

const jsonSchema = () => {
  const json = z.toJSONSchema(answer, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
};

describe('collapseNullable', () => {
  it('writes a nullable plain type as a list of types, keeping its format and limits', () => {
    const properties = (collapseNullable(jsonSchema()) as { properties: Record<string, Record<string, unknown>> })
      .properties;
    expect(properties.dueDate).toMatchObject({ type: ['string', 'null'], format: 'date' });
    expect(properties.dueDate).not.toHaveProperty('anyOf');
    expect(properties.referenceId).toEqual({ type: ['string', 'null'], maxLength: 50 });
    expect(properties.count).toMatchObject({ type: ['integer', 'null'] });
    expect(properties.done).toEqual({ type: ['boolean', 'null'] });
    // nested objects are collapsed inside, and stay anyOf themselves (fast-json-stringify needs the shape)
    expect(properties.parent).toHaveProperty('anyOf');
    expect(JSON.stringify(properties.parent)).toContain('"type":["string","null"]');
    // an enum keeps zod's form: its values are what is checked
    expect(properties.status).toHaveProperty('anyOf');
  });

  it('gives fast-json-stringify the same answers as zod’s own schema', () => {
    const before = fastJsonStringify(jsonSchema());
    const after = fastJsonStringify(collapseNullable(jsonSchema()) as Record<string, unknown>);
    const rows = [
      {
        id: 'a',
        dueDate: '2026-01-02',
        createdAt: '2026-01-02T03:04:05.000Z',
        referenceId: 'R-1 "quoted" \u2028',
        count: 3,
        done: false,
        status: 'OPEN',
        parent: { id: 'p', title: null },
        assignees: [{ id: 'u', email: null }],
      },
      {
        id: 'b',
        dueDate: null,
        createdAt: new Date(0),
        referenceId: null,
        count: null,
        done: null,
        status: null,
        parent: null,
        assignees: [],
      },
      {
        id: 'c',
        dueDate: new Date(Date.UTC(2026, 10, 29)),
        createdAt: '',
        referenceId: '',
        count: 0,
        done: true,
        status: 'DONE',
        parent: null,
        assignees: [],
      },
    ];
    for (const row of rows) expect(after(row)).toBe(before(row));
  });
});
