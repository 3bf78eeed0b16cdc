import { useState } from 'preact/hooks';
import { post, setCsrfToken } from '../api';
import type { LoginResponse, SecondStepResponse } from '../types';
import { attempt, ErrorNote } from '../ui/use-load';
import { SecondFactorStep } from './sign-in-second-factor';

/**
 * The page a signed-out person sees: sign in, or ask for a reset link (contract §19). `notice`
 * says what just happened elsewhere, such as a password set through a reset link.
 */
export function SignInPage(props: { notice?: string | null; onSignedIn: () => Promise<void> }) {
  const [forgot, setForgot] = useState(false);
  const [email, setEmail] = useState('');
  return (
    <main class="sign-in">
      <h1>Admin area</h1>
      {forgot ? (
        <ResetRequest email={email} onBack={() => setForgot(false)} />
      ) : (
        <>
          {props.notice && <p role="status">{props.notice}</p>}
          <SignInForm email={email} onEmail={setEmail} onSignedIn={props.onSignedIn} />
          <button type="button" class="link" onClick={() => setForgot(true)}>
            Forgot your password?
          </button>
        </>
      )}
    </main>
  );
}

/**
 * E-mail and password to `/auth/login`, then the second factor when the account holds one; also on
 * the invitation page, for an account that exists.
 */
export function SignInForm(props: {
  email: string;
  onEmail?: (email: string) => void;
  onSignedIn: () => Promise<void>;
}) {
  const [email, setEmail] = useState(props.email);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<SecondStepResponse | null>(null);
  if (challenge) {
    return (
      <SecondFactorStep
        challenge={challenge}
        onSignedIn={props.onSignedIn}
        onBack={() => setChallenge(null)}
        onExpired={() => {
          setChallenge(null);
          setError('The sign-in expired or had too many wrong answers. Enter your password again.');
        }}
      />
    );
  }
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        await attempt(async () => {
          const answer = await post<LoginResponse | SecondStepResponse>('/auth/login', { email, password });
          if ('secondFactorRequired' in answer) {
            // Nothing is signed in yet: the password is not needed again unless the challenge dies.
            setPassword('');
            setChallenge(answer);
            return;
          }
          setCsrfToken(answer.csrfToken);
          await props.onSignedIn();
        }, setError);
      }}
    >
      <label>
        E-mail
        <input
          type="email"
          autoComplete="username"
          required
          value={email}
          onInput={(e) => {
            setEmail(e.currentTarget.value);
            props.onEmail?.(e.currentTarget.value);
          }}
        />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <ErrorNote text={error} />
      <button type="submit">Sign in</button>
    </form>
  );
}

/**
 * Asks for a reset link. The API answers alike for every e-mail (no enumeration), so the page
 * says only what may be true: a mail was sent if the account exists.
 */
function ResetRequest(props: { email: string; onBack: () => void }) {
  const [email, setEmail] = useState(props.email);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      aria-labelledby="reset-request-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setSent(await attempt(() => post('/auth/password-reset', { email }), setError));
      }}
    >
      <h2 id="reset-request-title">Reset your password</h2>
      <p>We mail a link to set a new password. It works once, for 30 minutes.</p>
      <label>
        E-mail
        <input
          type="email"
          autoComplete="username"
          required
          value={email}
          onInput={(e) => {
            setEmail(e.currentTarget.value);
            setSent(false);
          }}
        />
      </label>
      <ErrorNote text={error} />
      {sent && (
        <p role="status">If an account exists for {email}, a mail with a link to set a new password was sent to it.</p>
      )}
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          Back to sign-in
        </button>
        <button type="submit">Send reset link</button>
      </div>
    </form>
  );
}
