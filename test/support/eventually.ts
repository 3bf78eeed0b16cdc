/** Polls until the check passes (returns without throwing) or the time is up, then rethrows its last failure. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
