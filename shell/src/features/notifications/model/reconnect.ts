/** Reconnect delays of the live stream: exponential from 1 s, capped at 30 s, with jitter. */
export const RECONNECT_INITIAL_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

/** The wait before reconnect number `attempt` (0 first): between half and all of the capped delay. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(RECONNECT_MAX_MS, RECONNECT_INITIAL_MS * 2 ** Math.min(attempt, 16));
  return Math.round(capped / 2 + (random() * capped) / 2);
}
