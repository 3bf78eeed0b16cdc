/**
 * The buyer's values in a stored answer (an Idempotency-Key's, replayed for 24 hours), found
 * wherever they stand. The erasure reads every value the personal-data map is about to empty
 * for the orders (recipient, comment, waybill link, a return's note, a job's error…) and then
 * empties each text of the stored answers that quotes one of them: so a field an answer gains
 * later is covered as soon as it copies something the map erases, with no list of fields here.
 */
export interface BuyerValues {
  /** Lower-cased; a text of at least MIN_QUOTED characters found inside a longer text counts too. */
  texts: string[];
  /** Phones as their last ten digits, found in a text's digits whatever its format. */
  phoneDigits: string[];
}

/** Shorter values (a two-letter first name) only match a whole text: inside others they are not the buyer. */
export const MIN_QUOTED = 4;
const PHONE = /^\+?\d[\d\s()-]{8,}$/;
const NATIONAL_DIGITS = 10;

export function buyerValues(values: Iterable<string>): BuyerValues {
  const texts = new Set<string>();
  const phoneDigits = new Set<string>();
  for (const value of values) {
    const text = value.trim().toLowerCase();
    if (text === '') continue;
    texts.add(text);
    const digits = text.replace(/\D/g, '');
    if (PHONE.test(text) && digits.length >= NATIONAL_DIGITS) phoneDigits.add(digits.slice(-NATIONAL_DIGITS));
  }
  return { texts: [...texts], phoneDigits: [...phoneDigits] };
}

export function quotesBuyer(text: string, buyer: BuyerValues): boolean {
  const lower = text.trim().toLowerCase();
  if (lower === '') return false;
  for (const value of buyer.texts) {
    if (lower === value || (value.length >= MIN_QUOTED && lower.includes(value))) return true;
  }
  if (buyer.phoneDigits.length === 0) return false;
  const digits = lower.replace(/\D/g, '');
  return buyer.phoneDigits.some((phone) => digits.includes(phone));
}

/**
 * The answer with every text that quotes the buyer emptied (`""`: the field keeps its type), and
 * whether anything changed. Object keys are the answer's own names, not the buyer's.
 */
export function scrubbedAnswer(answer: unknown, buyer: BuyerValues): { answer: unknown; changed: boolean } {
  let changed = false;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!quotesBuyer(value, buyer)) return value;
      changed = true;
      return '';
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    }
    return value;
  };
  const scrubbed = walk(answer);
  return { answer: changed ? scrubbed : answer, changed };
}
