import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { SoftAuthenticator } from './soft-authenticator';

const origin = 'http://localhost:3000';
const rpID = 'localhost';

describe('SoftAuthenticator against @simplewebauthn/server', () => {
  async function register(authenticator: SoftAuthenticator): Promise<WebAuthnCredential> {
    const options = await generateRegistrationOptions({
      rpName: 't',
      rpID,
      userName: 'a@b.example',
      attestationType: 'none',
    });
    const verification = await verifyRegistrationResponse({
      response: authenticator.create(options),
      expectedChallenge: options.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
    });
    expect(verification.verified).toBe(true);
    return verification.registrationInfo!.credential;
  }

  async function authenticate(authenticator: SoftAuthenticator, credential: WebAuthnCredential) {
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [{ id: credential.id }] });
    return verifyAuthenticationResponse({
      response: authenticator.get(options),
      expectedChallenge: options.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential,
    });
  }

  it('registers, then authenticates with a counter growing by one', async () => {
    const authenticator = new SoftAuthenticator(origin);
    const credential = await register(authenticator);
    expect(authenticator.credentialIds).toEqual([credential.id]);

    for (const expected of [1, 2]) {
      const verification = await authenticate(authenticator, credential);
      expect(verification.verified).toBe(true);
      expect(verification.authenticationInfo.newCounter).toBe(expected);
      credential.counter = verification.authenticationInfo.newCounter;
    }
  });

  it('is refused when its counter does not exceed the stored one (a cloned authenticator)', async () => {
    const authenticator = new SoftAuthenticator(origin);
    const credential = await register(authenticator);
    credential.counter = (await authenticate(authenticator, credential)).authenticationInfo.newCounter;

    authenticator.setCounter(credential.id, 0);
    await expect(authenticate(authenticator, credential)).rejects.toThrow(/counter/i);
  });

  it('is refused from another origin', async () => {
    const options = await generateRegistrationOptions({
      rpName: 't',
      rpID,
      userName: 'a@b.example',
      attestationType: 'none',
    });
    await expect(
      verifyRegistrationResponse({
        response: new SoftAuthenticator('http://evil.example').create(options),
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
      }),
    ).rejects.toThrow(/origin/i);
  });
});
