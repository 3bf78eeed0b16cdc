import type { AuthenticationResponseJSON } from '@simplewebauthn/server';

export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery_code';

/** One answer of the second step or of a step-up: a code, a recovery code or a passkey's assertion. */
export type SecondFactorAnswer =
  | { kind: 'code'; code: string }
  | { kind: 'recoveryCode'; recoveryCode: string }
  | { kind: 'passkey'; passkey: AuthenticationResponseJSON };

/** The one answer a body carries, or null when it carries none or more than one. */
export function answerOf(body: { code?: string; recoveryCode?: string; passkey?: object }): SecondFactorAnswer | null {
  const given = [body.code, body.recoveryCode, body.passkey].filter((value) => value !== undefined);
  if (given.length !== 1) return null;
  if (body.code !== undefined) return { kind: 'code', code: body.code };
  if (body.recoveryCode !== undefined) return { kind: 'recoveryCode', recoveryCode: body.recoveryCode };
  return { kind: 'passkey', passkey: body.passkey as AuthenticationResponseJSON };
}
