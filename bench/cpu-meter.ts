import { readFileSync } from 'node:fs';
import { sql } from './database';

/** CPU milliseconds so far: the service's, and each PostgreSQL backend's by pid. */
export interface CpuSample {
  service: number;
  backends: Map<number, number>;
}

/**
 * CPU time per request, of the service's process and of the PostgreSQL backends serving its
 * database: it tells which side a request's cost is on, where req/s mixes both with the load
 * generator's (the limit's bench reports the same split). Read from /proc (Linux, and the
 * database on this machine); elsewhere the figures are left out.
 */
export class CpuMeter {
  constructor(
    private readonly servicePid: number,
    private readonly databaseUrl: string,
  ) {}

  async sample(): Promise<CpuSample | undefined> {
    const service = processCpuMs(this.servicePid);
    if (service === undefined) return undefined;
    const rows = await sql(
      this.databaseUrl,
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    const backends = new Map<number, number>();
    for (const { pid } of rows.rows as Array<{ pid: number }>) {
      const ms = processCpuMs(pid);
      if (ms !== undefined) backends.set(pid, ms);
    }
    return { service, backends };
  }
}

/** A process's CPU milliseconds so far (user + system), or undefined when /proc cannot tell. */
export function processCpuMs(pid: number): number | undefined {
  try {
    // The command name may hold spaces: the fields counted here start after its closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // USER_HZ is 100 on every Linux the bench runs on.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * µs of CPU per request between two samples. A backend that started in between counts whole; one
 * that ended in between (the pool closes idle connections) is lost, so the database's figure is a
 * floor.
 */
export function perRequestUs(
  before: CpuSample | undefined,
  after: CpuSample | undefined,
  requests: number,
): { service: number; database: number } | undefined {
  if (!before || !after || requests === 0) return undefined;
  let database = 0;
  for (const [pid, ms] of after.backends) database += ms - (before.backends.get(pid) ?? 0);
  return {
    service: Math.round((1000 * (after.service - before.service)) / requests),
    database: Math.round((1000 * database) / requests),
  };
}
