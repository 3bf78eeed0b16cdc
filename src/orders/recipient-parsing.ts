import { parsePhoneNumberFromString } from 'libphonenumber-js';

export interface ParsedName {
  surname: string | null;
  firstName: string | null;
  patronymic: string | null;
}

/** By position, as the spec says: surname, first name, then the rest as the patronymic. */
export function parseFullName(fullName: string): ParsedName {
  const [surname, firstName, ...rest] = fullName.trim().split(/\s+/).filter(Boolean);
  return {
    surname: surname ?? null,
    firstName: firstName ?? null,
    patronymic: rest.length > 0 ? rest.join(' ') : null,
  };
}

/**
 * How nearly every storefront writes a Russian mobile: +7 or the trunk 8, then 9 and nine more
 * digits, spaced with blanks, dashes or brackets. libphonenumber finds every such number valid and
 * gives +7 and the ten digits, but at a noticeable share of a storefront order's service CPU
 * (docs/performance.md, PERF-13); recipient-parsing.spec.ts holds the shortcut to the library's
 * answer.
 */
const RU_MOBILE = /^ *(?:\+7|8)[ ()-]*(9(?:[ ()-]*\d){9}) *$/;

/**
 * E.164 form of a phone written any way a storefront sends it, or null when it is not a valid
 * number. Numbers without a country code are read as Russian (the platform's market: a leading
 * 8 is the trunk prefix).
 */
export function normalizePhone(phone: string): string | null {
  const mobile = RU_MOBILE.exec(phone);
  if (mobile) return `+7${mobile[1].replace(/\D/g, '')}`;
  const parsed = parsePhoneNumberFromString(phone, 'RU');
  return parsed?.isValid() ? parsed.number : null;
}
