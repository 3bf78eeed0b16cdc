import type { Socket } from 'node:net';
import type { HttpRequest } from '../context/http-types';

/** A signal that aborts when the client's connection closes; `dispose` once answered. */
export interface ClientGone {
  signal: AbortSignal;
  dispose: () => void;
}

/**
 * For a handler that waits (a long poll): a client that hangs up should not keep its wait, nor
 * the slot it holds. The connection is Node's socket on both platforms (Fastify's request wraps
 * Node's as `raw`); a kept-alive socket serves other requests, so the listener goes once answered.
 */
export function clientGone(request: HttpRequest): ClientGone {
  const controller = new AbortController();
  const socket = ((request.raw ?? request) as { socket?: Socket }).socket;
  if (!socket || socket.destroyed) {
    controller.abort();
    return { signal: controller.signal, dispose: () => undefined };
  }
  const abort = () => controller.abort();
  socket.once('close', abort);
  return { signal: controller.signal, dispose: () => socket.off('close', abort) };
}
