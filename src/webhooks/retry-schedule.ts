/** Svix's schedule (contract §10): seconds to wait before each retry. */
export const SVIX_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];

export function parseSchedule(configured: string | undefined): number[] {
  return configured ? configured.split(',').map(Number) : SVIX_SCHEDULE_SECONDS;
}

/**
 * Milliseconds before the retry that follows attempt `attempt` (1-based), ±20 % jitter so the
 * retries of many messages to one receiver spread out; null when attempts are used up.
 */
export function retryDelayMs(schedule: number[], attempt: number, random: () => number = Math.random): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (0.8 + 0.4 * random()));
}
