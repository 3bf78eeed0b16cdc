/** A request of a key answered 400 or above, as it waits for the next flush. */
export interface FailedRequest {
  keyId: number;
  at: Date;
  method: string;
  route: string | null;
  path: string;
  status: number;
  error: string | null;
  requestId: string;
  idempotencyKey: string | null;
  durationMs: number;
  ip: string;
  /** How many answers alike it stands for (RequestRecorder folds a key's 429s past a few a minute). */
  count: number;
  /** A 429's minute and place among its key's 429s of that minute (request_failures.fold_minute, fold_slot). */
  foldMinute: Date | null;
  foldSlot: number | null;
}
