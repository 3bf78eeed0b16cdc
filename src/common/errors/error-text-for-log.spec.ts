import { errorTextForLog } from './error-text-for-log';
import { ErrorText } from './error-texts';

describe('errorTextForLog', () => {
  it("replaces the request's values in a factory's text and keeps what was wrong", () => {
    expect(errorTextForLog(ErrorText.unknownEventType('ivanova@example.com'))).toBe(
      'types must list event types or prefixes such as order.*: "…" is neither',
    );
    expect(errorTextForLog(ErrorText.lineHasNoSize(2, 'SF-1', 'Maria'))).toBe('items.2: product "…" has no size "…"');
    expect(errorTextForLog(ErrorText.lineMatchesNoProduct(0, 'storefront article', '+7 912 345-67-89'))).toBe(
      'items.0: storefront article "…" matches no product',
    );
    expect(errorTextForLog(ErrorText.unsupportedCharset('koi8-r'))).toBe('charset … is not supported: send UTF-8');
    // A value that itself holds a quote or the template's words is still taken whole.
    expect(errorTextForLog(ErrorText.sizeNameRepeated('a" repeats "b'))).toBe(
      'size names must be unique per product (case-insensitive): "…" repeats',
    );
  });

  it('keeps numbers and the arguments the service chose, and texts of no factory as they are', () => {
    expect(errorTextForLog(ErrorText.missingPermission('orders.read'))).toBe(
      'Forbidden: Missing permission orders.read',
    );
    expect(errorTextForLog(ErrorText.orderCannotMove('completed', 'cancelled'))).toBe(
      'An order that is completed cannot become cancelled',
    );
    expect(errorTextForLog(ErrorText.returnExceedsOrdered(1, 17, 2))).toBe(
      'items.1: order item 17 has 2 unit(s) left to return',
    );
    expect(errorTextForLog(ErrorText.nulInKeys('recipient'))).toBe('… must not contain NUL characters in its keys');
    expect(errorTextForLog('Too many requests')).toBe('Too many requests');
    expect(errorTextForLog('recipient.phone must be a string')).toBe('recipient.phone must be a string');
  });
});
