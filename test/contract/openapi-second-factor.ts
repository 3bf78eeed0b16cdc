import request, { type Response, type Test } from 'supertest';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { bearer, login, type TestApp } from '../support/test-app';
import { base32Bytes, totpCode } from '../support/totp-code';

type Call = (test: Test, status: number) => Promise<Response>;

/**
 * The second factor's routes (contract §19), each success and a sample of refusals, for the
 * OpenAPI check of openapi-responses.ts: `call` holds every answer to the document. The brand's
 * `manager` (settings.manage) enrols a factor and turns the brand's policy on, then off.
 */
export async function answerSecondFactorRoutes(
  http: TestApp['http'],
  call: Call,
  origin: string,
  manager: { email: string; password: string },
  brandId: number,
): Promise<void> {
  const post = (path: string, headers: Record<string, string>, body: object, status: number) =>
    call(request(http).post(path).set(headers).send(body), status);
  const session = bearer(await login(http, manager.email, manager.password));

  const { secret } = (await post('/auth/second-factor/totp', session, {}, 200)).body as { secret: string };
  const key = base32Bytes(secret);
  const enrolledAt = Date.now();
  await post('/auth/second-factor/totp/confirm', session, { code: 'nope' }, 400);
  await post('/auth/second-factor/totp/confirm', session, { code: totpCode(key, enrolledAt) }, 200);
  const { recoveryCodes } = (await post('/auth/second-factor/recovery-codes', session, {}, 200)).body as {
    recoveryCodes: string[];
  };

  const authenticator = new SoftAuthenticator(origin);
  const creation = (await post('/auth/passkeys/options', session, {}, 200)).body;
  const passkey = (
    await post('/auth/passkeys', session, { name: 'Docs key', credential: authenticator.create(creation) }, 201)
  ).body as { id: number };
  await call(request(http).get('/auth/passkeys').set(session), 200);

  const step = (await post('/auth/login', {}, manager, 200)).body as { challengeToken: string };
  await post('/auth/login/second-factor', {}, { challengeToken: step.challengeToken, code: '000000' }, 401);
  const request_ = (await post('/auth/login/passkey-options', {}, { challengeToken: step.challengeToken }, 200)).body;
  await post(
    '/auth/login/second-factor',
    {},
    { challengeToken: step.challengeToken, passkey: authenticator.get(request_) },
    200,
  );
  const byCode = (await post('/auth/login', {}, manager, 200)).body as { challengeToken: string };
  await post(
    '/auth/login/second-factor',
    {},
    { challengeToken: byCode.challengeToken, recoveryCode: recoveryCodes[0] },
    200,
  );

  await post('/auth/step-up', session, { password: manager.password }, 400);
  await post('/auth/step-up', session, { code: totpCode(key, enrolledAt + 30_000) }, 204);
  const stepUp = (await post('/auth/step-up/passkey-options', session, {}, 200)).body;
  await post('/auth/step-up', session, { passkey: authenticator.get(stepUp) }, 204);

  const policy = `/admin/brands/${brandId}/security-policy`;
  await call(request(http).get(policy).set(session), 200);
  await call(request(http).put(policy).set(session).send({ requireSecondFactor: true }), 200);
  await call(request(http).put(policy).set(session).send({ requireSecondFactor: false }), 200);

  await call(request(http).delete(`/auth/passkeys/${passkey.id}`).set(session), 204);
  await call(request(http).delete(`/auth/passkeys/${passkey.id}`).set(session), 404);
  await call(request(http).delete('/auth/second-factor/totp').set(session), 204);
  await post('/auth/second-factor/recovery-codes', session, {}, 409);
}
