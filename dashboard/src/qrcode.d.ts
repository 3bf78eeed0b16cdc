/**
 * The browser build of `qrcode`, typed here: @types/qrcode pulls in Node's types, which would let
 * the page's code use Node's globals unchecked. Only what the page calls.
 */
declare module 'qrcode/lib/browser' {
  export function toString(
    text: string,
    options: { type: 'svg'; margin?: number; errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
  ): Promise<string>;
}
