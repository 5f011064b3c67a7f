/** "1 task", "12 tasks". (The file check before sending is @portal/shared/web/task-tracker-import's.) */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
