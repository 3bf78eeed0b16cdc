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
 * E.164 form of a phone written any way a storefront sends it, or null when it is not a valid
 * number. Numbers without a country code are read as Russian (the platform's market: a leading
 * 8 is the trunk prefix).
 */
export function normalizePhone(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone, 'RU');
  return parsed?.isValid() ? parsed.number : null;
}
