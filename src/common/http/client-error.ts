import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorText } from '../errors/error-texts';

/**
 * Node's HTTP parser refuses some requests before any framework sees them (a bare LF in a header,
 * a malformed request line, headers too large). Their answer carries the contract's error body
 * and X-Request-Id too, so a client reads one shape of error whatever refused it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, ErrorText.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, ErrorText.headersTooLarge]
        : [400, ErrorText.malformedHttpRequest];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: text, ...(status === 400 ? { details: [text] } : {}), requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
