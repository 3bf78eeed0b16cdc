import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';

/** Loads what a screen shows; `reload` after a change. Errors keep the API's text. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    load().then(
      (value) => {
        setData(value);
        setError(null);
      },
      (e: unknown) => setError(e instanceof ApiError ? e.message : String(e)),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { data, error, reload };
}

/** Runs a change and reports its error text, if any, through `setError`. */
export async function attempt(work: () => Promise<unknown>, setError: (text: string | null) => void): Promise<boolean> {
  try {
    await work();
    setError(null);
    return true;
  } catch (e) {
    setError(e instanceof ApiError ? [e.message, ...e.details.filter((d) => d !== e.message)].join(' — ') : String(e));
    return false;
  }
}

export function ErrorNote(props: { text: string | null }) {
  return props.text ? (
    <p class="error" role="alert">
      {props.text}
    </p>
  ) : null;
}
