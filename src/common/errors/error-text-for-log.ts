import { ErrorText } from './error-texts';

/**
 * Error texts as the request log keeps them (30 days): what was wrong, without the request's
 * values. A text made by an ErrorText factory has each argument replaced by `…`, unless the
 * argument is a number (an index, an id, a limit) or one the service itself chose, listed in
 * OWN_ARGUMENTS. So a new factory that quotes the request is redacted without anyone listing
 * it; only one whose argument is reviewed as the service's own keeps it. Texts of no factory
 * (class-validator's messages, which name fields and rules, never values) are kept as they are.
 */
const OWN_ARGUMENTS: Readonly<Partial<Record<keyof typeof ErrorText, readonly number[]>>> = {
  missingPermission: [0],
  lineMatchesNoProduct: [1],
  orderCannotMove: [0, 1],
  keyNotRollable: [0],
  webhookUrlRefused: [0],
  buyerExactlyOne: [0],
  returnCannotMove: [0, 1],
  orderNotReturnable: [0],
  refundNotPending: [0],
  refundOfClosedOut: [0],
};

const REDACTED = '…';
const NUMBER = /^-?\d+(\.\d+)?$/;

interface Template {
  pattern: RegExp;
  /** The text between the arguments, one more than the arguments. */
  literals: string[];
  /** Per argument as it appears in the text: kept as it is. */
  kept: boolean[];
}

// Private-use characters: no factory's own text holds them.
const sentinel = (index: number) => `\uE000${index}\uE001`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templatesOf(texts: typeof ErrorText): Template[] {
  const templates: Template[] = [];
  for (const [name, text] of Object.entries(texts)) {
    if (typeof text !== 'function') continue;
    const args = Array.from({ length: text.length }, (_, index) => sentinel(index));
    let made: string;
    try {
      made = (text as (...values: string[]) => string)(...args);
    } catch {
      continue; // An argument that is no text (importLine's list of texts, each made by a factory here).
    }
    const parts = made.split(/\uE000(\d+)\uE001/);
    const literals = parts.filter((_, index) => index % 2 === 0);
    const own = new Set(OWN_ARGUMENTS[name as keyof typeof ErrorText] ?? []);
    const kept = parts.filter((_, index) => index % 2 === 1).map((argument) => own.has(Number(argument)));
    const pattern = new RegExp(`^${literals.map(escapeRegExp).join('([\\s\\S]*?)')}$`);
    templates.push({ pattern, literals, kept });
  }
  // The most literal first: of two templates a text fits, the one that explains more of it.
  const literalLength = (t: Template) => t.literals.join('').length;
  return templates.sort((a, b) => literalLength(b) - literalLength(a));
}

const TEMPLATES = templatesOf(ErrorText);

/** The text with the request's values among its factory's arguments replaced by `…`. */
export function errorTextForLog(text: string): string {
  for (const { pattern, literals, kept } of TEMPLATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    return literals.reduce((out, literal, index) => {
      if (index === 0) return literal;
      const value = match[index];
      return out + (kept[index - 1] || NUMBER.test(value) ? value : REDACTED) + literal;
    }, '');
  }
  return text;
}
