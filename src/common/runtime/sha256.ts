import { hash } from 'node:crypto';

/**
 * Every SHA-256 the request paths take (key fingerprints, request fingerprints), digested by
 * Node's one-shot `crypto.hash` as hex text. Measured in place under load, a digest returned as a
 * Buffer (a Hash object's or the one-shot's) cost a request several times what one returned as
 * text does, though both are alike in a loop (docs/performance.md, PERF-11).
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** The same digest as bytes, decoded in JavaScript: a small Buffer from text is a slice of Node's pool. */
export function sha256Bytes(text: string): Buffer {
  return Buffer.from(sha256Hex(text), 'hex');
}
