import { hasMalformedPath } from './malformed-url';

describe('hasMalformedPath', () => {
  it.each(['/x/%ff', '/%', '/orders/%c0%ae', '/a/%zz', '/a/1%', '/a/%e2%82?x=1'])('%s is malformed', (url) => {
    expect(hasMalformedPath(url)).toBe(true);
  });

  it.each(['/', '/orders/admin/1', '/a/%20b', '/a/%e2%82%ac', '/a%2Fb', '/a?x=%ff', '/a?x=%', '/a#%'])(
    '%s is not',
    (url) => {
      expect(hasMalformedPath(url)).toBe(false);
    },
  );
});
