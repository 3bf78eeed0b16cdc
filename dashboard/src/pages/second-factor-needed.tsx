/**
 * In place of a store's page while its policy refuses this session (403 `Forbidden: second factor
 * required`, contract §19): the one way on is the Account page, where `/auth/*` still works.
 */
export function SecondFactorNeeded(props: { storeName: string | null }) {
  return (
    <section aria-labelledby="factor-needed-title">
      <h1 id="factor-needed-title">Second factor required</h1>
      <p class="warning" role="alert">
        {props.storeName ?? 'This store'} asks everyone on its team to sign in with a second factor, and this account
        has none yet.
      </p>
      <p>
        <a href="#/account">Set up an authenticator app or a passkey on the Account page</a>; then this store opens
        again.
      </p>
    </section>
  );
}
