import { ALL_BRAND_PERMISSIONS } from '../common/context/permissions';
import { UserPrincipal } from './user-principal';

describe('UserPrincipal', () => {
  it('acts in its only brand by default, and in none with two', () => {
    expect(
      new UserPrincipal(1, 'a@x', false, 's', [{ brandId: 7, permissions: ['orders.read'] }]).defaultBrandId(),
    ).toBe(7);
    const two = new UserPrincipal(1, 'a@x', false, 's', [
      { brandId: 7, permissions: ['orders.read'] },
      { brandId: 8, permissions: ['orders.read'] },
    ]);
    expect(two.defaultBrandId()).toBeNull();
  });

  it('has the permissions of its membership in a brand, and none elsewhere', () => {
    const user = new UserPrincipal(1, 'a@x', false, 's', [{ brandId: 7, permissions: ['orders.read', 'stock.read'] }]);
    expect([...user.permissionsIn(7)]).toEqual(['orders.read', 'stock.read']);
    expect(user.permissionsIn(8).size).toBe(0);
  });

  it('a superadministrator has every permission in every brand but no default brand', () => {
    const admin = new UserPrincipal(1, 'a@x', true, 's', [{ brandId: 7, permissions: ['orders.read'] }]);
    expect(admin.permissionsIn(99)).toBe(ALL_BRAND_PERMISSIONS);
    expect(admin.defaultBrandId()).toBeNull();
  });

  it("lacks a second factor only where a brand's policy asks for one it does not hold", () => {
    const rows = [
      { brandId: 3, permissions: ['orders.read' as const], secondFactorRequired: true },
      { brandId: 4, permissions: ['orders.read' as const], secondFactorRequired: false },
    ];
    const without = new UserPrincipal(1, 'a@x', false, 's', rows, new Date(), false);
    expect([3, 4, 5].map((brandId) => without.lacksSecondFactorFor(brandId))).toEqual([true, false, false]);
    expect(new UserPrincipal(1, 'a@x', false, 's', rows, new Date(), true).lacksSecondFactorFor(3)).toBe(false);
    // A superadministrator who is a member is held to the brand's policy; elsewhere not.
    const admin = new UserPrincipal(1, 'a@x', true, 's', rows, new Date(), false);
    expect([admin.lacksSecondFactorFor(3), admin.lacksSecondFactorFor(5)]).toEqual([true, false]);
  });
});
