import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { fingerprintOf } from '../access-keys/integration-key-format';
import { KeyChecks } from '../access-keys/key-checks';
import { headerOf, isRepeated } from '../common/http/header-of';
import { RequestOutcomes, type RequestOutcome } from '../common/http/request-outcomes';
import { BoundedMap } from '../common/runtime/bounded-map';
import type { Environment } from '../config/environment';
import { withoutSecrets } from '../common/runtime/without-secrets';
import { errorTextForLog } from '../common/errors/error-text-for-log';
import type { FailedRequest } from './failed-request';
import { RequestLogRepository, refusedForItsContent } from './request-log.repository';
import { RequestTally, type TallyRow } from './request-tally';
import { PRUNE_BATCH, pruneInBatches } from '../common/runtime/batched-pruning';
import { IntervalTask } from '../common/runtime/interval-task';

/** Failures are kept this long (contract §15); counts too. */
export const RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
// Bounds while the database is away: beyond them failures are dropped (and counted in the log).
const MAX_WAITING_FAILURES = 10_000;
// One statement's share of the queue (its arrays of parameters stay small).
const FAILURES_PER_WRITE = 1_000;
// Lookups of keys the guards never saw (identifyLater) under way at once; beyond it such a refusal is not logged.
const MAX_IDENTIFYING = 64;
// Keys recently found not good (by fingerprint), so a stream of made-up keys costs one lookup each a while.
const MAX_UNKNOWN_KEYS = 4_096;
const UNKNOWN_KEY_TTL_MS = 60_000;
const BEARER_KEY = /^Bearer[ \t]+(csh_at_\S+)[ \t]*$/i;
/** A key's 429s kept in full each minute (contract §15: "a few"); the rest of the minute's are one row's count. */
export const KEPT_429_PER_MINUTE = 5;
const MINUTE_MS = 60_000;
// Keys whose 429s of this minute are being numbered; one forgotten early only starts its numbering over (merged anyway).
const MAX_REFUSED_KEYS = 4_096;

/** Text PostgreSQL takes: it refuses NUL in text, which would drop the whole entry. */
const storable = (text: string) => text.replace(/\0/g, '\uFFFD');
const loggable = (text: string, max: number) => withoutSecrets(storable(text), max);

/**
 * The request log's writer (contract §15). Every request whose integration key was identified
 * is counted in memory per key, method, route and status; one answered 400 or above is also
 * queued in full. Every REQUEST_LOG_FLUSH_MS one statement adds the counts to the current
 * minute's rows and appends the failures, so a successful request costs a few map operations
 * and no write. What a flush takes is cleared from memory, and what it could not write goes
 * back for the next one; shutdown flushes the rest. Any number of instances add to the same
 * rows. Once an hour one of them prunes what is older than the retention.
 */
