import { Injectable } from '@nestjs/common';

/**
 * Tells whoever listens (the metrics) of each request the per-key rate limit refused. Only a
 * refusal reaches it, so an admitted request does no work here whether anyone listens or not.
 */
@Injectable()
export class RateLimitRefusals {
  private readonly listeners: Array<() => void> = [];

  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  refused(): void {
    for (const listener of this.listeners) listener();
  }
}
