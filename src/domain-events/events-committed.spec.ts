import type { DatabaseNotifications } from '../database/notifications';
import { EventsCommitted, NOTIFY_GAP_MS } from './events-committed';

describe('EventsCommitted', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const made = () => {
    const notify = jest.fn().mockResolvedValue(undefined);
    const committed = new EventsCommitted({ notify } as unknown as DatabaseNotifications);
    return { committed, notify };
  };

  it('tells its own listeners of every commit at once, and stops when asked', () => {
    const { committed } = made();
    const heard = jest.fn();
    const stop = committed.subscribe(heard);
    committed.signal();
    committed.signal();
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    committed.signal();
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('notifies the other instances at once, then once per gap however many commit meanwhile', () => {
    const { committed, notify } = made();
    committed.signal();
    jest.advanceTimersByTime(0);
    expect(notify).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i++) committed.signal();
    jest.advanceTimersByTime(NOTIFY_GAP_MS - 1);
    expect(notify).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(notify).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(10 * NOTIFY_GAP_MS);
    expect(notify).toHaveBeenCalledTimes(2);
  });
});
