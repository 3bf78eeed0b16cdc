/**
 * Whether the account `u` holds a second factor (contract §19): a confirmed authenticator app or
 * a passkey. Recovery codes stand in for a factor but are none of their own.
 */
export const HAS_SECOND_FACTOR = `(EXISTS (SELECT 1 FROM totp_authenticators t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id))`;
