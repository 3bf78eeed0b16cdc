import { sha256Hex } from '../common/runtime/sha256';
import { decodeCursor, encodeCursor, START } from './event-cursor';

const BRAND = 7;

describe('event cursor', () => {
  it('gives back the place it encodes, as opaque base64url', () => {
    for (const place of [START, { position: '731', id: '12' }, { position: '9223372036854775807', id: '1' }]) {
      const text = encodeCursor(place, BRAND);
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text, BRAND)).toEqual(place);
    }
  });

  it("refuses another brand's cursor: kept for one brand and sent for another, it would skip events", () => {
    const text = encodeCursor({ position: '731', id: '12' }, BRAND);
    expect(decodeCursor(text, BRAND + 1)).toBeUndefined();
  });

  it('still reads a cursor written before cursors named their brand, for any brand', () => {
    const body = 'v1.731.12';
    const unbound = Buffer.from(`${body}.${sha256Hex(body).slice(0, 8)}`, 'utf8').toString('base64url');
    expect(decodeCursor(unbound, BRAND)).toEqual({ position: '731', id: '12' });
    expect(decodeCursor(unbound, BRAND + 1)).toEqual({ position: '731', id: '12' });
  });

  const valid = encodeCursor({ position: '731', id: '12' }, BRAND);
  const body = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

  it.each([
    ['empty', ''],
    ['garbage', 'not a cursor'],
    ['a number', '12'],
    ['padded', `${valid}==`],
    ['standard base64', Buffer.from('v2.731.12.xxxxxxxx').toString('base64')],
    ['truncated', valid.slice(0, -2)],
    ['a changed character', valid.slice(0, 5) + (valid[5] === 'A' ? 'B' : 'A') + valid.slice(6)],
    ['a changed digit, same shape', body('v2.732.12.deadbeef')],
    ['another version', body('v3.731.12.00000000')],
    ['non-canonical digits', body('v2.0731.12.00000000')],
    ['a negative id', body('v2.731.-12.00000000')],
    ['beyond bigint', body('v2.9223372036854775808.1.00000000')],
    ['too long', 'A'.repeat(200)],
    ['extra parts', body('v2.731.12.00000000.1')],
  ])('refuses %s', (_label, text) => {
    expect(decodeCursor(text, BRAND)).toBeUndefined();
  });

  it('refuses a changed number even with the rest of the text kept', () => {
    const decoded = Buffer.from(valid, 'base64url').toString('utf8');
    const tampered = Buffer.from(decoded.replace('731', '730'), 'utf8').toString('base64url');
    expect(decodeCursor(tampered, BRAND)).toBeUndefined();
  });
});
