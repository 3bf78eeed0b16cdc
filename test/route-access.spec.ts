import { describeAccess, routeTable } from './support/route-table';

/**
 * Who may call what, from Nest's own metadata, against a reviewed snapshot: a route added, or a
 * permission changed, shows up as a diff in review (`npx jest test/route-access -u` after
 * checking it). Every route carries exactly one access decorator. The access matrix
 * (test/contract/access-matrix.ts) then calls every route as every kind of caller and checks that the
 * guards enforce what this table says. "(own account)": a brand's second-factor policy leaves the route
 * open, so a member it blocks can still sign out and enrol.
 */
describe('route access', () => {
  const routes = routeTable();

  it('every route declares exactly one access decision', () => {
    const problems = routes
      .filter((route) => route.decisions.length !== 1)
      .map(
        (r) =>
          `${r.method} ${r.path}: ${r.decisions.length} access decorators (${r.decisions.map(describeAccess).join(', ')})`,
      );
    expect(problems).toEqual([]);
  });

  it('matches the reviewed snapshot', () => {
    expect(routes.length).toBeGreaterThan(30);
    const lines = routes.map(
      (r) =>
        `${`${r.method} ${r.path}`.padEnd(70)} ${r.decisions.map(describeAccess).join(' + ') || 'NONE'}${r.recentAuthentication ? ' + recent authentication' : ''}${r.accountRoute ? ' (own account)' : ''}`,
    );
    expect(lines.join('\n')).toMatchSnapshot();
  });
});
