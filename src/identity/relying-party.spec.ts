import type { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import { RelyingParty } from './relying-party';

const partyOf = (env: Partial<Environment>) =>
  new RelyingParty({
    get: (name: keyof Environment) => ({ PORT: 3000, ...env })[name],
  } as unknown as ConfigService<Environment, true>);

describe('RelyingParty', () => {
  it("is PUBLIC_URL's host at its origin, or localhost on PORT", () => {
    expect(partyOf({})).toMatchObject({ id: 'localhost', origin: 'http://localhost:3000' });
    expect(partyOf({ PUBLIC_URL: 'https://admin.shop.example/base/' })).toMatchObject({
      id: 'admin.shop.example',
      origin: 'https://admin.shop.example',
    });
  });

  it('takes WEBAUTHN_RP_ID when it is that host or a suffix of it', () => {
    expect(partyOf({ PUBLIC_URL: 'https://admin.shop.example', WEBAUTHN_RP_ID: 'shop.example' }).id).toBe(
      'shop.example',
    );
  });

  it('refuses, at start, an id the browsers would refuse at every ceremony', () => {
    for (const id of ['other.example', 'hop.example', 'admin.shop.example.evil']) {
      expect(() => partyOf({ PUBLIC_URL: 'https://admin.shop.example', WEBAUTHN_RP_ID: id })).toThrow(
        /WEBAUTHN_RP_ID .* must be PUBLIC_URL's host/,
      );
    }
  });
});