@Injectable()
export class RequestRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RequestLog');
  private readonly tally = new RequestTally();
  private failures: FailedRequest[] = [];
  private dropped = 0;
  private readonly identifying = new Map<string, Promise<number | null>>();
  /** Fingerprint (hex) → until when it is taken for no good key. */
  private readonly unknownKeys = new BoundedMap<string, number>(MAX_UNKNOWN_KEYS);
  /** Key id → the minute its 429s are numbered in and the next number. */
  private readonly refusedThisMinute = new BoundedMap<number, { minute: number; next: number }>(MAX_REFUSED_KEYS);
  /** Key id → its queued row that counts the rest of its 429s this minute, until a flush takes the queue. */
  private readonly overflow = new Map<number, FailedRequest>();
  private readonly flushEveryMs: number;
  private task?: IntervalTask<void>;
  private flushes: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  private pruning: Promise<unknown> = Promise.resolve();

  constructor(
    outcomes: RequestOutcomes,
    private readonly keys: KeyChecks,
    private readonly repository: RequestLogRepository,
    config: ConfigService<Environment, true>,
  ) {
    this.flushEveryMs = config.get('REQUEST_LOG_FLUSH_MS', { infer: true });
    outcomes.listen((outcome) => this.hear(outcome));
  }

  onApplicationBootstrap(): void {
    this.task = new IntervalTask({
      everyMs: this.flushEveryMs,
      run: () => {
        this.pruneNowAndThen();
        return this.flush();
      },
    });
    this.task.start();
  }

  /** After the HTTP server has closed: what is still counted or queued is written now. */
  async onApplicationShutdown(): Promise<void> {
    await this.task?.stop();
    await Promise.allSettled([...this.identifying.values(), this.pruning]);
    await this.flush();
  }

  /** One request's outcome, after its answer. */
  hear(outcome: RequestOutcome): void {
    const principal = outcome.context?.principal;
    if (principal) {
      // A 401 refuses the key: it was not identified, even where this instance had known it.
      if (principal.kind === 'integration_key' && outcome.status !== 401) this.count(principal.id, outcome);
    } else if (outcome.status >= 400 && outcome.status !== 401) {
      this.identifyLater(outcome);
    }
  }

  /** Writes what was counted and queued so far (after any flush under way). */
  flush(): Promise<void> {
    this.flushes = this.flushes.then(() => this.writeOnce());
    return this.flushes;
  }

  /**
   * Removes what is older than the retention, in batches (pruneInBatches), unless another
   * instance is doing it: false then.
   */
  async prune(): Promise<boolean> {
    let mine = true;
    await pruneInBatches(
      async () => {
        const batch = await this.repository.pruneBatch(RETENTION_DAYS);
        mine = batch.mine;
        return {
          removed: batch.failures + batch.counts,
          more: batch.mine && Math.max(batch.failures, batch.counts) === PRUNE_BATCH,
        };
      },
      () => this.task?.stopped ?? false,
    );
    return mine;
  }

  /** `at`: when it was answered, if not now (the clock is read for failures only: it costs more than a count). */
  private count(keyId: number, outcome: RequestOutcome, at?: number): void {
    if (outcome.status < 400) {
      this.tally.add(keyId, outcome.method, outcome.route, outcome.status);
      return;
    }
    const path = outcome.context?.path ?? (outcome.request.originalUrl ?? outcome.request.url).split('?')[0];
    const { route } = outcome;
    this.tally.add(keyId, outcome.method, route, outcome.status);
    this.keep(keyId, outcome, route, path, at ?? Date.now());
  }

  private keep(keyId: number, outcome: RequestOutcome, route: string | null, path: string, at: number): void {
    const fold = outcome.status === 429 ? this.foldOf(keyId, at) : null;
    if (fold?.slot === KEPT_429_PER_MINUTE) {
      const row = this.overflow.get(keyId);
      if (row && row.foldMinute!.getTime() === fold.minute) {
        row.count++;
        return;
      }
    }
    if (this.failures.length >= MAX_WAITING_FAILURES) {
      this.dropped++;
      return;
    }
    const { request, context } = outcome;
    const idempotencyKey = headerOf(request, 'idempotency-key');
    const row: FailedRequest = {
      keyId,
      at: new Date(at),
      method: storable(outcome.method.slice(0, 16)),
      route: route === null ? null : storable(route.slice(0, 512)),
      path: loggable(path, 2048),
      status: outcome.status,
      error: outcome.error === null ? null : loggable(errorTextForLog(outcome.error), 1000),
      requestId: loggable(context?.requestId ?? (typeof request.id === 'string' ? request.id : ''), 64),
      idempotencyKey: idempotencyKey === undefined ? null : loggable(idempotencyKey, 255),
      durationMs: Math.max(0, Math.round(outcome.durationMs * 100) / 100),
      ip: storable((context?.ip ?? request.ip ?? '').slice(0, 64)),
      count: 1,
      foldMinute: fold === null ? null : new Date(fold.minute),
      foldSlot: fold?.slot ?? null,
    };
    this.failures.push(row);
    if (fold?.slot === KEPT_429_PER_MINUTE) this.overflow.set(keyId, row);
  }

  /**
   * A 429's place among its key's 429s of its minute: the first KEPT_429_PER_MINUTE are kept in
   * full, the last place holds the count of the rest. Places are unique with the key and minute
   * in the table, so another instance's 429 in the same place adds to that row instead of adding
   * one: however many instances refuse a key, a minute keeps at most KEPT_429_PER_MINUTE + 1 rows.
   */
  private foldOf(keyId: number, at: number): { minute: number; slot: number } {
    const minute = at - (at % MINUTE_MS);
    let numbering = this.refusedThisMinute.get(keyId);
    if (numbering === undefined || numbering.minute !== minute) {
      numbering = { minute, next: 0 };
      this.refusedThisMinute.set(keyId, numbering);
    }
    const slot = Math.min(numbering.next, KEPT_429_PER_MINUTE);
    numbering.next = slot + 1;
    return { minute, slot };
  }

  /**
   * A request refused before any guard looked at its key (a body too large, malformed JSON, an
   * unknown route) counts for the key when it is a good one: looked up after the answer.
   */
  private identifyLater(outcome: RequestOutcome): void {
    const header = outcome.request.headers.authorization;
    if (header === undefined) return;
    const token = BEARER_KEY.exec(header)?.[1];
    if (token === undefined || isRepeated(outcome.request, 'authorization')) return;
    const at = Date.now();
    // No rate limit ran for these requests: memory answers first, the database only for a key new to both.
    const fingerprint = fingerprintOf(token);
    const known = this.keys.knownIdOf(fingerprint);
    if (known !== null) return this.count(known, outcome, at);
    const hex = fingerprint.toString('hex');
    const unknownUntil = this.unknownKeys.get(hex);
    if (unknownUntil !== undefined) {
      if (unknownUntil > at) return;
      this.unknownKeys.delete(hex);
    }
    const underWay = this.identifying.get(hex);
    if (underWay) {
      void underWay.then((keyId) => keyId !== null && this.count(keyId, outcome, at));
      return;
    }
    if (this.identifying.size >= MAX_IDENTIFYING) return;
    const ip = outcome.context?.ip ?? outcome.request.ip ?? '';
    const work = this.keys
      .identify(token, ip)
      .then(
        (keyId) => {
          if (keyId === null) this.unknownKeys.set(hex, Date.now() + UNKNOWN_KEY_TTL_MS);
          else this.count(keyId, outcome, at);
          return keyId;
        },
        (error: Error) => {
          this.logger.warn(`could not identify the key of a refused request: ${error.message}`);
          return null;
        },
      )
      .finally(() => this.identifying.delete(hex));
    this.identifying.set(hex, work);
  }

  private async writeOnce(): Promise<void> {
    try {
      if (this.dropped > 0) {
        this.logger.warn(`${this.dropped} failed requests were not logged: too many waited for the database`);
        this.dropped = 0;
      }
      if (this.tally.isEmpty && this.failures.length === 0) return;
      let counts = this.tally.take();
      const waiting = this.failures;
      this.failures = [];
      this.overflow.clear();
      for (let from = 0; from === 0 || from < waiting.length; from += FAILURES_PER_WRITE) {
        try {
          await this.repository.write(counts, waiting.slice(from, from + FAILURES_PER_WRITE));
          counts = [];
        } catch (error) {
          const message = (error as Error).message;
          if (refusedForItsContent(error)) {
            // Tried again it would fail again, and hold up everything after it: write the rest, row by row.
            const left = await this.writeApart(counts, waiting.slice(from, from + FAILURES_PER_WRITE), message);
            counts = [];
            if (left === null) continue;
            this.requeue(left.concat(waiting.slice(from + FAILURES_PER_WRITE)));
            return;
          }
          // A write the database committed before its reply was lost is written again: its counts are then added
          // twice (docs/operations.md, Request log). Rare, and cheaper than a written-batch ledger.
          this.tally.restore(counts);
          this.requeue(waiting.slice(from));
          this.logger.warn(`could not write the request log: ${message}`);
          return;
        }
      }
    } catch (error) {
      this.logger.warn(`could not write the request log: ${(error as Error).message}`);
    }
  }

  /**
   * After the database refused a batch for its content: the counts alone, then each failure
   * alone, dropping only what is refused. Returns the failures still to write when the
   * database went away meanwhile (the counts then go back to the tally), else null.
   */
  private async writeApart(
    counts: TallyRow[],
    failures: FailedRequest[],
    firstRefusal: string,
  ): Promise<FailedRequest[] | null> {
    let refused = 0;
    let reason = firstRefusal;
    const attempts: Array<[TallyRow[], FailedRequest[]]> = [
      [counts, []],
      ...failures.map((f): [TallyRow[], FailedRequest[]] => [[], [f]]),
    ];
    for (let i = 0; i < attempts.length; i++) {
      const [someCounts, someFailures] = attempts[i];
      if (someCounts.length === 0 && someFailures.length === 0) continue;
      try {
        await this.repository.write(someCounts, someFailures);
      } catch (error) {
        if (!refusedForItsContent(error)) {
          this.logger.warn(`could not write the request log: ${(error as Error).message}`);
          if (i === 0) this.tally.restore(counts);
          return i === 0 ? failures : failures.slice(i - 1);
        }
        refused += someCounts.length + someFailures.length;
        reason = (error as Error).message;
      }
    }
    this.logger.error(`${refused} request log entries dropped, refused by the database: ${reason}`);
    return null;
  }

  /** Failures a write could not take go back before those queued since, within the bound. */
  private requeue(failures: FailedRequest[]): void {
    this.failures = failures.concat(this.failures);
    if (this.failures.length > MAX_WAITING_FAILURES) {
      this.dropped += this.failures.length - MAX_WAITING_FAILURES;
      this.failures.length = MAX_WAITING_FAILURES;
    }
  }

  private pruneNowAndThen(): void {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    this.pruning = this.prune().catch((error: Error) =>
      this.logger.warn(`could not prune the request log: ${error.message}`),
    );
  }
}
