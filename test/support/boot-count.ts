import { appendFileSync } from 'node:fs';

/** Set by the global setup: a file a line for each app a suite boots, summed by the teardown. */
export const BOOTS_FILE_ENV = 'CIL_TEST_BOOTS_FILE';

/**
 * Counts one boot of the service: `app` for an in-process AppModule (startTestApp), `process` for
 * the built service as a process. The count is the figure docs/development.md keeps under 40.
 */
export function countBoot(kind: 'app' | 'process'): void {
  const file = process.env[BOOTS_FILE_ENV];
  if (file) appendFileSync(file, `${kind}\n`);
}
