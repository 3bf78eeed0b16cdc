import { normalizePhone, parseFullName } from './recipient-parsing';

describe('parseFullName', () => {
  it.each([
    ['Ivanova Maria Petrovna', { surname: 'Ivanova', firstName: 'Maria', patronymic: 'Petrovna' }],
    ['  Ivanova   Maria  ', { surname: 'Ivanova', firstName: 'Maria', patronymic: null }],
    ['Cher', { surname: 'Cher', firstName: null, patronymic: null }],
    ['Ogly Mamed Ali Ogly', { surname: 'Ogly', firstName: 'Mamed', patronymic: 'Ali Ogly' }],
    ['Петров Пётр Петрович', { surname: 'Петров', firstName: 'Пётр', patronymic: 'Петрович' }],
  ])('parses %p by position', (input, expected) => {
    expect(parseFullName(input)).toEqual(expected);
  });
});

describe('normalizePhone', () => {
  it.each([
    ['+7 (912) 345-67-89', '+79123456789'],
    ['8 912 345 67 89', '+79123456789'],
    ['9123456789', '+79123456789'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('normalises %p to E.164', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each([['12'], ['not a phone'], ['']])('gives null for %p', (input) => {
    expect(normalizePhone(input)).toBeNull();
  });
});
