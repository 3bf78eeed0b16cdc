export const money = (kopeks: number) =>
  (kopeks / 100).toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + ' ₽';

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Within 7 days of expiry: the list marks it. */
export const expiresSoon = (iso: string | null) =>
  iso !== null && new Date(iso).getTime() - Date.now() < 7 * 86_400_000;
