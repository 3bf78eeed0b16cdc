import { decodeCursor, encodeCursor, START } from './event-cursor';

describe('event cursor', () => {
  it('gives back the place it encodes, as opaque base64url', () => {
    for (const place of [START, { position: '731', id: '12' }, { position: '9223372036854775807', id: '1' }]) {
      const text = encodeCursor(place);
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text)).toEqual(place);
    }
  });

  const valid = encodeCursor({ position: '731', id: '12' });
  const body = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

  it.each([
    ['empty', ''],
    ['garbage', 'not a cursor'],
    ['a number', '12'],
    ['padded', `${valid}==`],
    ['standard base64', Buffer.from('v1.731.12.xxxxxxxx').toString('base64')],
    ['truncated', valid.slice(0, -2)],
    ['a changed character', valid.slice(0, 5) + (valid[5] === 'A' ? 'B' : 'A') + valid.slice(6)],
    ['a changed digit, same shape', body('v1.732.12.deadbeef')],
    ['another version', body('v2.731.12.00000000')],
    ['non-canonical digits', body('v1.0731.12.00000000')],
    ['a negative id', body('v1.731.-12.00000000')],
    ['beyond bigint', body('v1.9223372036854775808.1.00000000')],
    ['too long', 'A'.repeat(200)],
    ['extra parts', body('v1.731.12.00000000.1')],
  ])('refuses %s', (_label, text) => {
    expect(decodeCursor(text)).toBeUndefined();
  });

  it('refuses a changed number even with the rest of the text kept', () => {
    const decoded = Buffer.from(valid, 'base64url').toString('utf8');
    const tampered = Buffer.from(decoded.replace('731', '730'), 'utf8').toString('base64url');
    expect(decodeCursor(tampered)).toBeUndefined();
  });
});
