import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { attempt, ErrorNote } from './use-load';

/** One answer of a second factor, as `POST /auth/login/second-factor` and `/auth/step-up` take it. */
export type SecondFactorAnswer = { code: string } | { recoveryCode: string } | { passkey: AuthenticationResponseJSON };

/**
 * What was typed in `Code`: digits are the app's code, anything else a recovery code (those are
 * letters in groups), so one field takes both and nobody has to find a switch first.
 */
export function typedAnswer(typed: string): SecondFactorAnswer {
  const text = typed.trim();
  return /^[\d\s]+$/.test(text) ? { code: text.replace(/\s/g, '') } : { recoveryCode: text };
}

/**
 * `Code` with its submit button, and `Use a passkey` when the account holds one: the second step of
 * sign-in and the step-up dialog alike. `answer` posts it; its error text stays in the form.
 */
export function SecondFactorForm(props: {
  /** Whether the account can answer with a typed code (an authenticator app or recovery codes). */
  code: boolean;
  /** Whether it holds an authenticator app: else only a recovery code is typed. */
  app: boolean;
  passkey: (() => Promise<AuthenticationResponseJSON>) | null;
  answer: (answer: SecondFactorAnswer) => Promise<void>;
  submitLabel: string;
  /** Buttons before the others (Cancel, Back). */
  children?: ComponentChildren;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A second Enter while the first is on its way would spend a code (and count a failure) twice.
  const running = useRef(false);
  const once = async (work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    try {
      if (!(await attempt(work, setError))) setTyped('');
    } finally {
      running.current = false;
    }
  };
  // It replaces what had focus (the password form, the dialog's loading): its first control takes it.
  const codeField = useRef<HTMLInputElement>(null);
  const passkeyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => (codeField.current ?? passkeyButton.current)?.focus(), []);
  const { passkey } = props;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void once(() => props.answer(typedAnswer(typed)));
      }}
    >
      {props.code && (
        <>
          <label>
            Code
            <input
              ref={codeField}
              autoComplete="one-time-code"
              required
              aria-describedby="second-factor-code-hint"
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          </label>
          <small id="second-factor-code-hint">
            {props.app
              ? 'The 6-digit code your authenticator app shows, or one of your recovery codes (each works once).'
              : 'One of your recovery codes (each works once), should the passkey be out of reach.'}
          </small>
        </>
      )}
      <ErrorNote text={error} />
      <div class="actions">
        {props.children}
        {passkey && (
          <button
            type="button"
            ref={passkeyButton}
            onClick={() => void once(async () => props.answer({ passkey: await passkey() }))}
          >
            Use a passkey
          </button>
        )}
        {props.code && <button type="submit">{props.submitLabel}</button>}
      </div>
    </form>
  );
}
