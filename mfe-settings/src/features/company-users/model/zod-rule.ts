import type { ZodType } from 'zod';

/** An antd Form rule that checks a field with the api's own zod schema, with the schema's message. */
export function zodRule(schema: ZodType) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}
