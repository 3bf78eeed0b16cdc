import { parseSchedule, retryDelayMs, SVIX_SCHEDULE_SECONDS } from './retry-schedule';

describe('retry schedule', () => {
  it("is Svix's by default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h", () => {
    expect(parseSchedule(undefined)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(parseSchedule('1,2,4')).toEqual([1, 2, 4]);
  });

  it('jitters each wait by at most 20 % and stops after the last', () => {
    expect(retryDelayMs(SVIX_SCHEDULE_SECONDS, 1, () => 0)).toBe(4000);
    expect(retryDelayMs(SVIX_SCHEDULE_SECONDS, 1, () => 1)).toBe(6000);
    expect(retryDelayMs(SVIX_SCHEDULE_SECONDS, 2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(SVIX_SCHEDULE_SECONDS, 7, () => 0.5)).toBe(36_000_000);
    expect(retryDelayMs(SVIX_SCHEDULE_SECONDS, 8)).toBeNull();
  });
});
