import { get } from './api';
import type { MeResponse } from './types';

/**
 * Whether the signed-in account's authenticator app is set up, as `/auth/me` lists the methods it
 * holds. Asked afresh, for the shell's copy of `/auth/me` may predate an enrolment on this page.
 */
export async function appHeld(secondFactor: boolean): Promise<boolean> {
  if (!secondFactor) return false;
  return (await get<MeResponse>('/auth/me')).secondFactorMethods.includes('totp');
}
