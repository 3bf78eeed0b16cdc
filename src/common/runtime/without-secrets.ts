// What a caller could put in a path, a header or a text that comes back in an error: an
// integration key, a site key (48 hex), a webhook signing secret (`whsec_` and base64, maybe
// percent-encoded in a path), a session token (a JWT), an invitation's or a password reset's token
// (`csh_inv_`, `csh_pwr_` and base64url, in their pages' API paths). None of them is kept, logged or traced.
const SECRETS =
  /csh_[a-z]{2,4}_[0-9A-Za-z_-]*|whsec_[0-9A-Za-z+/=%_-]*|\b[0-9a-fA-F]{48,}\b|\beyJ[\w-]*\.[\w-]*\.[\w-]*/g;

/** The text with anything shaped like a key, a secret or a token replaced, cut to `max` characters when given. */
export function withoutSecrets(text: string, max = Infinity): string {
  const clean = text.replace(SECRETS, '[redacted]');
  return clean.length > max ? clean.slice(0, max) : clean;
}
