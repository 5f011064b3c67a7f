/**
 * Heavy work of one kind (parsing an uploaded spreadsheet, writing a PDF) run at most `limit` at a time
 * in this process, so a burst of calls cannot take all the memory and CPU: the others wait their turn,
 * first come first served.
 */
export function workSlots(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < limit) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
