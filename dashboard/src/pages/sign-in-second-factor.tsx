import { ApiError, post, setCsrfToken } from '../api';
import { passkeyAssertion } from '../passkey';
import type { LoginResponse, SecondStepResponse } from '../types';
import { SecondFactorForm, type SecondFactorAnswer } from '../ui/second-factor-form';

/**
 * Sign-in's second step (contract §19): the password was right, and the account holds a second
 * factor. The challenge dies after a few minutes or five wrong answers (401 `Unauthorized`, where a
 * wrong answer is `Invalid code`): then only the password step can start again, so `onExpired`.
 */
export function SecondFactorStep(props: {
  challenge: SecondStepResponse;
  onSignedIn: () => Promise<void>;
  onExpired: () => void;
  onBack: () => void;
}) {
  const { challengeToken, methods } = props.challenge;
  const expiring = async <T,>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && error.message !== 'Invalid code') props.onExpired();
      throw error;
    }
  };
  const answer = async (given: SecondFactorAnswer) => {
    const session = await expiring(() =>
      post<LoginResponse>('/auth/login/second-factor', { challengeToken, ...given }),
    );
    setCsrfToken(session.csrfToken);
    await props.onSignedIn();
  };
  const holds = (method: string) => methods.includes(method);
  return (
    <section aria-labelledby="second-step-title">
      <h2 id="second-step-title">Second factor</h2>
      <p>
        {holds('passkey') && !holds('totp')
          ? 'Use your passkey to finish signing in.'
          : 'Enter the code from your authenticator app to finish signing in.'}
      </p>
      <SecondFactorForm
        code={holds('totp') || holds('recovery_code')}
        app={holds('totp')}
        passkey={
          holds('passkey')
            ? () => expiring(() => passkeyAssertion('/auth/login/passkey-options', { challengeToken }))
            : null
        }
        answer={answer}
        submitLabel="Verify"
      >
        <button type="button" onClick={props.onBack}>
          Back
        </button>
      </SecondFactorForm>
    </section>
  );
}
