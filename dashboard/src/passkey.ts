/** The browser's half of a passkey ceremony (contract §19): options from the API, the authenticator, its answer. */
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { ApiError, post } from './api';

/** A new credential for `POST /auth/passkeys`, made with the options the API asks for. */
export async function newPasskey(): Promise<RegistrationResponseJSON> {
  const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>('/auth/passkeys/options');
  return ceremony(() => startRegistration({ optionsJSON }));
}

/** An assertion answering the request options `optionsPath` gives (the sign-in's or the step-up's). */
export async function passkeyAssertion(optionsPath: string, body: unknown = {}): Promise<AuthenticationResponseJSON> {
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>(optionsPath, body);
  return ceremony(() => startAuthentication({ optionsJSON }));
}

/**
 * The authenticator's refusal in words a person can act on; as an ApiError (status 0: the browser
 * refused, the API was not asked) so the forms show it like the API's own texts.
 */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    throw new ApiError(0, textOf(error));
  }
}

function textOf(error: Error): string {
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This passkey is registered already.';
  }
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') {
    return 'The passkey was not used: the request was cancelled or timed out. Try again.';
  }
  return `The passkey could not be used: ${error.message}`;
}
