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
}
