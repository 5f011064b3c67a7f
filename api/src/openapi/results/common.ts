/**
 * What the result schemas share: the type check that ties a schema to its shared contract, and the
 * building blocks of the api's answers.
 */

/** true when A and B are the same type (each assignable to the other). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when T is true: `assertSame<Same<z.output<typeof schema>, Contract>>()`. */
export function assertSame<T extends true>(): T | undefined {
  return undefined;
}

export { count, day, id, page, ref, resultProblem, timestamp } from '@portal/shared/core/answers';
