import { Injectable } from '@nestjs/common';
import { existingContextOf } from '../context/context-of';
import type { HttpRequest } from '../context/http-types';
import type { RequestContext } from '../context/request-context';
import { answeredErrorText } from '../errors/answered-error-text';
import { RouteTemplates } from './route-templates';

/** What became of one request, once its answer has been sent. */
export interface RequestOutcome {
  readonly request: HttpRequest;
  readonly method: string;
  /**
   * The route's template (`/orders/admin/:orderId`), or null when no route would take the
   * request: also for a failure the platform answered before routing it (Express and a bad body).
   */
  readonly route: string | null;
  readonly status: number;
  readonly durationMs: number;
  /** The answer's `error` text, for an answer the error filter gave; else null. */
  readonly error: string | null;
  /** The request's context as the guards left it (principal, brand), when any was made. */
  readonly context: RequestContext | null;
}

export type RequestOutcomeListener = (outcome: RequestOutcome) => void;

/**
 * Where the parts that watch requests (the request log, the metrics) hear of each one after its
 * answer: one hook per platform feeds them all (setupApp), and none is installed while nothing
 * listens. Listeners subscribe in their constructors, before setupApp runs; they must be cheap
 * and must not throw (a throw is caught and dropped: the answer has gone already).
 */
@Injectable()
export class RequestOutcomes {
  private readonly listeners: RequestOutcomeListener[] = [];

  constructor(private readonly routes: RouteTemplates) {}

  listen(listener: RequestOutcomeListener): void {
    this.listeners.push(listener);
  }

  get listening(): boolean {
    return this.listeners.length > 0;
  }

  /** Called by the platform's hook once the answer has been sent. */
  answered(request: HttpRequest, route: string | null, status: number, durationMs: number): void {
    // Express refuses a bad body before it routes: the template then comes from the path (failures only: it costs).
    if (route === null && status >= 400) route = this.routes.of(request.method, pathOf(request));
    const outcome: RequestOutcome = {
      request,
      method: request.method,
      route,
      status,
      durationMs,
      error: answeredErrorText(request),
      context: existingContextOf(request) ?? null,
    };
    for (const listener of this.listeners) {
      try {
        listener(outcome);
      } catch {
        // A watcher's fault must not reach the request, which has been answered.
      }
    }
  }
}

function pathOf(request: HttpRequest): string {
  return existingContextOf(request)?.path ?? (request.originalUrl ?? request.url).split('?')[0];
}
